"""The standings as a django-tables2 table: sortable columns, the same for page, partial, CSV and Excel.

Besides rank, movement, player, club and rounds, the columns are the metrics of ``metrics.PRECEDENCE``,
headed as the event's game names them. The rows come from ``rows.standings_rows``: sorting happens in Python,
names and clubs in alphabetical order (``collation``), the same on every database.
"""

from __future__ import annotations

from decimal import Decimal
from operator import attrgetter
from typing import NamedTuple

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableListData
from django_tables2.utils import Accessor, OrderBy, signature

from ..models import Standing
from .figures import Figure, figures, number_text
from .metrics import Metric, legends, shown_metrics
from .rows import ListedStanding

#: A player id no event reaches, standing for each player's in a reversed URL.
URL_PLACEHOLDER = 987654321987
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


class PhoneRow(NamedTuple):
    """A standing as the phone's list shows it: rank, name, points and score in a line, the other figures on tap."""

    standing: ListedStanding
    url: str
    points: Figure | None
    score: Figure | None
    details: list[Figure]


class ColumnCells:
    """One column's cells as ``BoundRow.items`` renders them, with the accessor, renderer, its arguments and the
    cells' attributes worked out once for the page rather than once a cell.

    Exact for columns that read a plain attribute (no choices, no links, no attributes computed per cell), which
    is what every standings column does.
    """

    def __init__(self, bound_column, table):
        self.bound_column = bound_column
        self.table = table
        self.accessor = Accessor(bound_column.accessor)
        self.render = bound_column.render
        self.arguments, self.takes_any = signature(self.render)
        self.empty = bound_column.column.empty_values
        self.default = bound_column.default
        self.attrs = bound_column.attrs["td"].as_html()

    def cell(self, row):
        value = self.accessor.resolve(row.record, quiet=True)
        if value in self.empty:
            return self.default
        offered = {
            "value": value,
            "record": row.record,
            "column": self.bound_column.column,
            "bound_column": self.bound_column,
            "bound_row": row,
            "table": self.table,
        }
        if not self.takes_any:
            offered = {name: offered[name] for name in self.arguments}
        return self.render(**offered)


class StandingsRows(TableListData):
    """The standings' rows as django-tables2 holds a list, sorted the same way (each column's ``order_by``, in the
    direction asked) with one plain key a pass rather than its comparator, which reads every value again at each
    comparison: a page sorts every player's row to show a hundred. Every key is a plain attribute of the row."""

    def order_by(self, aliases):
        keys = []
        for alias in aliases:
            bound_column = self.table.columns[OrderBy(alias).bare]
            keys += (
                bound_column.order_by.opposite if alias[0] != bound_column.order_by_alias[0] else bound_column.order_by
            )
        for key in reversed(keys):
            self.data.sort(key=attrgetter(key.bare.replace("__", ".")), reverse=key.is_descending)


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
        template_name = "tournaments/_standings_table.html"
        row_attrs = {"class": lambda record: "dropped" if record.dropped else ""}
        empty_text = _("No results yet.")

    def __init__(self, data, *, event, **kwargs):
        game = event.game_bundle
        self.metrics = shown_metrics(game)
        columns = [(metric.key, MetricColumn(metric, game)) for metric in self.metrics]
        sequence = ("rank", "movement", "player", "club", *(metric.key for metric in self.metrics), "rounds_played")
        super().__init__(StandingsRows(list(data)), extra_columns=columns, sequence=sequence, **kwargs)
        self.event_slug = event.slug
        self.game = game
        self.legends = legends(game)
        self._player_url: list[str] | None = None

    def body(self) -> list[tuple[str, list[tuple[str, object]]]]:
        """The page's rows as (row attributes, [(cell attributes, cell)]): what django-tables2 renders, at a fraction
        of its cost per cell (the live standings render a page about once a second while a room saves)."""
        columns = [ColumnCells(bound_column, self) for bound_column in self.columns]
        return [(row.attrs.as_html(), [(c.attrs, c.cell(row)) for c in columns]) for row in self.paginated_rows]

    def phone_rows(self) -> list[PhoneRow]:
        """The page's standings as a phone lists them (formatted here rather than through the table's cells: a
        phone's list is drawn beside the table, at a fraction of its cost)."""
        rows = []
        for row in self.paginated_rows:
            standing = row.record
            shown = {figure.key: figure for figure in figures(standing, self.game)}
            points, score = shown.pop("points", None), shown.pop("score", None)
            rows.append(PhoneRow(standing, self.player_url(standing.player_id), points, score, list(shown.values())))
        return rows

    def player_url(self, player_id: int) -> str:
        """The player's page (the URL is reversed once a table: a page has a hundred players, each linked twice)."""
        if self._player_url is None:
            kwargs = {"slug": self.event_slug, "player_id": URL_PLACEHOLDER}
            self._player_url = reverse("tournaments:player", kwargs=kwargs).split(str(URL_PLACEHOLDER))
        before, after = self._player_url
        return f"{before}{player_id}{after}"

    def render_movement(self, value: int) -> str:
        if value > 0:
            return format_html('<span class="up" title="{}">▲{}</span>', _("up"), value)
        if value < 0:
            return format_html('<span class="down" title="{}">▼{}</span>', _("down"), -value)
        return ""

    def render_player(self, record: ListedStanding, value: str) -> str:
        url = self.player_url(record.player_id)
        if record.dropped:
            return format_html('<a href="{}">{}</a> <span class="tag">{}</span>', url, value, _("dropped"))
        return format_html('<a href="{}">{}</a>', url, value)

    def value_player(self, value: str) -> str:
        return value
