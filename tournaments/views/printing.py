"""Organiser printouts as PDF: a round's score sheets and seating, and the standings after any round."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseBadRequest
from django.urls import path, reverse
from django.utils.translation import gettext as _

from ..access import organiser_event
from ..numbers import whole_number
from ..printing.cards import player_cards_pdf
from ..printing.common import sort_key
from ..printing.seating import seating_pdf
from ..printing.sheets import round_with_seats, score_sheets_pdf
from ..printing.standings import standings_after, standings_pdf, stored_standings


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def sheets(request, slug: str, number: int):
    event = organiser_event(request, slug)
    round_ = round_with_seats(event, number)

    def table_link(table) -> str:
        return request.build_absolute_uri(reverse("tournaments:table", args=[table.token]))

    return pdf_response(score_sheets_pdf(event, round_, table_link), f"{event.slug}-round-{number}-sheets.pdf")


def player_link(request, player) -> str:
    """The absolute address of a player's own link, as its QR code carries it."""
    return request.build_absolute_uri(reverse("tournaments:player_link", args=[player.token]))


def seating(request, slug: str, number: int):
    event = organiser_event(request, slug)
    round_ = round_with_seats(event, number)
    content = seating_pdf(event, round_, lambda player: player_link(request, player))
    return pdf_response(content, f"{event.slug}-round-{number}-seating.pdf")


def player_cards(request, slug: str):
    """Printable cards, one per active player, each with the QR code of the player's own link."""
    event = organiser_event(request, slug)
    players = sorted(event.players.filter(active=True), key=lambda player: sort_key(player.name))
    content = player_cards_pdf(event, players, lambda player: player_link(request, player))
    return pdf_response(content, f"{event.slug}-player-cards.pdf")


def standings(request, slug: str):
    """The stored standings, or with ``?round=N`` the standings as they were after round N."""
    event = organiser_event(request, slug)
    asked = request.GET.get("round", "").strip()
    if not asked:
        return pdf_response(standings_pdf(event, stored_standings(event)), f"{event.slug}-standings.pdf")
    rounds = sorted(event.rounds.values_list("number", flat=True))
    number = whole_number(asked, maximum=max(rounds, default=0), minimum=1)
    if number not in rounds:
        message = _("round: give the number of a round of this event (%(numbers)s).") % {
            "numbers": ", ".join(str(n) for n in rounds) or _("none seated yet")
        }
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    content = standings_pdf(event, standings_after(event, number), after_round=number)
    return pdf_response(content, f"{event.slug}-standings-round-{number}.pdf")


urlpatterns = [
    path("e/<slug:slug>/organiser/rounds/<int:number>/sheets.pdf", sheets, name="print_sheets"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/seating.pdf", seating, name="print_seating"),
    path("e/<slug:slug>/organiser/standings.pdf", standings, name="print_standings"),
    path("e/<slug:slug>/organiser/players/cards.pdf", player_cards, name="print_player_cards"),
]
