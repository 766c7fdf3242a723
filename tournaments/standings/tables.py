"""The standings as a django-tables2 table: sortable columns, the same for page, partial and CSV.

Besides rank, movement, player, club and rounds, the columns are the metrics of ``metrics.PRECEDENCE``,
headed as the event's game names them.
"""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ..models import Standing
from .metrics import Metric, shown_metrics

NUMBER = {"td": {"class": "number"}, "th": {"class": "number"}}


class MetricColumn(tables.Column):
    """One metric's column: decimals without trailing zeros, in the reader's number format."""

    def __init__(self, metric: Metric, game):
        super().__init__(verbose_name=metric.label_for(game), attrs=NUMBER)
        self.metric = metric

    def render(self, value):
        return formats.number_format(value.normalize()) if isinstance(value, Decimal) else value

    def value(self, value):
        return f"{value.normalize():f}" if isinstance(value, Decimal) else value


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER)
    movement = tables.Column(
        verbose_name=_("Moved"), accessor="previous_rank", orderable=False, exclude_from_export=True
    )
    player = tables.Column(verbose_name=_("Player"), accessor="player__name", order_by=("player__name",))
    club = tables.Column(verbose_name=_("Club"), accessor="player__club", default="")
    rounds_played = tables.Column(verbose_name=_("Rounds"), attrs={"td": {"class": "number"}})

    class Meta:
        model = Standing
        fields = ("rank", "movement", "player", "club")
        order_by = ("rank",)
        attrs = {"class": "grid standings"}
        empty_text = _("No results yet.")

    def __init__(self, data, *, event, **kwargs):
        metrics = shown_metrics(event.game_bundle)
        columns = [(metric.key, MetricColumn(metric, event.game_bundle)) for metric in metrics]
        sequence = ("rank", "movement", "player", "club", *(metric.key for metric in metrics), "rounds_played")
        super().__init__(data, extra_columns=columns, sequence=sequence, **kwargs)
        self.event_slug = event.slug

    def render_movement(self, record: Standing) -> str:
        moved = record.movement
        if moved > 0:
            return format_html('<span class="up" title="{}">▲{}</span>', _("up"), moved)
        if moved < 0:
            return format_html('<span class="down" title="{}">▼{}</span>', _("down"), -moved)
        return ""

    def render_player(self, record: Standing, value: str) -> str:
        url = reverse("tournaments:player", kwargs={"slug": self.event_slug, "player_id": record.player_id})
        return format_html('<a href="{}">{}</a>', url, value)

    def value_player(self, value: str) -> str:
        return value
