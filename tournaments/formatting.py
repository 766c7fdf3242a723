"""Numbers written the way score sheets write them."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

HUNDREDTH = Decimal("0.01")


def signed(points: int) -> str:
    """Points with their sign, a true minus for losses: +30, −50, 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def hundredths(value: Decimal | Fraction | int) -> Decimal:
    """``value`` to the hundredth, halves rounded up: 34.667 and 104/3 are 34.67, 2.5 is 2.50. The one rounding of
    tournament points wherever they are shown or written."""
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
    return exact.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


def points_text(value: Decimal | Fraction | int) -> str:
    """Tournament points as plain text, to the hundredth without trailing zeros: 34.67, 3.5, 7."""
    return f"{hundredths(value).normalize():f}"
