"""Words a reader sees that come from the rules or the models are marked for translation, so the catalogues
list them: variant names ("Expert"), the rules' tiebreaks ("fewest mice"), paper sizes ("Letter")."""

from __future__ import annotations

import ast
import inspect

import pytest
from django.utils.functional import Promise

from tournaments.games import all_games
from tournaments.models.event import PaperSize


def marked_texts(module) -> set[str]:
    """Every text the module passes to ``_`` (what ``makemessages`` extracts)."""
    tree = ast.parse(inspect.getsource(module))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.key)
def test_the_rules_mark_their_variant_and_tiebreak_names(game):
    module = inspect.getmodule(game.rules.scorer)
    marked = marked_texts(module)
    assert {variant.label for variant in game.rules.variants} <= marked
    assert not game.rules.tiebreak_label or game.rules.tiebreak_label in marked


def test_the_letter_paper_size_is_named_in_the_readers_language():
    assert isinstance(PaperSize.LETTER.label, Promise)
