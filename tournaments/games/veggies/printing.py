"""Veggies: per player, a row per good (largest group x groups = points) and the mice; team totals in teams."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from scoring.veggies import DECLARED_COUNT, GOODS, MOUSE_POINTS

from ...formatting import signed
from ...printing.boxes import ANY_DIGIT
from ...printing.common import SHADE, SeatLine, cell, draw_text
from ...printing.grid import WRITE_IN, Digits, PlayerColumns, Row, Tick, line_of_boxes
from .labels import goods as good_labels

TWO_PLAYER = "two-player"
TEAMS = "teams"
TEAM_ROW = 24
#: Least heights of the names row and of a row of write-in boxes (about 9 mm boxes).
NAMES, BOX_ROW = 18, 29
#: What the tens of a largest group or of the mice may be: a stand shows at most 48 spaces.
TENS = "01234"
#: The tick of a declared good as its row's hint shows it.
TICK = "☐"


def teams_of(seats: Sequence[SeatLine]) -> list[tuple[str, list[int]]]:
    """The two teams at a table as (name, seat indexes): the players' own teams, else seats 1 + 3 and 2 + 4."""
    by_team: dict[str, list[int]] = {}
    for i, seat in enumerate(seats):
        by_team.setdefault(seat.team, []).append(i)
    if "" not in by_team and len(by_team) == 2 and all(len(members) == 2 for members in by_team.values()):
        return list(by_team.items())
    return [(_("Team %(number)d") % {"number": n + 1}, [i for i in range(len(seats)) if i % 2 == n]) for n in range(2)]


class VeggiesSheet(PlayerColumns):
    sheets_per_page = 2

    def __init__(self, event, seats: Sequence[SeatLine]):
        variant = event.effective_variant
        labels = good_labels()
        rows = [Row("names", _("Players"), NAMES, kind="names")]
        declared, largest = _("declared"), _("largest × groups")
        good_hint = f"{TICK} {declared} · {largest}"
        rows += [Row(good, labels[good], BOX_ROW, hint=good_hint, kind="good") for good in GOODS]
        rows += [
            Row("mice", _("Mice"), BOX_ROW, hint=_("%(points)s each") % {"points": signed(MOUSE_POINTS)}, kind="mice"),
            Row("total", _("Total"), BOX_ROW, strong=True),
        ]
        notes = [
            _(
                "Tick the good of your biggest group and tell the table: every declared good scores for everyone, "
                "once; other goods score nothing."
            )
        ]
        if variant == TWO_PLAYER:
            notes.append(
                _("Two players: each player declares %(count)d goods, their biggest groups.")
                % {"count": DECLARED_COUNT[TWO_PLAYER]}
            )
        if variant == TEAMS:
            notes.append(_("Teams: scored as standard; a team's score is its two players' totals added up."))
        notes.append(_("Tie: fewest mice wins."))
        super().__init__([seat.name for seat in seats], rows, notes)
        self.teams = teams_of(seats) if variant == TEAMS and len(seats) == 4 else []
        self.team_labels = (_("Team"), _("Team total"), _("Team mice"))
        self.mouse_points = signed(MOUSE_POINTS)
        self.words = {
            "goods": labels,
            "declared": declared,
            "largest": _("largest group"),
            "groups": _("groups"),
            "mice": _("Mice"),
        }

    def form_key(self):
        return (*super().form_key(), bool(self.teams))

    def cell_line(self, row, player, x, y, width, height):
        """A good's cell: the tick of a declared good, then largest group × groups = points; the mice's: mice × −2 =
        points. Largest groups and mice take two digit boxes, groups one; the points are not read back."""
        name, words = self.names[player], self.words
        if row.kind == "good":
            good, stand = row.key, f"stands[{player}]"
            label = f"{name} · {words['goods'][good]}"
            parts = [
                Tick(f"{stand}.declared", f"{label} · {words['declared']}", value=good),
                Digits(f"{stand}.goods.{good}.largest", f"{label} · {words['largest']}", (TENS, ANY_DIGIT)),
                "×",
                Digits(f"{stand}.goods.{good}.groups", f"{label} · {words['groups']}"),
                "=",
                WRITE_IN,
            ]
        elif row.kind == "mice":
            mice = Digits(f"stands[{player}].mice", f"{name} · {words['mice']}", (TENS, ANY_DIGIT))
            parts = [mice, "×", self.mouse_points, "=", WRITE_IN]
        else:
            return None
        return line_of_boxes(x, y, width, height, parts, player)

    def extra_height(self, width):
        return (len(self.teams) + 1) * TEAM_ROW + 10 if self.teams else 0

    def draw_extra(self, bottom):
        if not self.teams:
            return
        c = self.canv
        team_label, total_label, mice_label = self.team_labels
        widths = (self.width - 180, 90, 90)
        y = bottom - 10 - TEAM_ROW
        x = 0
        for label, w in zip((team_label, total_label, mice_label), widths):
            cell(c, x, y, w, TEAM_ROW, fill=SHADE)
            draw_text(c, label, x, y, w, TEAM_ROW, size=8, bold=True)
            x += w
        for _team in self.teams:
            y -= TEAM_ROW
            cell(c, 0, y, widths[0], TEAM_ROW)
            cell(c, widths[0], y, widths[1], TEAM_ROW, line=1.2)
            cell(c, widths[0] + widths[1], y, widths[2], TEAM_ROW)

    def draw_extra_names(self, bottom):
        y = bottom - 10 - TEAM_ROW
        for team, members in self.teams:
            y -= TEAM_ROW
            names = " + ".join(self.names[i] for i in members)
            draw_text(self.canv, f"{team}: {names}", 0, y, self.width - 180, TEAM_ROW, size=9, minimum=5)


def sheet(event, seats: Sequence[SeatLine]) -> Flowable:
    return VeggiesSheet(event, seats)
