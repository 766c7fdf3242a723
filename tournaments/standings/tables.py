"""The standings as a django-tables2 table: sortable columns, the same for page, partial, CSV and Excel.

Besides rank, movement, player, club and rounds, the columns are the metrics of ``metrics.PRECEDENCE``,
headed as the event's game names them. The rows come from ``rows.standings_rows``: sorting happens in Python,
names and clubs in alphabetical order (``collation``), the same on every database.
"""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ..models import Standing
from .figures import Figure, figures, number_text
from .metrics import Metric, legends, shown_metrics

NUMBER = {"td": {"class": "number"}, "th": {"class": "number"}}


class MetricColumn(tables.Column):
    """One metric's column, valued as the event's game counts it."""

    def __init__(self, metric: Metric, game):
        super().__init__(
            verbose_name=metric.heading_for(game), attrs=NUMBER, order_by=(f"shown_{metric.key}", "name_key")
        )
        self.metric = metric
        self.game = game

    def render(self, value):
        return number_text(self.metric.shown_value(value, self.game))

    def value(self, value):
        shown = self.metric.shown_value(value, self.game)
        return f"{shown.normalize():f}" if isinstance(shown, Decimal) else shown


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER, order_by=("rank", "name_key"))
    movement = tables.Column(
        verbose_name=_("Moved"), accessor="moved", orderable=False, exclude_from_export=True, default=""
    )
    player = tables.Column(verbose_name=_("Player"), accessor="player__name", order_by=("name_key",))
    club = tables.Column(verbose_name=_("Club"), accessor="player__club", default="", order_by=("club_key",))
    rounds_played = tables.Column(verbose_name=_("Rounds"), attrs={"td": {"class": "number"}})

    class Meta:
        model = Standing
        fields = ("rank", "movement", "player", "club")
        order_by = ("rank",)
        attrs = {"class": "grid standings"}
        row_attrs = {"class": lambda record: "dropped" if record.dropped else ""}
        empty_text = _("No results yet.")

    def __init__(self, data, *, event, **kwargs):
        game = event.game_bundle
        self.metrics = shown_metrics(game)
        columns = [(metric.key, MetricColumn(metric, game)) for metric in self.metrics]
        sequence = ("rank", "movement", "player", "club", *(metric.key for metric in self.metrics), "rounds_played")
        super().__init__(data, extra_columns=columns, sequence=sequence, **kwargs)
        self.event_slug = event.slug
        self.game = game
        self.legends = legends(game)

    def phone_rows(self) -> list[tuple[Standing, dict[str, Figure]]]:
        """The page's standings as a phone lists them, each with its metrics' figures by key (formatted here rather
        than through the table's cells: a phone's list is drawn beside the table, at a fraction of its cost)."""
        rows = [row.record for row in self.paginated_rows]
        return [(standing, {f.key: f for f in figures(standing, self.game)}) for standing in rows]

    def render_movement(self, value: int) -> str:
        if value > 0:
            return format_html('<span class="up" title="{}">▲{}</span>', _("up"), value)
        if value < 0:
            return format_html('<span class="down" title="{}">▼{}</span>', _("down"), -value)
        return ""

    def render_player(self, record: Standing, value: str) -> str:
        url = reverse("tournaments:player", kwargs={"slug": self.event_slug, "player_id": record.player_id})
        if record.dropped:
            return format_html('<a href="{}">{}</a> <span class="tag">{}</span>', url, value, _("dropped"))
        return format_html('<a href="{}">{}</a>', url, value)

    def value_player(self, value: str) -> str:
        return value
