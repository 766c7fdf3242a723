"""The standings on paper: as stored now, or as they were after any earlier round."""

from __future__ import annotations

from xml.sax.saxutils import escape

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

from ..models import Event
from ..printing.charts import movement_drawing, scores_drawing
from ..printing.common import GREY, PALE, SHADE, FitText, body_size, build_pdf, heading
from ..printing.fonts import BOLD, REGULAR
from ..standings.figures import number_text
from ..standings.metrics import legends, shown_metrics
from ..standings.rows import NO_FIGURE, StandingRow, split_absent
from ..standings.stage import Stage

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


def player_text(row: StandingRow) -> str:
    """The player's name, with a word when they dropped or play for their first result."""
    if row.dropped:
        return f"{row.player.name} · {_('dropped')}"
    if row.playing:
        return f"{row.player.name} · {_('playing')}"
    return row.player.name


def absent_block(absent: list[StandingRow]) -> list:
    """The players who did not play, apart from the standings and unranked: a heading, then their names."""
    if not absent:
        return []
    title = ngettext("Did not play (%(count)d player)", "Did not play (%(count)d players)", len(absent)) % {
        "count": len(absent)
    }
    names = ", ".join(row.player.name for row in absent)
    return [Spacer(1, 8), FitText(title, size=9.5, bold=True, lines=1), Paragraph(escape(names), absent_style())]


def absent_style() -> ParagraphStyle:
    return ParagraphStyle("absent", fontName=REGULAR, fontSize=9, leading=12, textColor=GREY)


def standings_pdf(event: Event, rows: list[StandingRow], stage: Stage, charts=None) -> bytes:
    """Rank, player, club and the event's metrics (tournament points, game score...) of every player who played,
    titled after ``stage``; the players who did not play apart under them, then ``charts``
    (``services.statistics.PrintedCharts``), when given."""
    game = event.game_bundle
    metrics = shown_metrics(game)
    ranked, absent = split_absent(rows)
    with translation.override(event.language):
        title = stage.title
        printed = _("printed %(when)s") % {"when": formats.date_format(timezone.localtime(), "DATETIME_FORMAT")}
        width, _height = body_size(event)
        labels = [_("Rank"), _("Player"), _("Club"), *(metric.heading_for(game) for metric in metrics)]
        numbers = 58
        names = width - 36 - len(metrics) * numbers
        widths = [36, names * 0.62, names * 0.38] + [numbers] * len(metrics)
        header = [FitText(label, size=8, minimum=5.5, bold=True, lines=2) for label in labels]
        rows = [header] + [
            [
                str(row.rank) if row.played else NO_FIGURE,
                FitText(player_text(row), size=9.5, minimum=5.5),
                FitText(row.player.club, size=8.5, minimum=5.5, colour=GREY),
                *(number_text(row.shown[metric.key]) if row.played else NO_FIGURE for metric in metrics),
            ]
            for row in ranked
        ]
        table = Table(rows, colWidths=widths, repeatRows=1, style=TableStyle(TABLE_STYLE), hAlign="LEFT")
        notes = [FitText(legend, size=8.5, minimum=6, colour=GREY) for legend in legends(game)]
        story = [*heading(event, f"{event.name} · {title}", extra=printed), table, Spacer(1, 6), *notes]
        story.extend(absent_block(absent))
        if charts is not None:
            story.extend(charts_block(charts, width))
        return build_pdf(event, title, story)
