"""What the contract suite reads from pages and files: a form's values, a PDF's text and QR codes, a sheet's fields."""

from __future__ import annotations

import io
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import zxingcpp
from PIL import Image
from pypdf import PdfReader

from tournaments.entry.layouts import Field, FormState, layout_for
from tournaments.entry.paths import fields_from_document


class PostedForm(HTMLParser):
    """The values the page's own form (posted to the page itself) sends as it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = self.done = False
        self.select: str | None = None
        self.textarea: str | None = None
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "form" and not self.done and (attributes.get("method") or "").lower() == "post":
            self.inside = not attributes.get("action")
        if not self.inside:
            return
        name = attributes.get("name")
        if tag == "input" and name:
            kind = (attributes.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in attributes:
                return
            if kind not in ("submit", "button"):
                self.values[name] = attributes.get("value") or ("on" if kind == "checkbox" else "")
        elif tag == "select" and name:
            self.select = name
            self.values.setdefault(name, "")
        elif tag == "option" and self.select and "selected" in attributes:
            self.values[self.select] = attributes.get("value") or ""
        elif tag == "textarea" and name:
            self.textarea = name
            self.values[name] = ""

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.values[self.textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form" and self.inside:
            self.inside, self.done = False, True


def form_values(page: str) -> dict[str, str]:
    """The values of the first form of ``page`` that posts to the page itself, as a browser would send them."""
    parser = PostedForm()
    parser.feed(page)
    return parser.values


def layout_fields(game, players: list[str], part: dict, event) -> list[Field]:
    """Every field of the game's table form showing ``part`` (the game's own fields of a sheet)."""
    layout = layout_for(game.entry, FormState(players, fields_from_document(part), {}, event))
    fields = [cell for row in layout.rows for cell in row.cells] + list(layout.hidden)
    fields += [card.switch for card in layout.parts if card.switch]
    return fields + ([layout.switch] if layout.switch else [])


def posted_sheet(game, players: list[str], part: dict, event) -> dict[str, str]:
    """The fields the game's table form posts for ``part``, named and filled as its layout draws them."""
    return {field.name: field.value for field in layout_fields(game, players, part, event)}


def pdf_text(content: bytes) -> str:
    """Every page's text, its runs of spaces and line breaks made one space."""
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


def pdf_qr_codes(content: bytes, folder: Path) -> list[str]:
    """Every QR code of every page, read from the pages drawn at 150 dpi."""
    pdf = folder / "printed.pdf"
    pdf.write_bytes(content)
    subprocess.run(["pdftoppm", "-r", "150", "-png", pdf, folder / "page"], check=True)
    codes = []
    for png in sorted(folder.glob("page*.png")):
        codes += [code.text for code in zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.QRCode)]
    return codes
