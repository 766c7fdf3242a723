"""Each game's table form, by the key the scoring engine names the game with."""

from __future__ import annotations

from ..layouts import GameForm
from . import cheese_rescue, snack_match, vegetables, veggies

GAME_FORMS: dict[str, GameForm] = {
    "vegetables": vegetables.FORM,
    "veggies": veggies.FORM,
    "snack-match": snack_match.FORM,
    "cheese-rescue": cheese_rescue.FORM,
}
