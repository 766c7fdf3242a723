"""Reading one handwritten digit from the inside of a printed write-in box.

The box's ink is normalised (``glyphs``) and read by the shipped digit classifiers (``classifier``): two opinions,
calibrated, and a read is sure only when both are sure of the same digit. The rules' allowed digits restrict a read.
"""

from __future__ import annotations

import numpy as np

from . import classifier, glyphs

#: The ``load_digits`` indices never trained on (the last two writers' digits), for tests and benchmarks.
HELD_OUT = slice(1521, None)
#: A read whose confidence is below this is marked unsure, for a person to check.
UNSURE_BELOW = 0.9
ANY_DIGIT = "0123456789"
#: The optdigits counts of a box's digit (tests and benchmarks compare hands by them).
features = glyphs.counts


def read_digit(ink: np.ndarray, allowed: str = ANY_DIGIT) -> tuple[int | None, float]:
    """The digit written in ``ink``, one of ``allowed``, and how sure that is (0..1); None for an empty box."""
    return read_digits([(ink, allowed)])[0]


def read_digits(items: list[tuple[np.ndarray, str]]) -> list[tuple[int | None, float]]:
    """``read_digit`` of every (ink, allowed) pair, classified in one batch."""
    reads = classifier.alphabet(classifier.DIGITS).read(items)
    return [(None if read is None else int(read), confidence) for read, confidence in reads]
