"""Organiser printouts as PDF: a round's score sheets and seating, and the standings after any round; the address
their QR codes and links start with."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _

from ..access import organiser_event
from ..collation import sort_key
from ..forms.address import PublicAddressForm
from ..numbers import whole_number
from ..printing.common import pdf_response
from ..printouts.cards import player_cards_pdf
from ..printouts.seating import seating_pdf
from ..printouts.sheets import round_with_seats, score_sheets_pdf, table_sheet_pdf, table_with_seats
from ..printouts.standings import standings_pdf
from ..public_address import candidates, public_address, public_link, table_link
from ..services.statistics import printed_charts
from ..standings.rows import rows_after, standings_rows
from ..standings.stage import stage_after, standings_stage


def sheets(request, slug: str, number: int):
    event = organiser_event(request, slug)
    round_ = round_with_seats(event, number)
    content = score_sheets_pdf(event, round_, lambda table: table_link(request, event, table))
    return pdf_response(content, f"{event.slug}-round-{number}-sheets.pdf")


def table_sheet(request, slug: str, table_id: int):
    """One table's score sheet, as on its round's sheets, to reprint after its link was renewed."""
    event = organiser_event(request, slug)
    table = table_with_seats(event, table_id)
    content = table_sheet_pdf(event, table, lambda table: table_link(request, event, table))
    return pdf_response(content, f"{event.slug}-round-{table.round.number}-table-{table.number}-sheet.pdf")


def player_link(request, event, player) -> str:
    """The address of a player's own link, as its QR code carries it."""
    return public_link(request, event, reverse("tournaments:player_link", args=[player.token]))


def seating(request, slug: str, number: int):
    event = organiser_event(request, slug)
    round_ = round_with_seats(event, number)
    content = seating_pdf(event, round_, lambda player: player_link(request, event, player))
    return pdf_response(content, f"{event.slug}-round-{number}-seating.pdf")


def player_cards(request, slug: str):
    """Printable cards, one per active player, each with the QR code of the player's own link."""
    event = organiser_event(request, slug)
    players = sorted(event.players.filter(active=True), key=lambda player: sort_key(player.name))
    content = player_cards_pdf(event, players, lambda player: player_link(request, event, player))
    return pdf_response(content, f"{event.slug}-player-cards.pdf")


def standings(request, slug: str):
    """The stored standings, or with ``?round=N`` the standings as they were after round N."""
    event = organiser_event(request, slug)
    asked = request.GET.get("round", "").strip()
    if not asked:
        stage = standings_stage(event)
        content = standings_pdf(event, standings_rows(event, stage), stage, charts=printed_charts(event))
        return pdf_response(content, f"{event.slug}-{'final-standings' if stage.final else 'standings'}.pdf")
    rounds = sorted(event.rounds.values_list("number", flat=True))
    number = whole_number(asked, maximum=max(rounds, default=0), minimum=1)
    if number not in rounds:
        message = _("round: give the number of a round of this event (%(numbers)s).") % {
            "numbers": ", ".join(str(n) for n in rounds) or _("none seated yet")
        }
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    charts = printed_charts(event, after_round=number)
    content = standings_pdf(event, rows_after(event, number), stage_after(event, number, rounds[-1]), charts=charts)
    return pdf_response(content, f"{event.slug}-standings-round-{number}.pdf")


def address_page(request, slug: str):
    """Where printed links lead, the laptop's network addresses, and this event's own address to choose."""
    event = organiser_event(request, slug)
    form = PublicAddressForm(initial={"public_url": event.public_url})
    if request.method == "POST":
        form = PublicAddressForm(request.POST)
        if form.is_valid():
            event.public_url = form.cleaned_data["public_url"]
            event.save(update_fields=["public_url"])
            if event.public_url:
                messages.success(
                    request, _("QR codes and printed links now lead to %(url)s/.") % {"url": event.public_url}
                )
            else:
                messages.success(request, _("This tournament has no address of its own any more."))
            if request.POST.get("next") == "desk":
                return redirect("tournaments:event_manage", slug=event.slug)
            return redirect("tournaments:public_address", slug=event.slug)
    context = {
        "event": event,
        "form": form,
        "address": public_address(request, event),
        "candidates": candidates(request),
    }
    return render(request, "tournaments/organiser/public_address.html", context, status=400 if form.errors else 200)


urlpatterns = [
    path("e/<slug:slug>/organiser/address/", address_page, name="public_address"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/sheets.pdf", sheets, name="print_sheets"),
    path("e/<slug:slug>/organiser/tables/<int:table_id>/sheet.pdf", table_sheet, name="print_table_sheet"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/seating.pdf", seating, name="print_seating"),
    path("e/<slug:slug>/organiser/standings.pdf", standings, name="print_standings"),
    path("e/<slug:slug>/organiser/players/cards.pdf", player_cards, name="print_player_cards"),
]
