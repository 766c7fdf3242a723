"""The registry of games, built from the bundles: every package in this folder, plus ``settings.EXTRA_GAMES``.

Each bundle is a module exposing ``GAME``, an instance of ``base.Game``. Adding a game is adding a folder;
``EXTRA_GAMES`` (dotted module paths) adds bundles that live elsewhere. The registry is built once per
process and again when that setting changes.

The registry registers its bundles' rules with ``scoring`` as it loads them (and forgets them when ``EXTRA_GAMES``
changes), so ``scoring.score`` knows them; ``scoring`` never asks the app, so ``python -m scoring --rules`` scores a
bundle's game without Django's settings. A bundle's ``locale`` folder, beside its ``templates``, holds the catalogues
of its own words: Django reads them after the project's ``LOCALE_PATHS``, so they translate only what the project's
catalogues do not.
"""

from __future__ import annotations

import functools
import pkgutil
from collections.abc import Mapping
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

import scoring
import scoring.games

from .base import Game

FOLDER = Path(__file__).resolve().parent


def bundle_modules() -> list[str]:
    """The dotted paths of the bundles: this folder's packages, then the settings' extra ones."""
    own = [f"{__package__}.{module.name}" for module in pkgutil.iter_modules([str(FOLDER)]) if module.ispkg]
    return own + list(getattr(settings, "EXTRA_GAMES", ()))


@functools.cache
def games_by_key() -> dict[str, Game]:
    """Every game by its key, in the order lists show them; each bundle's rules registered as a game of ``scoring``."""
    bundles = [import_module(path).GAME for path in bundle_modules()]
    keys = [bundle.key for bundle in bundles]
    if len(set(keys)) != len(keys):
        raise ValueError(f"Two game bundles share a key: {sorted(keys)}")
    for bundle in bundles:
        scoring.register(bundle.rules)
    return {bundle.key: bundle for bundle in sorted(bundles, key=lambda bundle: (bundle.order, bundle.key))}


def forget_rules() -> None:
    """Unregisters from ``scoring`` the rules of the bundles loaded, when they were loaded."""
    if games_by_key.cache_info().currsize:
        for key in games_by_key():
            scoring.games.unregister(key)


@receiver(setting_changed)
def forget_games(setting: str, enter: bool = True, **kwargs: Any) -> None:
    """Reads the bundles again when ``EXTRA_GAMES`` changes (the rules of those gone unregistered, the new ones
    registered at once); the catalogues too, announced as a new ``LOCALE_PATHS`` (Django's receivers of that setting
    drop the catalogues they read)."""
    if setting == "EXTRA_GAMES":
        forget_rules()
        games_by_key.cache_clear()
        rules_by_key.cache_clear()
        games_by_key()
        read_bundle_translations()
        setting_changed.send(sender=type(settings), setting="LOCALE_PATHS", value=settings.LOCALE_PATHS, enter=enter)


def bundle_folder(path: str) -> Path:
    """The folder of the bundle ``path`` (its package, or the folder of its module), found without importing it."""
    spec = find_spec(path)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"No game bundle {path}", name=path)
    return Path(spec.origin).resolve().parent


def locale_dirs() -> list[Path]:
    """The bundles' own ``locale`` folders."""
    folders = [bundle_folder(path) / "locale" for path in bundle_modules()]
    return [folder for folder in folders if folder.is_dir()]


def read_bundle_translations() -> None:
    """Adds the bundles' ``locale`` folders to ``settings.LOCALE_PATHS``, after the project's own."""
    paths = list(settings.LOCALE_PATHS)
    missing = [folder for folder in locale_dirs() if folder not in paths]
    if missing:
        settings.LOCALE_PATHS = [*paths, *missing]


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
