"""People across a club's events: suggesting who each event's player is, linking on the organiser's word,
merging two people of a club and unlinking a player. Links change ratings, so the club's are rebuilt."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..collation import alphabetical
from ..models import Club, Event, Person, Player
from ..models.audit import Action
from ..models.rounds import RoundStatus
from ..names import clean_text
from ..numbers import record_id
from ..ratings.build import rebuild_ratings
from .audit import Author, record

#: What the People page's choice for a player says instead of a person's id.
NEW_PERSON = "new"


class PeopleRefused(Exception):
    """A link or merge that cannot be made as asked; the message says why."""


def match_key(text: str) -> str:
    """What two names (or clubs) must share to match: case, accents, spacing and invisible characters aside."""
    decomposed = unicodedata.normalize("NFKD", clean_text(text))
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


@dataclass
class Suggestion:
    """An unlinked player and the club's people who may be them: ``exact`` has the same name and club."""

    player: Player
    exact: Person | None = None
    others: list[Person] = field(default_factory=list)


def suggestions(event: Event) -> list[Suggestion]:
    """For every player of the event not linked yet, alphabetically: the club's people with the same name,
    the one with the same club first (``exact``), then those of other clubs."""
    players = alphabetical(event.players.filter(person__isnull=True), key=lambda player: player.name)
    if event.club_id is None:
        return [Suggestion(player) for player in players]
    taken = set(event.players.filter(person__isnull=False).values_list("person_id", flat=True))
    by_name: dict[str, list[Person]] = defaultdict(list)
    for person in Person.objects.filter(club_id=event.club_id).exclude(pk__in=taken):
        by_name[match_key(person.name)].append(person)
    found = []
    for player in players:
        namesakes = alphabetical(by_name.get(match_key(player.name), []), key=lambda person: person.affiliation)
        club = match_key(player.club)
        exact = next((person for person in namesakes if match_key(person.affiliation) == club), None)
        found.append(Suggestion(player, exact, [person for person in namesakes if person is not exact]))
    return found


def unlinked_count(event: Event) -> int:
    return event.players.filter(person__isnull=True).count() if event.club_id else 0


def same_person_key(name: str, affiliation: str) -> tuple[str, str]:
    """What the club's people may not share: name and club, whatever the case."""
    return (name.casefold(), affiliation.casefold())


def person_for(club: Club, player: Player, known: dict[tuple[str, str], Person]) -> Person:
    """The club's person of the player's name and club (whatever the case), created if there is none;
    ``known`` holds the club's people by ``same_person_key`` and learns the new one."""
    key = same_person_key(player.name, player.club)
    if key not in known:
        try:
            with transaction.atomic():
                known[key] = Person.objects.create(club=club, name=player.name, affiliation=player.club)
        except IntegrityError:
            known[key] = Person.objects.get(club=club, name__iexact=player.name, affiliation__iexact=player.club)
    return known[key]


def has_completed_rounds(event: Event) -> bool:
    return event.rounds.filter(status=RoundStatus.COMPLETE).exists()


@transaction.atomic
def link_players(event: Event, choices: dict[int, str], author: Author) -> int:
    """Link players of the event as the organiser chose: ``choices`` maps a player's id to a person's id of the
    club, or ``NEW_PERSON``; players left out stay unlinked. Returns how many were linked."""
    if event.club_id is None:
        raise PeopleRefused(_("This tournament belongs to no club: choose its club first."))
    players = {p.pk: p for p in event.players.filter(pk__in=list(choices), person__isnull=True)}
    wanted = {record_id(v) for v in choices.values() if v != NEW_PERSON} - {None}
    people = {p.pk: p for p in Person.objects.filter(club_id=event.club_id, pk__in=wanted)}
    taken = set(event.players.filter(person__isnull=False).values_list("person_id", flat=True))
    known = {same_person_key(p.name, p.affiliation): p for p in Person.objects.filter(club_id=event.club_id)}
    linked = 0
    for player_id, choice in choices.items():
        player = players.get(player_id)
        if player is None:
            continue
        person = person_for(event.club, player, known) if choice == NEW_PERSON else people.get(record_id(choice))
        if person is None:
            raise PeopleRefused(_("%(name)s: that person is not one of the club's.") % {"name": player})
        if person.pk in taken:
            raise PeopleRefused(
                _("%(person)s is linked to another player of this tournament already.") % {"person": person}
            )
        taken.add(person.pk)
        player.person = person
        player.save(update_fields=["person"])
        record(event, Action.PERSON_LINK, author, subject=player, details={"person": person.pk, "name": person.name})
        linked += 1
    if linked and has_completed_rounds(event):
        rebuild_ratings(event.club, event.game)
    return linked


@transaction.atomic
def unlink_player(player: Player, author: Author) -> None:
    """The player is no longer that person: their results leave the person's ratings."""
    person = player.person
    if person is None:
        return
    player.person = None
    player.save(update_fields=["person"])
    record(
        player.event, Action.PERSON_UNLINK, author, subject=player, details={"person": person.pk, "name": person.name}
    )
    if has_completed_rounds(player.event):
        rebuild_ratings(person.club, player.event.game)


def merge_refusal(keep: Person, other: Person) -> str | None:
    """Why ``other`` cannot be merged into ``keep``, or None."""
    if keep.pk == other.pk:
        return _("Choose two different people.")
    if keep.club_id != other.club_id:
        return _("Only people of the same club can be merged.")
    both = set(keep.players.values_list("event_id", flat=True)) & set(other.players.values_list("event_id", flat=True))
    if both:
        event = Event.objects.filter(pk__in=both).order_by("date").first()
        return _("Both played in %(event)s: one person cannot sit at two tables.") % {"event": event.name}
    return None


@transaction.atomic
def merge_people(keep: Person, other: Person, author: Author) -> int:
    """Move every player of ``other`` to ``keep`` and remove ``other``; the club's ratings are rebuilt.

    Each moved player's event records the merge. Returns how many players moved."""
    refusal = merge_refusal(keep, other)
    if refusal:
        raise PeopleRefused(refusal)
    moved = list(other.players.select_related("event"))
    details = {"kept": keep.pk, "kept_name": keep.name, "merged": other.pk, "merged_name": str(other)}
    for player in moved:
        player.person = keep
        player.save(update_fields=["person"])
        record(player.event, Action.PERSON_MERGE, author, subject=player, details=details)
    other.delete()
    rebuild_ratings(keep.club)
    return len(moved)


def club_changed(event: Event, previous_club: int | None) -> None:
    """After the event moved to another club (or to none): its players leave the old club's people, the event leaves
    the old club's seasons, and the ratings of both clubs at the event's game are rebuilt."""
    if event.club_id == previous_club:
        return
    event.players.filter(person__isnull=False).update(person=None)
    event.seasons.remove(*event.seasons.exclude(club_id=event.club_id))
    for club in Club.objects.filter(pk__in=[pk for pk in (previous_club, event.club_id) if pk is not None]):
        rebuild_ratings(club, event.game)
