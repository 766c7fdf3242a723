"""A season's ladder on paper: rank, person, each tournament's season points (in brackets when they do not
count) and the total. ``ladder`` is a season's ``Ladder`` (``services/ladder.py``), which printing does not import."""

from __future__ import annotations

from typing import Any

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from ..models import Event
from ..printing.common import GREY, PALE, SHADE, FitText, body_size, build_pdf, escape, styles
from ..printing.fonts import BOLD, REGULAR


def ladder_paper(ladder: Any) -> Event:
    """An unsaved event carrying the season's name, and the paper and language of its latest tournament."""
    latest = ladder.events[-1] if ladder.events else Event()
    return Event(
        name=f"{ladder.season.club.name} · {ladder.season.name}", paper_size=latest.paper_size, language=latest.language
    )


def rule_text(ladder: Any) -> str:
    season = ladder.season
    place = _(
        "In each tournament the winner scores as many points as players with a result, each place below one less."
    )
    if season.counted:
        counts = translation.ngettext(
            "Only each person's best result counts; the others are in brackets.",
            "Each person's best %(count)d results count; the others are in brackets.",
            season.counted,
        ) % {"count": season.counted}
    else:
        counts = _("Every result counts.")
    return f"{place} {counts}"


def ladder_pdf(ladder: Any) -> bytes:
    paper = ladder_paper(ladder)
    with translation.override(paper.language):
        title = _("Season ladder")
        printed = _("printed %(when)s") % {"when": formats.date_format(timezone.localtime(), "DATETIME_FORMAT")}
        width, _height = body_size(paper)
        events = ladder.events
        column = min(34, (width * 0.55) / max(len(events), 1))
        names = width - 30 - 40 - column * len(events)
        header = [
            FitText("#", size=8, bold=True),
            FitText(_("Name"), size=8, bold=True),
            *(FitText(str(number), size=8, minimum=5, bold=True, lines=1) for number in range(1, len(events) + 1)),
            FitText(_("Total"), size=8, bold=True),
        ]
        rows = [header]
        for row in ladder.rows:
            cells = [
                "" if result is None else str(result.points) if result.counted else f"({result.points})"
                for result in row.results
            ]
            rows.append([str(row.rank), FitText(row.person.name, size=9, minimum=5.5), *cells, str(row.total)])
        style = [
            ("FONT", (0, 0), (-1, -1), REGULAR, 8.5),
            ("FONT", (-1, 1), (-1, -1), BOLD, 9),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, PALE]),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, GREY),
            ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
            ("ALIGN", (0, 1), (0, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ("LEFTPADDING", (2, 0), (-2, -1), 1),
            ("RIGHTPADDING", (2, 0), (-2, -1), 2),
        ]
        table = Table(rows, colWidths=[30, names, *([column] * len(events)), 40], repeatRows=1, style=TableStyle(style))
        legend = [
            Paragraph(
                escape(f"{n}. {event.name} · {event.game_name} · {formats.date_format(event.date, 'DATE_FORMAT')}"),
                styles()["info"],
            )
            for n, event in enumerate(events, start=1)
        ]
        story = [
            Paragraph(escape(f"{paper.name} · {title}"), styles()["title"]),
            Paragraph(escape(printed), styles()["info"]),
            table,
            Spacer(1, 6),
            Paragraph(escape(rule_text(ladder)), styles()["info"]),
            Spacer(1, 4),
            *legend,
        ]
        if ladder.unlinked:
            story.append(Paragraph(escape(unlinked_text(ladder.unlinked)), styles()["info"]))
        return build_pdf(paper, title, story)


def unlinked_text(count: int) -> str:
    return translation.ngettext(
        "%(count)d player is linked to nobody of the club and is not on the ladder.",
        "%(count)d players are linked to nobody of the club and are not on the ladder.",
        count,
    ) % {"count": count}
