"""Reading one handwritten capital letter (or a digit) from the inside of a printed write-in box.

As ``digits`` reads digits, with the classifiers of the letters' alphabet; a box allows only the characters the
rules allow there (the board's animal letters, a zone's snack codes), which is most of what makes a letter sure.
"""

from __future__ import annotations

import numpy as np

from . import classifier

#: A read whose confidence is below this is marked unsure, for a person to check.
UNSURE_BELOW = 0.9
#: A box allows a few letters, and the alphabet holds look-alikes of them that no box of the sheet allows (O and 0,
#: S and 5, D and 0): the networks' chances of those are no doubt about which allowed letter it is.
LEAST_ALLOWED = 0.0


def read_letters(items: list[tuple[np.ndarray, str]]) -> list[tuple[str | None, float]]:
    """The character written in each (ink, allowed characters) pair, one of them, and how sure that is (0..1); None
    for an empty box."""
    allowed = [(ink, characters.upper()) for ink, characters in items]
    return classifier.alphabet(classifier.LETTERS).read(allowed, LEAST_ALLOWED)
