"""Rules that live beside a game bundle rather than in ``scoring/``, registered as the app registers them."""

from __future__ import annotations

import pytest

import scoring
from tests.games.crown_tricks.rules import RULES as CROWN_TRICKS


@pytest.fixture
def crown_tricks():
    """The test game's rules, a game of ``scoring`` for the test: a bundle's rules that take every default."""
    scoring.register(CROWN_TRICKS)
    yield CROWN_TRICKS
    scoring.games.unregister(CROWN_TRICKS.key)
