"""The registry of games, by the key a document names them with."""

from __future__ import annotations

from . import cheese_rescue, snack_match, vegetables, veggies
from .registry import GameRules

GAMES: dict[str, GameRules] = {
    rules.key: rules for rules in (vegetables.RULES, veggies.RULES, snack_match.RULES, cheese_rescue.RULES)
}
