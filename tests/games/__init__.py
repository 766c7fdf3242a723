"""Games that exist only in the tests, one module each, found rather than listed.

Every module or package here that defines ``GAME`` (a bundle: ``high_score.py`` in one file, ``crown_tricks/`` in a
folder with its rules beside it) is in ``TEST_GAMES``, the dotted paths ``settings.EXTRA_GAMES`` takes: adding one is
enough for the contract suite (``tests/contract/``) to run a whole event of its game.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module


def found_games() -> list[str]:
    """The dotted paths of this package's modules and packages that define ``GAME``, in the order of their names."""
    paths = [f"{__name__}.{module.name}" for module in pkgutil.iter_modules(__path__)]
    return [path for path in paths if hasattr(import_module(path), "GAME")]


TEST_GAMES = found_games()
