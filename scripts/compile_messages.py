"""Compile the app's translation catalogues (``django.po``) into the ``django.mo`` files it reads, in pure Python
(polib), so that neither a developer nor an organiser's installation needs GNU gettext's ``msgfmt``.

    python scripts/compile_messages.py

The ``.mo`` files are kept in git and shipped in the package; a test checks that they are those of their ``.po``.
"""

from __future__ import annotations

from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
#: The folders of the catalogues the app reads: its own, the date words', each game bundle's (the test game's are
#: compiled by its own tests).
CATALOGUES = ["locale", "config/formats/locale", "tournaments/games/*/locale"]


def catalogues() -> list[Path]:
    return sorted(po for folder in CATALOGUES for po in ROOT.glob(f"{folder}/*/LC_MESSAGES/django.po"))


def main() -> None:
    for po in catalogues():
        mo = po.with_suffix(".mo")
        compiled = polib.pofile(str(po)).to_binary()
        if not mo.exists() or mo.read_bytes() != compiled:
            mo.write_bytes(compiled)
            print(f"Compiled {mo.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
