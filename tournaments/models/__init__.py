"""The data of a tournament: events, players, rounds, tables, seats, manches and their sheets."""

from .audit import AuditEntry
from .event import Event
from .players import Player, Team
from .rounds import Round, Seat, Table
from .sheets import Manche, SheetRevision
from .standing import Standing

__all__ = ["AuditEntry", "Event", "Manche", "Player", "Round", "Seat", "SheetRevision", "Standing", "Table", "Team"]
