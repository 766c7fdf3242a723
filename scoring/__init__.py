"""Tablescore's scoring engine: the rules of each game as pure Python.

``score(document)`` turns a score-sheet document into a result document, or raises
``ScoreSheetError`` whose ``.errors`` lists every problem with its path. ``check(document)`` returns the
document cut down to the keys the rules read, and its result. The games are this package's modules that
define ``RULES`` and any rules registered (``games.register``); ``GAMES`` reads them all.
"""

from .engine import check, normalise, score
from .errors import Problem, ScoreSheetError
from .games import GAMES, register
from .registry import GameRules, default_placement_points

__all__ = [
    "GAMES",
    "GameRules",
    "Problem",
    "ScoreSheetError",
    "check",
    "default_placement_points",
    "normalise",
    "register",
    "score",
]
