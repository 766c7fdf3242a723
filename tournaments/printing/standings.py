"""The standings on paper: as stored now, or as they were after any earlier round."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from reportlab.platypus import Spacer, Table, TableStyle

from ..collation import sort_key
from ..models import Event, Standing
from ..standings.build import seat_results
from ..standings.metrics import PRECEDENCE, legends, rank_players, shown_metrics
from .common import GREY, PALE, SHADE, FitText, body_size, build_pdf, heading
from .fonts import BOLD, REGULAR


@dataclass(frozen=True)
class StandingLine:
    rank: int
    name: str
    club: str
    #: Each metric's value by its key.
    metrics: dict[str, object]
    dropped: bool = False


def stored_standings(event: Event) -> list[StandingLine]:
    """The standings as last rebuilt, best first."""
    rows = Standing.objects.filter(event=event).select_related("player")
    lines = [
        StandingLine(
            s.rank, s.player.name, s.player.club, {key: getattr(s, key) for key in PRECEDENCE}, not s.player.active
        )
        for s in rows
    ]
    return sorted(lines, key=lambda line: (line.rank, sort_key(line.name)))


def standings_after(event: Event, number: int) -> list[StandingLine]:
    """The standings as they were after round ``number``: only results of that round and the ones before count."""
    results = [result for result in seat_results(event) if result.round <= number]
    players = {
        pk: (name, club, active) for pk, name, club, active in event.players.values_list("pk", "name", "club", "active")
    }
    ranked = rank_players(results, players)
    lines = []
    for r in ranked:
        name, club, active = players[r.player]
        lines.append(StandingLine(r.rank, name, club, r.metrics, not active))
    return sorted(lines, key=lambda line: (line.rank, sort_key(line.name)))


def number(value) -> str:
    """A number as the event's language writes it, without trailing zeros (2.5, not 2.50)."""
    if isinstance(value, Decimal):
        value = value.quantize(Decimal(1)) if value == value.to_integral() else value.normalize()
    return formats.number_format(value)


TABLE_STYLE = [
    ("FONT", (0, 0), (-1, -1), REGULAR, 9.5),
    ("BACKGROUND", (0, 0), (-1, 0), SHADE),
    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, PALE]),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, GREY),
    ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
    ("ALIGN", (0, 1), (0, -1), "RIGHT"),
    ("FONT", (3, 1), (3, -1), BOLD, 9.5),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("TOPPADDING", (0, 0), (-1, -1), 2.5),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
]


def standings_pdf(event: Event, lines: list[StandingLine], after_round: int | None = None) -> bytes:
    """Rank, player, club and the event's metrics (tournament points, game score...) of every player."""
    game = event.game_bundle
    metrics = shown_metrics(game)
    with translation.override(event.language):
        if after_round is None:
            title = _("Standings")
        else:
            title = _("Standings after round %(number)d") % {"number": after_round}
        printed = _("printed %(when)s") % {"when": formats.date_format(timezone.localtime(), "DATETIME_FORMAT")}
        width, _height = body_size(event)
        labels = [_("Rank"), _("Player"), _("Club"), *(metric.heading_for(game) for metric in metrics)]
        numbers = 58
        names = width - 36 - len(metrics) * numbers
        widths = [36, names * 0.62, names * 0.38] + [numbers] * len(metrics)
        header = [FitText(label, size=8, minimum=5.5, bold=True, lines=2) for label in labels]
        rows = [header] + [
            [
                str(line.rank),
                FitText(f"{line.name} · {_('dropped')}" if line.dropped else line.name, size=9.5, minimum=5.5),
                FitText(line.club, size=8.5, minimum=5.5, colour=GREY),
                *(number(metric.shown_value(line.metrics[metric.key], game)) for metric in metrics),
            ]
            for line in lines
        ]
        table = Table(rows, colWidths=widths, repeatRows=1, style=TableStyle(TABLE_STYLE), hAlign="LEFT")
        notes = [FitText(legend, size=8.5, minimum=6, colour=GREY) for legend in legends(game)]
        story = [*heading(event, f"{event.name} · {title}", extra=printed), table, Spacer(1, 6), *notes]
        return build_pdf(event, title, story)
