"""Scoring problems shown in the player's language, each at the field (or block) its path names."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.utils.translation import gettext

from scoring.errors import Problem


def translated(problem: Problem) -> str:
    """The problem's sentence in the active language (English when no translation exists)."""
    try:
        return problem.render(gettext)
    except (KeyError, IndexError, ValueError):
        return problem.message


def errors_by_path(problems: Iterable[Problem]) -> dict[str, list[str]]:
    """Translated messages keyed by the document path they point at."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for problem in problems:
        grouped[problem.path].append(translated(problem))
    return dict(grouped)
