"""``score(document)``: checks the common fields, hands the rest to the game, ranks the result.

``check(document)`` first cuts the document down to the keys its game's rules read (``normalise``) and
scores that: it returns both, so what is kept is exactly what was scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Component, Problems, ScoreSheetError, at, components
from .games import all_rules
from .i18n import _
from .ranking import competition_ranks
from .registry import GameOutcome, GameRules, Sheet
from .shape import COMMON, cut

MAX_PLAYERS = 9
MAX_NAME_LENGTH = 100


def read_sheet(document: Any, problems: Problems, games: Mapping[str, GameRules]) -> tuple[GameRules, Sheet] | None:
    """The game and common fields of ``document``, or None after reporting what is wrong."""
    if not isinstance(document, dict):
        problems.add("", _("A score sheet is a JSON object with a game and its players."))
        return None
    rules = None
    game = document.get("game")
    if game is None:
        problems.add("game", _("Say which game this sheet is for: {choices}."), choices=", ".join(games))
    elif not isinstance(game, str) or game not in games:
        problems.add("game", _("Unknown game; the games are: {choices}."), choices=", ".join(games))
    else:
        rules = games[game]
    players = read_players(document.get("players"), problems)
    if rules is None or players is None:
        return None
    variant = read_variant(document, rules, len(players), problems)
    if variant is None:
        return None
    return rules, Sheet(rules.key, variant, players)


def read_players(value: Any, problems: Problems) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not value:
        problems.add(
            "players", _("List the players in seat order: between 1 and {maximum} names."), maximum=MAX_PLAYERS
        )
        return None
    if len(value) > MAX_PLAYERS:
        problems.add(
            "players",
            _("A table has at most {maximum} players; this sheet names {count}."),
            maximum=MAX_PLAYERS,
            count=len(value),
        )
        return None
    ok = True
    seen: set[str] = set()
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            problems.add(at("players", i), _("Each player needs a name."))
            ok = False
        elif len(name) > MAX_NAME_LENGTH:
            problems.add(at("players", i), _("A name has at most {maximum} characters."), maximum=MAX_NAME_LENGTH)
            ok = False
        elif name in seen:
            problems.add(at("players", i), _("{name} is listed twice; each player sits once."), name=name)
            ok = False
        else:
            seen.add(name)
    return tuple(value) if ok else None


def read_variant(document: dict, rules: GameRules, count: int, problems: Problems) -> str | None:
    key = document.get("variant")
    if key is None:
        key = rules.default_variant(count)
    variant = rules.variant(key) if isinstance(key, str) else None
    if variant is None:
        choices = components(rules.key, "variant", (v.key for v in rules.variants))
        problems.add(
            "variant", _("Unknown variant of {game}; the variants are: {choices}."), game=rules.name, choices=choices
        )
        return None
    if count not in variant.player_counts:
        counts = ", ".join(str(n) for n in variant.player_counts)
        problems.add(
            "players",
            _("{game} ({variant}) is played by {counts} players; this sheet names {count}."),
            game=rules.name,
            variant=Component(rules.key, "variant", variant.key),
            counts=counts,
            count=count,
        )
        return None
    return variant.key


def result_document(sheet: Sheet, outcome: GameOutcome) -> dict[str, Any]:
    ranks = competition_ranks([(p.score, *p.tiebreak) for p in outcome.players])
    result: dict[str, Any] = {
        "game": sheet.game,
        "variant": sheet.variant,
        "players": [
            {"name": name, "score": p.score, "rank": rank, "tiebreak": list(p.tiebreak), "breakdown": p.breakdown}
            for name, p, rank in zip(sheet.players, outcome.players, ranks)
        ],
    }
    if outcome.teams is not None:
        team_ranks = competition_ranks([(t.score, *t.tiebreak) for t in outcome.teams])
        result["teams"] = [
            {"players": list(t.players), "score": t.score, "rank": rank, "tiebreak": list(t.tiebreak)}
            for t, rank in zip(outcome.teams, team_ranks)
        ]
    return result


def score(document: Any, games: Mapping[str, GameRules] | None = None) -> dict[str, Any]:
    """The result document for a score-sheet document; raises ScoreSheetError listing every problem.

    ``games`` are the rules known by their key: every registered game (``games.all_rules()``) unless a caller
    brings its own.
    """
    games = all_rules() if games is None else games
    problems = Problems()
    try:
        read = read_sheet(document, problems, games)
        outcome = None
        if read is not None:
            rules, sheet = read
            outcome = rules.scorer(document, sheet, problems)
    except RecursionError:
        problems.add("", _("This sheet is nested too deeply to read."))
        outcome = None
    if problems or outcome is None:
        if not problems:
            problems.add("", _("This sheet could not be scored."))
        raise ScoreSheetError(problems.items)
    return result_document(sheet, outcome)


def normalise(document: Any, games: Mapping[str, GameRules] | None = None) -> Any:
    """``document`` with only the keys its game's rules read, at any depth; anything else is dropped.

    The common fields are kept whatever the game; a value that is not a JSON object is returned as it is.
    """
    if not isinstance(document, dict):
        return document
    games = all_rules() if games is None else games
    game = document.get("game")
    rules = games.get(game) if isinstance(game, str) else None
    return cut(document, COMMON if rules is None else rules.document_shape)


def check(document: Any, games: Mapping[str, GameRules] | None = None) -> tuple[Any, dict[str, Any]]:
    """The normalised document and its result; raises ScoreSheetError as ``score`` does."""
    games = all_rules() if games is None else games
    normalised = normalise(document, games)
    return normalised, score(normalised, games)
