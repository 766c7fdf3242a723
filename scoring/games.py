"""The registry of games, by the key a document names them with.

A game is any module of this package that defines ``RULES`` (a ``GameRules``): adding one is adding the module,
found the first time the games are read. Rules that live elsewhere join with ``register(rules)``, or
``register_module(name)`` for a module that defines ``RULES`` or a ``GAME`` carrying them (a game bundle); the app's
registry registers its bundles' rules as it loads them. ``GAMES`` reads them all, live.
"""

from __future__ import annotations

import functools
import pkgutil
import sys
from collections.abc import Iterator, Mapping
from importlib import import_module

from .registry import GameRules

_registered: dict[str, GameRules] = {}


def join(games: dict[str, GameRules], rules: GameRules) -> None:
    """Adds ``rules`` to ``games``; two different rules under one key are an error."""
    if games.setdefault(rules.key, rules) is not rules:
        raise ValueError(f"Two games' rules share the key {rules.key!r}")


@functools.cache
def found() -> dict[str, GameRules]:
    """The rules of this package's own modules (those not named with a leading underscore), by key."""
    games: dict[str, GameRules] = {}
    for module in pkgutil.iter_modules(sys.modules[__package__].__path__, f"{__package__}."):
        if not module.name.rpartition(".")[2].startswith("_"):
            rules = getattr(import_module(module.name), "RULES", None)
            if isinstance(rules, GameRules):
                join(games, rules)
    return dict(sorted(games.items()))


def all_rules() -> dict[str, GameRules]:
    """Every game's rules by key: this package's, then those registered."""
    games = dict(found())
    for rules in _registered.values():
        join(games, rules)
    return games


def register(rules: GameRules) -> GameRules:
    """Makes ``rules`` a game; registering the same rules again changes nothing."""
    join(all_rules(), rules)
    _registered[rules.key] = rules
    return rules


def rules_of(module: object) -> GameRules | None:
    """The rules a module defines: its ``RULES``, else the ``rules`` of its ``GAME``; None when it has neither."""
    rules = getattr(module, "RULES", None)
    if rules is None:
        rules = getattr(getattr(module, "GAME", None), "rules", None)
    return rules if isinstance(rules, GameRules) else None


def register_module(name: str) -> GameRules:
    """Imports the module ``name`` (a rules module or a game bundle) and registers the rules it defines."""
    rules = rules_of(import_module(name))
    if rules is None:
        raise LookupError(f"{name} defines no RULES and no GAME with rules")
    return register(rules)


def unregister(key: str) -> None:
    """Forgets the rules registered under ``key``."""
    _registered.pop(key, None)


class Games(Mapping[str, GameRules]):
    """A live view of every game's rules by key."""

    def __getitem__(self, key: str) -> GameRules:
        return all_rules()[key]

    def __contains__(self, key: object) -> bool:
        return key in all_rules()

    def __iter__(self) -> Iterator[str]:
        return iter(all_rules())

    def __len__(self) -> int:
        return len(all_rules())

    def __repr__(self) -> str:
        return f"<Games {list(all_rules())}>"


GAMES: Mapping[str, GameRules] = Games()
