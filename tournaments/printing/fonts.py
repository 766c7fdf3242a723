"""The printouts' typeface (DejaVu Sans, shipped beside this module) and fitting text into boxes.

DejaVu Sans has every Latin letter players' names need (Ł, ñ, ü, ø...), so nothing depends on the
fonts of the machine. Fonts are registered once per process; fitted layouts are cached by text and box.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FOLDER = Path(__file__).resolve().parent / "fonts"
REGULAR = "TablescoreSans"
BOLD = "TablescoreSans-Bold"
ELLIPSIS = "…"
#: Line height as a multiple of the font size.
LEADING = 1.15
#: A line is shrunk down to this share of its size before it is wrapped instead.
SHRINK_BEFORE_WRAP = 0.75


@functools.cache
def register_fonts() -> None:
    """Register the regular and bold faces with ReportLab (once per process)."""
    pdfmetrics.registerFont(TTFont(REGULAR, str(FOLDER / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FOLDER / "DejaVuSans-Bold.ttf")))
    for bold, italic in ((0, 1), (1, 1), (0, 0), (1, 0)):
        addMapping(REGULAR, bold, italic, BOLD if bold else REGULAR)


def face(bold: bool) -> str:
    return BOLD if bold else REGULAR


def text_width(text: str, size: float, bold: bool = False) -> float:
    return pdfmetrics.stringWidth(text, face(bold), size)


def words(text: str) -> list[tuple[str, bool]]:
    """Where a line may break, as (piece, follows a space): spaces, and after the hyphen of Müller-Lüdenscheidt."""
    return [(piece, i == 0) for word in text.split() for i, piece in enumerate(re.split(r"(?<=\w-)(?=\w)", word))]


def wrap(text: str, size: float, width: float, bold: bool = False, cut: bool = True) -> list[str] | None:
    """Greedy word wrap to ``width``; a word longer than a line is cut short with an ellipsis (never split: half a
    name on each line reads as two names), or with ``cut=False`` gives None."""
    lines: list[str] = []
    current = ""
    for word, spaced in words(text):
        candidate = f"{current}{' ' if spaced else ''}{word}" if current else word
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        if text_width(word, size, bold) <= width:
            current = word
        elif not cut:
            return None
        else:
            lines.append(clip(word, size, width, bold))
            current = ""
    if current:
        lines.append(current)
    return lines


def clip(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` cut short with an ellipsis so that it fits ``width``."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + ELLIPSIS, size, bold) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


@functools.lru_cache(maxsize=8192)
def fit(text: str, width: float, height: float, size: float, minimum: float, bold: bool = False):
    """The font size and lines that put ``text`` inside a ``width`` x ``height`` box.

    One line at ``size`` if it fits; else one line shrunk (by ``pdfmetrics.stringWidth``) when that
    keeps it readable; else wrapped between words, shrinking step by step down to ``minimum``; else one line
    shrunk down to ``minimum``; else, at ``minimum``, a word longer than a line and the lines that do not fit
    are cut short with an ellipsis. A word is never split across lines. Never wider or taller.
    """
    text = " ".join(text.split())
    minimum = min(minimum, height / LEADING)
    if not text:
        return size, ()
    one_line = text_width(text, size, bold)
    if one_line <= width and size * LEADING <= height + 0.01:
        return size, (text,)
    shrunk = min(size * width / one_line, height / LEADING)
    if shrunk >= max(minimum, size * SHRINK_BEFORE_WRAP) or (shrunk >= minimum and height < 2 * minimum * LEADING):
        return round(shrunk - 0.05, 1), (text,)
    current = min(size, height / LEADING)
    while current >= minimum:
        lines = wrap(text, current, width, bold, cut=False)
        if lines is not None and len(lines) * current * LEADING <= height + 0.01:
            return current, tuple(lines)
        current -= 0.5
    if shrunk >= minimum:
        return round(shrunk - 0.05, 1), (text,)
    current = minimum
    room = max(1, int(height // (current * LEADING)))
    lines = wrap(text, current, width, bold)
    if len(lines) > room:
        lines = [*lines[: room - 1], clip(" ".join(lines[room - 1 :]), current, width, bold)]
    return current, tuple(clip(line, current, width, bold) for line in lines)
