"""The games, one bundle (a package of this folder) each; the registry is how the rest of the app reads them."""

from .base import DemoEvent, EventDefaults, Game, OptionsForm
from .registry import all_games, check, default_game, find_game, game_choices, get_game, score

__all__ = [
    "DemoEvent",
    "EventDefaults",
    "Game",
    "OptionsForm",
    "all_games",
    "check",
    "default_game",
    "find_game",
    "game_choices",
    "get_game",
    "score",
]
