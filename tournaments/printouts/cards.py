"""Player cards: one per player, to cut out and hand over, with the QR code of the player's own link."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Table, TableStyle

from ..models import Event, Player
from ..printing.common import GREY, body_size, build_pdf, cell, draw_qr, draw_text, heading

COLUMNS = 2
PADDINGS = ("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING")
CARD_HEIGHT = 62 * mm


class PlayerCard(Flowable):
    """A card with the event, the player's name and club, what the link is for, its QR code and address."""

    QR = 40 * mm
    PAD = 3 * mm

    def __init__(self, event: Event, player: Player, link: str, width: float):
        super().__init__()
        self.event_name, self.name, self.club, self.link = event.name, player.name, player.club, link
        self.width, self.height = width, CARD_HEIGHT
        self.purpose = _("Your own link: your table for each round, your scores, and confirming your table's sheets.")
        self.keep = _("Keep it to yourself: it acts in your name.")

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def draw(self):
        c, w, h, pad, qr = self.canv, self.width, self.height, self.PAD, self.QR
        c.setDash(2, 2)
        cell(c, 0, 0, w, h, line=0.4)
        c.setDash()
        text_width = w - qr - 3 * pad
        draw_text(c, self.event_name, pad, h - pad - 10, text_width, 10, size=8, minimum=5, colour=GREY, pad=0)
        draw_text(c, self.name, pad, h - pad - 40, text_width, 28, size=16, minimum=7, bold=True, pad=0)
        if self.club:
            draw_text(c, self.club, pad, h - pad - 52, text_width, 11, size=9, minimum=5, colour=GREY, pad=0)
        draw_text(c, self.purpose, pad, 2 * pad + 14, text_width, 44, size=8, minimum=5, pad=0)
        draw_text(c, self.keep, pad, pad + 10, text_width, 14, size=7, minimum=5, colour=GREY, pad=0)
        draw_qr(c, self.link, w - qr - pad, h - qr - pad, qr)
        draw_text(c, self.link, pad, pad - 2, w - 2 * pad, 10, size=6.5, minimum=4.5, align="right", pad=0)


def player_cards_pdf(event: Event, players: Sequence[Player], link: Callable[[Player], str]) -> bytes:
    """The cards of ``players``, two to a row, in the event's language; ``link`` gives each one's address."""
    with translation.override(event.language):
        width, _height = body_size(event)
        card_width = width / COLUMNS
        cards = [PlayerCard(event, player, link(player), card_width) for player in players]
        rows = [cards[i : i + COLUMNS] for i in range(0, len(cards), COLUMNS)]
        rows[-1:] = [row + [""] * (COLUMNS - len(row)) for row in rows[-1:]]
        style = TableStyle([(side, (0, 0), (-1, -1), 0) for side in PADDINGS])
        if not rows:
            return build_pdf(event, _("Player cards"), heading(event, _("No player to print a card for.")))
        story = [Table(rows, colWidths=[card_width] * COLUMNS, rowHeights=CARD_HEIGHT, style=style)]
        return build_pdf(event, _("Player cards"), story)
