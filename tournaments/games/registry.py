"""The registry of games, built from the bundles: every package in this folder, plus ``settings.EXTRA_GAMES``.

Each bundle is a module exposing ``GAME``, an instance of ``base.Game``. Adding a game is adding a folder;
``EXTRA_GAMES`` (dotted module paths) adds bundles that live elsewhere. The registry is built once per
process and again when that setting changes.
"""

from __future__ import annotations

import functools
import pkgutil
from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

import scoring

from .base import Game

FOLDER = Path(__file__).resolve().parent


def bundle_modules() -> list[str]:
    """The dotted paths of the bundles: this folder's packages, then the settings' extra ones."""
    own = [f"{__package__}.{module.name}" for module in pkgutil.iter_modules([str(FOLDER)]) if module.ispkg]
    return own + list(getattr(settings, "EXTRA_GAMES", ()))


@functools.cache
def games_by_key() -> dict[str, Game]:
    """Every game by its key, in the order lists show them."""
    bundles = [import_module(path).GAME for path in bundle_modules()]
    keys = [bundle.key for bundle in bundles]
    if len(set(keys)) != len(keys):
        raise ValueError(f"Two game bundles share a key: {sorted(keys)}")
    return {bundle.key: bundle for bundle in sorted(bundles, key=lambda bundle: (bundle.order, bundle.key))}


@receiver(setting_changed)
def forget_games(setting: str, **kwargs: Any) -> None:
    if setting == "EXTRA_GAMES":
        games_by_key.cache_clear()
        rules_by_key.cache_clear()


def all_games() -> list[Game]:
    return list(games_by_key().values())


def get_game(key: str) -> Game:
    """The game of ``key``; KeyError when no bundle has it."""
    return games_by_key()[key]


def find_game(key: object) -> Game | None:
    """The game of ``key``, or None for anything that is not a known game's key."""
    return games_by_key().get(key) if isinstance(key, str) else None


def default_game() -> Game:
    return all_games()[0]


def game_choices() -> list[tuple[str, str]]:
    return [(game.key, game.name) for game in all_games()]


@functools.cache
def rules_by_key() -> Mapping[str, scoring.GameRules]:
    return {key: game.rules for key, game in games_by_key().items()}


def score(document: Any) -> dict[str, Any]:
    """``scoring.score`` over the games of this registry."""
    return scoring.score(document, rules_by_key())


def check(document: Any) -> tuple[Any, dict[str, Any]]:
    """``scoring.check`` over the games of this registry: the document its rules read, and its result."""
    return scoring.check(document, rules_by_key())
