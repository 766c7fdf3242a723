"""The standings as a django-tables2 table: sortable columns, the same for page, partial, CSV and Excel.

Besides rank, movement, player, club, rounds and (in the files only) whether the player dropped, the columns are the
metrics the game ranks by (``Game.ranking``), headed as the event's game names them. The rows are
``rows.StandingRow``s, already best first: the table sorts them only when a column is asked for, names and clubs by
their collation keys (the same on every database).
"""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..formatting import hundredths
from .figures import number_text
from .metrics import Metric, legends, shown_metrics
from .rows import NO_FIGURE, StandingRow, split_absent, with_figures

NUMBER = {"td": {"class": "number"}, "th": {"class": "number"}}
#: How many of the game's ranking figures a phone's line shows, in order of precedence; the others are shown on tap.
PHONE_LINE = 2


class MetricColumn(tables.Column):
    """One metric's column, valued as the event's game counts it."""

    def __init__(self, metric: Metric, game):
        super().__init__(
            verbose_name=metric.heading_for(game),
            accessor=f"shown__{metric.key}",
            attrs=NUMBER,
            order_by=(f"shown__{metric.key}", "name_key"),
        )
        self.key = metric.key

    def render(self, value, record, table):
        shown = table.shown_rows() and record.figures.get(self.key)
        if shown:
            return shown.text
        return number_text(value) if record.played else NO_FIGURE

    def value(self, value, record):
        """The value in a file: a number (whole ones as integers, 3.5 not 3.50, to the hundredth rounded half up);
        empty without a result yet."""
        if not record.played:
            return None
        if isinstance(value, Decimal):
            rounded = hundredths(value)
            return int(rounded) if rounded == rounded.to_integral_value() else rounded.normalize()
        return value


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER, order_by=("rank", "name_key"))
    movement = tables.Column(
        verbose_name=_("Moved"), accessor="moved", orderable=False, exclude_from_export=True, default=""
    )
    player = tables.Column(verbose_name=_("Player"), accessor="player__name", order_by=("name_key",))
    #: Only in the files, and only once a player has dropped: on the page the player's name carries the tag.
    status = tables.Column(verbose_name=_("Status"), accessor="dropped", visible=False, orderable=False)
    club = tables.Column(verbose_name=_("Club"), accessor="player__club", default="", order_by=("club_key",))
    rounds_played = tables.Column(verbose_name=_("Rounds"), attrs={"td": {"class": "number"}})

    class Meta:
        template_name = "django_tables2/semantic.html"
        attrs = {"class": "grid standings"}
        row_attrs = {"class": lambda record: "dropped" if record.dropped else ""}
        empty_text = _("No results yet.")

    def __init__(self, rows: list[StandingRow], *, event, **kwargs):
        """The standings of ``rows``; those of the players who did not play are kept apart (``absent``)."""
        game = event.game_bundle
        self.metrics = shown_metrics(game)
        columns = [(metric.key, MetricColumn(metric, game)) for metric in self.metrics]
        sequence = ("rank", "movement", "player", "club", *(m.key for m in self.metrics), "rounds_played", "status")
        ranked, absent = split_absent(rows)
        if not any(row.dropped for row in ranked):
            kwargs["exclude"] = (*kwargs.get("exclude", ()), "status")
        super().__init__(ranked, extra_columns=columns, sequence=sequence, **kwargs)
        #: The players who did not play, listed apart from the standings, unranked.
        self.absent = absent
        self.event_slug = event.slug
        self.game = game
        self.legends = legends(game)
        #: The figures a phone's line shows, the first the game ranks by; headed by their short labels.
        self.phone_metrics = self.metrics[:PHONE_LINE]
        self.phone_headings = [metric.short_label_for(game) for metric in self.phone_metrics]
        self._shown: list[StandingRow] | None = None

    def player_url(self, row: StandingRow) -> str:
        return reverse("tournaments:player", kwargs={"slug": self.event_slug, "player_id": row.player_id})

    def shown_rows(self) -> list[StandingRow]:
        """The rows of the page shown, each with its player's link and its figures (worked out once a page: the
        table's cells and the phone's list show the same)."""
        if self._shown is None:
            self._shown = with_figures([bound.record for bound in self.paginated_rows], self.game)
            for row in self._shown:
                row.url = self.player_url(row)
        return self._shown

    def phone_rows(self) -> list[StandingRow]:
        """The page's standings as a phone lists them: the line's figures (``phone_metrics``), the rest on tap."""
        keys = [metric.key for metric in self.phone_metrics]
        rows = self.shown_rows()
        for row in rows:
            row.line = [row.figures[key] for key in keys]
            row.details = [figure for key, figure in row.figures.items() if key not in keys]
        return rows

    def render_movement(self, value: int) -> str:
        if value > 0:
            return format_html('<span class="up" title="{}">▲{}</span>', gettext("up"), value)
        if value < 0:
            return format_html('<span class="down" title="{}">▼{}</span>', gettext("down"), -value)
        return ""

    def render_rank(self, record: StandingRow, value: int) -> object:
        return value if record.played else NO_FIGURE

    def value_rank(self, record: StandingRow, value: int) -> int | None:
        return value if record.played else None

    def render_player(self, record: StandingRow, value: str) -> str:
        url = self.shown_rows() and record.url or self.player_url(record)
        tag = gettext("dropped") if record.dropped else gettext("playing") if record.playing else ""
        if tag:
            return format_html('<a href="{}">{}</a> <span class="tag">{}</span>', url, value, tag)
        return format_html('<a href="{}">{}</a>', url, value)

    def value_player(self, value: str) -> str:
        return value

    def value_status(self, record: StandingRow) -> str:
        """The word "dropped" for a player who left the event, else nothing."""
        return gettext("dropped") if record.dropped else ""
