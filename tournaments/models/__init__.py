"""The data of a tournament: events, players, rounds, tables, seats, manches and their
sheets; clubs, their people, ratings and seasons."""

from .audit import AuditEntry
from .clubs import Club, Person
from .event import Event
from .paper import PaperSheet
from .players import Player, Team
from .ratings import Rating, RatingChange
from .rounds import Round, Seat, Table
from .seasons import Season
from .sheets import Manche, SheetRevision
from .standing import Standing

__all__ = [
    "AuditEntry",
    "Club",
    "Event",
    "Manche",
    "Person",
    "Player",
    "Rating",
    "RatingChange",
    "Round",
    "Season",
    "Seat",
    "PaperSheet",
    "SheetRevision",
    "Standing",
    "Table",
    "Team",
]
