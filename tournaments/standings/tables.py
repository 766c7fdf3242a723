"""The standings as a django-tables2 table: sortable columns, the same for page, partial and CSV."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ..models import Standing


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "number"}, "th": {"class": "number"}})
    movement = tables.Column(
        verbose_name=_("Moved"), accessor="previous_rank", orderable=False, exclude_from_export=True
    )
    player = tables.Column(verbose_name=_("Player"), accessor="player__name", order_by=("player__name",))
    club = tables.Column(verbose_name=_("Club"), accessor="player__club", default="")
    points = tables.Column(verbose_name=_("Tournament points"), attrs={"td": {"class": "number"}})
    score = tables.Column(verbose_name=_("Game score"), attrs={"td": {"class": "number"}})
    tiebreak = tables.Column(verbose_name=_("Game tiebreak"), attrs={"td": {"class": "number"}})
    buchholz = tables.Column(verbose_name=_("Opponents' points"), attrs={"td": {"class": "number"}})
    rounds_played = tables.Column(verbose_name=_("Rounds"), attrs={"td": {"class": "number"}})

    class Meta:
        model = Standing
        fields = ("rank", "movement", "player", "club", "points", "score", "tiebreak", "buchholz", "rounds_played")
        order_by = ("rank",)
        attrs = {"class": "grid standings"}
        empty_text = _("No results yet.")

    def __init__(self, *args, event_slug: str = "", tiebreak_label: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.player_url = reverse("tournaments:player", kwargs={"slug": event_slug or "-", "player_id": 0})[:-2]
        if tiebreak_label:
            self.columns["tiebreak"].column.verbose_name = tiebreak_label
        else:
            self.columns.hide("tiebreak")

    def render_movement(self, record: Standing) -> str:
        moved = record.movement
        if moved > 0:
            return format_html('<span class="up" title="{}">▲{}</span>', _("up"), moved)
        if moved < 0:
            return format_html('<span class="down" title="{}">▼{}</span>', _("down"), -moved)
        return ""

    def render_player(self, record: Standing, value: str) -> str:
        return format_html('<a href="{}{}/">{}</a>', self.player_url, record.player_id, value)

    def value_player(self, value: str) -> str:
        return value

    def render_points(self, value) -> str:
        return formats.number_format(value.normalize())

    def render_buchholz(self, value) -> str:
        return formats.number_format(value.normalize())

    def value_points(self, value) -> str:
        return f"{value.normalize():f}"

    def value_buchholz(self, value) -> str:
        return f"{value.normalize():f}"
