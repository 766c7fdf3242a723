"""The data of a tournament: events, players, rounds, tables, seats, manches and their
sheets; clubs, their people and ratings."""

from .audit import AuditEntry
from .clubs import Club, Person
from .event import Event
from .players import Player, Team
from .ratings import Rating, RatingChange
from .rounds import Round, Seat, Table
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
    "Seat",
    "SheetRevision",
    "Standing",
    "Table",
    "Team",
]
