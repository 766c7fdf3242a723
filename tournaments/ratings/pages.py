"""The ratings as the club's pages show them: a ranked list per game, a person's history, one player's rating."""

from __future__ import annotations

from dataclasses import dataclass

from .. import games
from ..collation import sort_key
from ..models import Club, Person, Player, Rating, RatingChange
from . import skill


def shown(ordinal: float) -> int:
    """A rating as people read it: the ordinal, rounded."""
    return round(ordinal)


def club_games(club: Club) -> list[games.Game]:
    """The games the club's events are played at, in the registry's order."""
    keys = set(club.events.values_list("game", flat=True))
    return [game for game in games.all_games() if game.key in keys]


@dataclass(frozen=True)
class RatingRow:
    rank: int
    rating: Rating

    @property
    def person(self) -> Person:
        return self.rating.person

    @property
    def shown(self) -> int:
        return shown(self.rating.ordinal)

    @property
    def trend(self) -> float:
        return round(self.rating.trend, 1)


def ranked(ratings: list[Rating]) -> list[RatingRow]:
    """Ratings from the highest, equal shown ratings sharing a rank (1, 2, 2, 4), names alphabetical among them."""
    ordered = sorted(ratings, key=lambda r: (-shown(r.ordinal), -r.ordinal, sort_key(r.person.name)))
    rows: list[RatingRow] = []
    for i, rating in enumerate(ordered):
        tied = rows and shown(rows[-1].rating.ordinal) == shown(rating.ordinal)
        rows.append(RatingRow(rows[-1].rank if tied else i + 1, rating))
    return rows


def club_ratings(club: Club, game: str) -> list[RatingRow]:
    """The club's ratings at ``game``, ranked, in one query."""
    return ranked(list(Rating.objects.filter(person__club=club, game=game).select_related("person")))


@dataclass(frozen=True)
class HistoryLine:
    change: RatingChange

    @property
    def before(self) -> int:
        return shown(skill.Skill(self.change.mu_before, self.change.sigma_before).ordinal)

    @property
    def after(self) -> int:
        return shown(skill.Skill(self.change.mu_after, self.change.sigma_after).ordinal)

    @property
    def difference(self) -> float:
        before = skill.Skill(self.change.mu_before, self.change.sigma_before).ordinal
        return round(skill.Skill(self.change.mu_after, self.change.sigma_after).ordinal - before, 1)


@dataclass
class GameHistory:
    game: games.Game | None
    key: str
    rating: Rating | None
    lines: list[HistoryLine]


def person_history(person: Person) -> list[GameHistory]:
    """The person's rating at each game they were rated at, with every round's change, latest first."""
    ratings = {r.game: r for r in person.ratings.all()}
    changes = person.rating_changes.select_related("event").order_by("-pk")
    by_game: dict[str, list[HistoryLine]] = {}
    for change in changes:
        by_game.setdefault(change.game, []).append(HistoryLine(change))
    order = {game.key: i for i, game in enumerate(games.all_games())}
    keys = sorted(set(ratings) | set(by_game), key=lambda key: (order.get(key, len(order)), key))
    return [GameHistory(games.find_game(key), key, ratings.get(key), by_game.get(key, [])) for key in keys]


def player_rating(player: Player) -> Rating | None:
    """The rating of the player's person at the event's game, when the player is linked to one."""
    if player.person_id is None:
        return None
    return Rating.objects.filter(person_id=player.person_id, game=player.event.game).first()
