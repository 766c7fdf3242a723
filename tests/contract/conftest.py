"""The contract suite runs with every test game registered (``tests.games.TEST_GAMES``), as a real one is."""

from __future__ import annotations

import pytest

from tests.games import TEST_GAMES


@pytest.fixture(autouse=True)
def test_games(settings):
    """Every game of ``tests/games/`` is a game of the registry for the test."""
    settings.EXTRA_GAMES = [*settings.EXTRA_GAMES, *TEST_GAMES]
