"""The round on the public event page, and finding a player's table in it by a few letters of their name."""

from __future__ import annotations

import re
import unicodedata

from ..collation import alphabetical
from ..models import Event, Round, Seat

#: Letters that no Unicode decomposition takes to a plain Latin letter, as people type them without the accent.
PLAIN_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"})
#: The most seats a search lists: a search matching more is too short to tell players apart.
MAX_FOUND = 12
#: The longest search read: longer than any name.
MAX_QUERY = 100


def folded(text: str) -> str:
    """``text`` as a search compares it: lower case, without accents (Ł is l, ø is o, é is e)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(PLAIN_LETTERS))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words_of(text: str) -> list[str]:
    """The folded words of ``text``: "Sánchez-Vicario, Núria" is sanchez, vicario, nuria."""
    return [word for word in re.split(r"[\W_]+", folded(text)) if word]


def answers(name: str, words: list[str]) -> bool:
    """Whether every searched word begins a word of ``name`` ("mar" finds Mārtiņš and María, not Omar)."""
    own = words_of(name)
    return all(any(word.startswith(searched) for word in own) for searched in words)


def round_now(event: Event) -> Round | None:
    """The round the public sees now: the event's latest published round."""
    return event.rounds.filter(published=True).order_by("-number").first()


def find_seats(round_: Round | None, query: str) -> list[Seat]:
    """The seats of ``round_`` whose player's name answers ``query``, in alphabetical order.

    Accents and case do not matter ("lukasz" finds Łukasz); at most ``MAX_FOUND`` seats.
    """
    words = words_of(query[:MAX_QUERY])
    if round_ is None or not words:
        return []
    seats = Seat.objects.filter(round=round_).select_related("player", "table")
    found = [seat for seat in seats if answers(seat.player.name, words)]
    return alphabetical(found, key=lambda seat: seat.player.name)[:MAX_FOUND]
