"""VEGEtables (expert): pozzo points, crosses, family bonuses and paid penalties, summed over the manches."""

from __future__ import annotations

from functools import cache
from operator import le
from typing import Any, NamedTuple

from .errors import Component, Problems, at
from .i18n import _
from .registry import GameOutcome, GameRules, PlayerScore, Sheet, TallyField, Variant
from .shape import ANY
from .values import read_int, read_list, read_object

KEY = "vegetables"
SEQUENCES_PER_MANCHE = 16
FAMILIES = 4
POZZO_STEP = 10
SEQUENCE_POINTS = 10
FAMILY_BONUS_POINTS = 30
PENALTY_POINTS = 50
#: A round is a handful of manches; the bound keeps a hostile document cheap to refuse.
MAX_MANCHES = 50
#: Paid passes per player per manche: more than any real manche sees, so a typo is caught.
MAX_PENALTIES = 40

#: The types in a manche of JSON lists of JSON integers (``bool`` is a type of its own here).
LIST_ONLY = {list}
INT_ONLY = {int}

#: What is said of a negative count, by row (a negative pozzo is simply not an allowed value).
NEGATIVE_MESSAGES = {
    "sequences": _("A player has 0 or more crosses; this says {value}."),
    "family_bonuses": _("A player has 0 or more family bonuses; this says {value}."),
    "penalties": _("Write how many penalties the player paid, 0 or more; this says {value}."),
}


class Manche(NamedTuple):
    """One deal's rows, one entry per seat."""

    pozzo: list[int]
    sequences: list[int]
    family_bonuses: list[int]
    penalties: list[int]


def manche_total(pozzo: int, sequences: int, family_bonuses: int, penalties: int) -> int:
    """A player's score for one manche: pozzo + 10 per cross + 30 per family bonus - 50 per paid penalty."""
    return pozzo + SEQUENCE_POINTS * sequences + FAMILY_BONUS_POINTS * family_bonuses - PENALTY_POINTS * penalties


@cache
def pozzo_values(player_count: int) -> tuple[int, ...]:
    """The pozzo values from the first to collect to the last: 30, 20, 10, 0 with four players."""
    return tuple(POZZO_STEP * opponents for opponents in range(player_count - 1, -1, -1))


def score_sheet(document: dict, sheet: Sheet, problems: Problems) -> GameOutcome | None:
    """Each player's total over the manches of ``document``, or None after reporting every problem."""
    manches = read_manches(document.get("manches"), len(sheet.players), problems)
    if manches is None:
        return None
    return GameOutcome(player_scores(manches, len(sheet.players)))


def read_manches(value: Any, count: int, problems: Problems) -> list[Manche] | None:
    """The checked manches, or None after reporting what is wrong with any of them."""
    if value is None:
        problems.add("manches", _("Write the manches of this round: a list with one entry per deal."))
        return None
    items = read_list(value, "manches", problems)
    if items is None:
        return None
    if not items:
        problems.add("manches", _("A round has at least one manche; this list is empty."))
        return None
    if len(items) > MAX_MANCHES:
        problems.add(
            "manches",
            _("A round has at most {maximum} manches; this sheet has {count}."),
            maximum=MAX_MANCHES,
            count=len(items),
        )
        return None
    manches = [read_manche(item, i, count, problems) for i, item in enumerate(items)]
    if any(manche is None for manche in manches):
        return None
    return manches  # type: ignore[return-value]


def read_manche(value: Any, index: int, count: int, problems: Problems) -> Manche | None:
    """Manche ``index`` with all its checks, or None after reporting; a well-written one is accepted at once."""
    if type(value) is dict:
        manche = Manche(value.get("pozzo"), value.get("sequences"), value.get("family_bonuses"), value.get("penalties"))
        if is_possible_manche(manche, count):
            return manche
    return read_manche_reporting(value, at("manches", index), count, problems)


def is_possible_manche(manche: Manche, count: int) -> bool:
    """Every check of a manche as one quick test that reports nothing; read_manche_reporting explains a failure."""
    if set(map(type, manche)) != LIST_ONLY or set(map(len, manche)) != {count}:
        return False
    pozzo, sequences, bonuses, penalties = manche
    if set(map(type, pozzo + sequences + bonuses + penalties)) != INT_ONLY:
        return False
    return (
        pozzo_row_is_possible(pozzo)
        and min(sequences) >= 0
        and sum(sequences) == SEQUENCES_PER_MANCHE
        and min(bonuses) >= 0
        and sum(bonuses) <= FAMILIES
        and all(map(le, bonuses, sequences))
        and min(penalties) >= 0
        and max(penalties) <= MAX_PENALTIES
    )


def read_manche_reporting(value: Any, path: str, count: int, problems: Problems) -> Manche | None:
    """The manche at ``path`` checked row by row, reporting every problem."""
    manche = read_object(value, path, problems)
    if manche is None:
        return None
    pozzo = read_pozzo(manche, path, count, problems)
    sequences = read_sequences(manche, path, count, problems)
    bonuses = read_family_bonuses(manche, path, sequences, count, problems)
    penalties = read_penalties(manche, path, count, problems)
    if pozzo is None or sequences is None or bonuses is None or penalties is None:
        return None
    return Manche(pozzo, sequences, bonuses, penalties)


def read_row(manche: dict, key: str, path: str, count: int, problems: Problems) -> list[int] | None:
    """The row ``key`` of the manche at ``path``: whole numbers, one per player."""
    value = manche.get(key)
    row_path = at(path, key)
    if value is None:
        problems.add(row_path, _("This manche has no {row} row; write one number per player."), row=row_named(key))
        return None
    items = read_list(value, row_path, problems, length=count)
    if items is None:
        return None
    row = [read_int(item, at(row_path, i), problems) for i, item in enumerate(items)]
    if any(number is None for number in row):
        return None
    return row  # type: ignore[return-value]


def row_named(key: str) -> Component:
    """A row of the sheet (pozzo, sequences...) as a message names it."""
    return Component(KEY, "row", key)


def read_counts(manche: dict, key: str, path: str, count: int, problems: Problems) -> list[int] | None:
    """The row ``key`` of counts (0 or more), one per player."""
    row = read_row(manche, key, path, count, problems)
    if row is None:
        return None
    return row if all_counts(row, key, path, problems) else None


def all_counts(row: list[int], key: str, path: str, problems: Problems) -> bool:
    """Whether every number of the row ``key`` is 0 or more, reporting each negative one."""
    if min(row) >= 0:
        return True
    for i, number in enumerate(row):
        if number < 0:
            problems.add(at(at(path, key), i), NEGATIVE_MESSAGES[key], value=number)
    return False


def read_pozzo(manche: dict, path: str, count: int, problems: Problems) -> list[int] | None:
    """The pozzo row: allowed values only, each non-zero value once, taken from the top."""
    row = read_row(manche, "pozzo", path, count, problems)
    if row is None:
        return None
    if pozzo_row_is_possible(row):
        return row
    allowed = pozzo_values(count)
    row_path = at(path, "pozzo")
    if all_pozzo_values_allowed(row, allowed, row_path, problems):
        report_pozzo_order(row, allowed, row_path, problems)
    return None


def pozzo_row_is_possible(row: list[int]) -> bool:
    """Whether the row, highest first, is one of the possible collecting orders."""
    return tuple(sorted(row, reverse=True)) in possible_pozzo_rows(len(row))


@cache
def possible_pozzo_rows(player_count: int) -> frozenset[tuple[int, ...]]:
    """The pozzo rows that can happen, highest first: (30, 0, 0, 0), (30, 20, 0, 0), (30, 20, 10, 0) for four."""
    allowed = pozzo_values(player_count)
    return frozenset(
        allowed[:collected] + (0,) * (player_count - collected) for collected in range(1, player_count + 1)
    )


def all_pozzo_values_allowed(row: list[int], allowed: tuple[int, ...], path: str, problems: Problems) -> bool:
    """Whether every pozzo value is one of ``allowed``, reporting each one that is not."""
    ok = True
    for i, points in enumerate(row):
        if points not in allowed:
            problems.add(
                at(path, i),
                _("With {count} players the pozzo is worth {choices} points; this says {value}."),
                count=len(allowed),
                choices=", ".join(str(v) for v in allowed),
                value=points,
            )
            ok = False
    return ok


def report_pozzo_order(row: list[int], allowed: tuple[int, ...], path: str, problems: Problems) -> None:
    """Report why allowed pozzo values cannot be a collecting order: a value twice, the top or a step missing."""
    for points in allowed[:-1]:
        holders = row.count(points)
        if holders > 1:
            problems.add(
                path,
                _("Only one player gets {value} for the pozzo, so the row adds up to at most {maximum}; {holders} do."),
                value=points,
                maximum=sum(allowed),
                holders=holders,
            )
    top = allowed[0]
    if top not in row:
        problems.add(
            path,
            _("Someone collects the pozzo first in every manche and scores {top}; no one has {top} here."),
            top=top,
        )
        return
    for points in allowed[1:-1]:
        if points in row and points + POZZO_STEP not in row:
            problems.add(
                path,
                _("Pozzo points go {values} in the order players collect it; a {value} needs a {missing}."),
                values=", ".join(str(v) for v in allowed),
                value=points,
                missing=points + POZZO_STEP,
            )


def read_sequences(manche: dict, path: str, count: int, problems: Problems) -> list[int] | None:
    """The crosses: 0 or more each, 16 in all."""
    row = read_counts(manche, "sequences", path, count, problems)
    if row is None:
        return None
    total = sum(row)
    if total != SEQUENCES_PER_MANCHE:
        problems.add(
            at(path, "sequences"),
            _("A manche has {expected} sequences; these add up to {total}."),
            expected=SEQUENCES_PER_MANCHE,
            total=total,
        )
        return None
    return row


def read_family_bonuses(
    manche: dict, path: str, sequences: list[int] | None, count: int, problems: Problems
) -> list[int] | None:
    """The family bonuses: at most one per sequence a player closed, at most 4 in a manche."""
    row = read_counts(manche, "family_bonuses", path, count, problems)
    if row is None:
        return None
    ok = sequences is None or bonuses_within_crosses(row, sequences, path, problems)
    total = sum(row)
    if total > FAMILIES:
        problems.add(
            at(path, "family_bonuses"),
            _("A manche has at most {families} family bonuses, one per colour family; these add up to {total}."),
            families=FAMILIES,
            total=total,
        )
        ok = False
    return row if ok else None


def bonuses_within_crosses(row: list[int], sequences: list[int], path: str, problems: Problems) -> bool:
    """Whether no player has more family bonuses than crosses, reporting each one who has."""
    ok = True
    for i, (bonuses, crosses) in enumerate(zip(row, sequences, strict=True)):
        if bonuses > crosses:
            problems.add(
                at(at(path, "family_bonuses"), i),
                _("A family bonus comes with a closed sequence; this player has {bonuses} but {crosses} crosses."),
                bonuses=bonuses,
                crosses=crosses,
            )
            ok = False
    return ok


def read_penalties(manche: dict, path: str, count: int, problems: Problems) -> list[int] | None:
    """The paid penalties: 0 or more each, at most MAX_PENALTIES."""
    row = read_row(manche, "penalties", path, count, problems)
    if row is None:
        return None
    ok = all_counts(row, "penalties", path, problems)
    if max(row) <= MAX_PENALTIES:
        return row if ok else None
    for i, paid in enumerate(row):
        if paid > MAX_PENALTIES:
            problems.add(
                at(at(path, "penalties"), i),
                _("A player pays at most {maximum} penalties in a manche; this says {value}."),
                maximum=MAX_PENALTIES,
                value=paid,
            )
    return None


def player_scores(manches: list[Manche], count: int) -> list[PlayerScore]:
    """Each seat's score over all manches, with the per-manche rows and their sums as the breakdown."""
    # zip(*manche) turns a manche's four rows into one (pozzo, sequences, bonuses, penalties) per seat.
    per_seat = zip(*(zip(*manche, strict=True) for manche in manches), strict=True)
    return [seat_score(entries) for entries in per_seat]


def seat_score(entries: tuple[tuple[int, int, int, int], ...]) -> PlayerScore:
    """One seat's score from its (pozzo, sequences, family bonuses, penalties) of each manche."""
    rows = [
        {
            "pozzo": pozzo,
            "sequences": sequences,
            "family_bonuses": bonuses,
            "penalties": penalties,
            "total": manche_total(pozzo, sequences, bonuses, penalties),
        }
        for pozzo, sequences, bonuses, penalties in entries
    ]
    pozzo, sequences, bonuses, penalties = (sum(column) for column in zip(*entries, strict=True))
    total = manche_total(pozzo, sequences, bonuses, penalties)
    breakdown = {
        "manches": rows,
        "pozzo": pozzo,
        "sequences": sequences,
        "family_bonuses": bonuses,
        "penalties": penalties,
        "total": total,
    }
    return PlayerScore(total, (), breakdown)


#: The keys of a sheet the rules read (``shape``): four rows, one number per player, in each manche.
DOCUMENT = {"manches": [{"pozzo": ANY, "sequences": ANY, "family_bonuses": ANY, "penalties": ANY}]}

RULES = GameRules(
    key=KEY,
    name="VEGEtables",
    variants=(Variant("expert", _("Expert"), (2, 3, 4)),),
    tally_fields=(
        TallyField(
            "pozzo",
            "Pozzo points",
            "10 per opponent who has not collected theirs yet: 30, 20, 10, 0 with four players.",
        ),
        TallyField(
            "sequences",
            "Sequences (crosses)",
            "10 points each; who empties their hand also gets the open ones, so a manche has 16.",
        ),
        TallyField("family_bonuses", "Family bonuses (+30)", "Colour families completed by closing a sequence."),
        TallyField("penalties", "Paid penalties (-50)", "Passes without playing that cost 50 points each."),
    ),
    scorer=score_sheet,
    document=DOCUMENT,
    default_variant=lambda count: "expert",
    table_sizes=(2, 3, 4),
    has_manches=True,
)
