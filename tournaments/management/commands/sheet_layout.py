"""Where everything a reader looks at is on a round's printed score sheets: a JSON object a page, one a line."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.http import Http404

from tournaments.models import Event
from tournaments.printing.boxes import Box, Square, TableLayout
from tournaments.printing.common import page_size
from tournaments.printouts.sheets import round_with_seats, sheet_layouts
from tournaments.public_address import AddressError, clean_public_url, table_link


class PrintedFrom:
    """The request the sheets were printed from, as far as their links need it: the address it came in on, asked
    for only when neither the event nor ``PUBLIC_URL`` gives one."""

    def __init__(self, address: str):
        self.address = address

    def build_absolute_uri(self, location: str = "/") -> str:
        if not self.address:
            raise CommandError(
                "Neither the event nor PUBLIC_URL gives the address its QR codes carry: give the one the sheets "
                "were printed from with --address, e.g. --address http://192.168.1.20:8000."
            )
        return self.address + location


def rounded(values) -> list[float]:
    return [round(value, 3) for value in values]


def square(mark: Square) -> list[float]:
    return rounded((mark.x, mark.y, mark.x + mark.side, mark.y + mark.side))


def box_json(box: Box) -> dict:
    return {
        "path": box.path,
        "kind": box.kind,
        "rect": rounded(box.rect),
        "place": box.place,
        "value": box.value,
        "allowed": box.allowed,
        "seat": box.seat,
        "label": box.label,
        "manche": box.manche,
        "means": list(box.means),
    }


def table_json(layout: TableLayout) -> dict:
    return {
        "table": layout.table,
        "link": layout.link,
        "qr": square(layout.qr),
        "marks": [square(mark) for mark in layout.marks],
        "boxes": [box_json(box) for box in layout.boxes],
    }


class Command(BaseCommand):
    help = (
        "Print where each table's QR code, corner marks and boxes are on a round's score sheets: one JSON object "
        "a page, rectangles in PDF points from the page's bottom left corner."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's web address, e.g. autumn-open-2026.")
        parser.add_argument("round", type=int, help="The round's number.")
        parser.add_argument(
            "--address",
            default="",
            help="The address the sheets were printed from, e.g. http://192.168.1.20:8000, where neither the event "
            "nor PUBLIC_URL gives the one their QR codes carry.",
        )

    def handle(self, *args, slug, address="", **options):
        number = options["round"]
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No tournament has the web address “{slug}”.")
        try:
            round_ = round_with_seats(event, number)
        except Http404:
            numbers = ", ".join(str(n) for n in sorted(event.rounds.values_list("number", flat=True))) or "none yet"
            raise CommandError(f"{event.name} has no round {number} (its rounds: {numbers}).") from None
        try:
            request = PrintedFrom(clean_public_url(address))
        except AddressError as error:
            raise CommandError(f"--address: {error}") from None
        layouts = sheet_layouts(event, round_, lambda table: table_link(request, event, table))
        width, height = page_size(event)
        pages: dict[int, list[dict]] = {}
        for layout in layouts:
            pages.setdefault(layout.page, []).append(table_json(layout))
        for page, tables in sorted(pages.items()):
            line = {"page": page + 1, "size": rounded((width, height)), "tables": tables}
            self.stdout.write(json.dumps(line, ensure_ascii=False))
