"""``python -m scoring FILE|-``: print the result document (exit 0) or the error document (exit 2)."""

from __future__ import annotations

import json
import sys

from .engine import score
from .errors import Problem, ScoreSheetError
from .i18n import _


def read_document(source: str) -> object:
    if source == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(source, "rb") as handle:
            raw = handle.read()
    return json.loads(raw.decode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m scoring FILE|-", file=sys.stderr)
        return 2
    try:
        document = read_document(args[0])
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
