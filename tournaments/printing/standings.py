"""The standings on paper: as stored now, or as they were after any earlier round."""

from __future__ import annotations

from decimal import Decimal

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from reportlab.platypus import KeepTogether, Spacer, Table, TableStyle

from ..models import Event
from ..standings.metrics import legends, shown_metrics
from ..standings.rows import StandingRow
from .charts import movement_drawing, scores_drawing
from .common import GREY, PALE, SHADE, FitText, body_size, build_pdf, heading
from .fonts import BOLD, REGULAR


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


def charts_block(charts, width: float) -> list:
    """The movement of the leaders and the scores of each round side by side, each under its title."""
    half = (width - 12) / 2
    titles = [_("Standings movement by round"), _("Score distribution per round")]
    drawings = [
        movement_drawing(charts.rounds, charts.leaders, half, 150) if charts.rounds else Spacer(1, 1),
        scores_drawing(charts.scores, half, 150),
    ]
    rows = [[FitText(title, size=9, bold=True) for title in titles], drawings]
    style = TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)])
    return [Spacer(1, 10), KeepTogether(Table(rows, colWidths=[half + 6, half + 6], style=style, hAlign="LEFT"))]


def standings_pdf(event: Event, rows: list[StandingRow], after_round: int | None = None, charts=None) -> bytes:
    """Rank, player, club and the event's metrics (tournament points, game score...) of every player; under them
    ``charts`` (``services.statistics.PrintedCharts``), when given."""
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
                str(row.rank),
                FitText(
                    f"{row.player.name} · {_('dropped')}" if row.dropped else row.player.name, size=9.5, minimum=5.5
                ),
                FitText(row.player.club, size=8.5, minimum=5.5, colour=GREY),
                *(number(row.shown[metric.key]) for metric in metrics),
            ]
            for row in rows
        ]
        table = Table(rows, colWidths=widths, repeatRows=1, style=TableStyle(TABLE_STYLE), hAlign="LEFT")
        notes = [FitText(legend, size=8.5, minimum=6, colour=GREY) for legend in legends(game)]
        story = [*heading(event, f"{event.name} · {title}", extra=printed), table, Spacer(1, 6), *notes]
        if charts is not None:
            story.extend(charts_block(charts, width))
        return build_pdf(event, title, story)
