"""Scoring problems shown in the player's language, each at the field (or block) its path names.

A problem's parameters that name part of a game (``scoring.errors.Component``: a good, a row, a variant...)
are shown by that game's bundle in the active language, as the form's own selects and headings show them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.utils.translation import gettext

from scoring.errors import Component, Problem

from .registry import find_game


def component_label(component: Component) -> str:
    """A component in the active language, by its game's labels; its key when no bundle knows the game."""
    game = find_game(component.game)
    return game.component_label(component.kind, component.key) if game else component.key


def translated(problem: Problem) -> str:
    """The problem's sentence in the active language (English when no translation exists)."""
    try:
        return problem.render(gettext, component_label)
    except (KeyError, IndexError, ValueError):
        return problem.message


def translated_document(problems: Iterable[Problem]) -> dict[str, list[dict[str, str]]]:
    """The error document of ``problems`` in the active language: ``{"errors": [{"path", "message"}, ...]}``."""
    return {"errors": [{"path": problem.path, "message": translated(problem)} for problem in problems]}


def errors_by_path(problems: Iterable[Problem]) -> dict[str, list[str]]:
    """Translated messages keyed by the document path they point at."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for problem in problems:
        grouped[problem.path].append(translated(problem))
    return dict(grouped)
