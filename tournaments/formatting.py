"""Numbers written the way score sheets write them."""

from __future__ import annotations


def signed(points: int) -> str:
    """Points with their sign, a true minus for losses: +30, −50, 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"
