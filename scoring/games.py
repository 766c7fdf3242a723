"""The registry of games, by the key a document names them with.

A game is any module of this package that defines ``RULES`` (a ``GameRules``): adding one is adding the module,
found the first time the games are read. Rules that live elsewhere join with ``register(rules)`` (or
``register_module(name)``), or through a lookup (``add_lookup``): a function asked for more rules at every read,
such as the app's, whose bundles follow its settings. ``GAMES`` reads them all, live.
"""

from __future__ import annotations

import functools
import pkgutil
import sys
from collections.abc import Callable, Iterator, Mapping
from importlib import import_module

from .registry import GameRules

Lookup = Callable[[], Mapping[str, GameRules]]

_registered: dict[str, GameRules] = {}
_lookups: list[Lookup] = []


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
    """Every game's rules by key: this package's, then those registered, then those of each lookup."""
    games = dict(found())
    for rules in _registered.values():
        join(games, rules)
    for lookup in _lookups:
        for rules in lookup().values():
            join(games, rules)
    return games


def register(rules: GameRules) -> GameRules:
    """Makes ``rules`` a game; registering the same rules again changes nothing."""
    join(all_rules(), rules)
    _registered[rules.key] = rules
    return rules


def register_module(name: str) -> GameRules:
    """Imports the module ``name`` and registers its ``RULES``."""
    rules = getattr(import_module(name), "RULES", None)
    if not isinstance(rules, GameRules):
        raise LookupError(f"{name} defines no RULES")
    return register(rules)


def unregister(key: str) -> None:
    """Forgets the rules registered under ``key``."""
    _registered.pop(key, None)


def add_lookup(lookup: Lookup) -> None:
    """Asks ``lookup`` for more rules at every read of the games (once, however often it is added)."""
    if lookup not in _lookups:
        _lookups.append(lookup)


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
