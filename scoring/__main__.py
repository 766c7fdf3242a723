"""``python -m scoring [--rules MODULE]... FILE|-``: print the result document (exit 0) or the error document (exit 2).

The games are those of the registry (``scoring.games``); ``--rules MODULE`` first imports a module that lives
elsewhere and registers the rules it defines: its ``RULES``, or the ``rules`` of its ``GAME`` (a game bundle). Nothing
here reads an application's settings: a bundle's rules are scored without Django configured.
"""

from __future__ import annotations

import json
import sys

from .engine import score
from .errors import Problem, ScoreSheetError
from .games import register_module
from .i18n import _

USAGE = "usage: python -m scoring [--rules MODULE]... FILE|-"


def read_document(source: str) -> object:
    if source == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(source, "rb") as handle:
            raw = handle.read()
    return json.loads(raw.decode("utf-8"))


def parse(args: list[str]) -> tuple[list[str], str] | None:
    """The modules named by ``--rules`` and the source, or None when the arguments do not fit the usage."""
    modules = []
    while len(args) > 2 and args[0] == "--rules":
        modules.append(args[1])
        args = args[2:]
    return (modules, args[0]) if len(args) == 1 and args[0] != "--rules" else None


def main(argv: list[str] | None = None) -> int:
    parsed = parse(sys.argv[1:] if argv is None else argv)
    if parsed is None:
        print(USAGE, file=sys.stderr)
        return 2
    modules, source = parsed
    try:
        for module in modules:
            register_module(module)
    except (ImportError, LookupError, ValueError) as exc:
        print(f"python -m scoring: {exc}", file=sys.stderr)
        return 2
    try:
        document = read_document(source)
    except OSError as exc:
        problem = Problem("", _("The file could not be read: {reason}."), {"reason": exc.strerror or str(exc)})
        return emit({"errors": [problem.as_dict()]}, 2)
    except (UnicodeDecodeError, ValueError, RecursionError):
        problem = Problem("", _("This is not a JSON document in UTF-8."))
        return emit({"errors": [problem.as_dict()]}, 2)
    try:
        return emit(score(document), 0)
    except ScoreSheetError as error:
        return emit({"errors": error.errors}, 2)


def emit(document: dict, code: int) -> int:
    json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
