"""Veggies at the table: stands typed as counts or tapped in as a grid (switched at once), declarations, mice and
teams, each player's part on their own card."""

from __future__ import annotations

import re

import pytest

from tests.factories import seat_by_hand
from tournaments.games.veggies.entry import normalise
from tournaments.models import Manche
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db

GOOD = "stands[{i}].goods.{good}.{key}"

#: Ola's stand from the rulebook, and three stands whose biggest groups are the goods the others declare.
OLA = {"strawberries": (5, 4), "bananas": (3, 2), "grapes": (5, 1)}
CHRISTINA = {"bananas": (6, 1), "carrots": (2, 2)}
MICHAEL = {"grapes": (4, 2), "mushrooms": (3, 1)}
PATRICIA = {"strawberries": (4, 1), "carrots": (1, 3)}

#: Patricia's stand tapped in one column from the left: strawberries 4 in one group, carrots 1 x 3, one mouse.
PATRICIA_GRID = [
    " SSCE",
    " SSEC",
    " XECE",
]


@pytest.fixture
def table(make_event):
    def seated(players: int = 4, **fields):
        event = make_event("veggies", players=players, table_size=players, **fields)
        ids = list(event.players.order_by("name").values_list("id", flat=True))
        return seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()

    return seated


def stand_fields(i: int, goods: dict, mice: str = "", declared: str = "") -> dict[str, str]:
    """The fields one player's column posts: every good's two numbers (blank when absent), mice, declared."""
    fields = {f"stands[{i}].mode": "tally", f"stands[{i}].declared[0]": declared, f"stands[{i}].mice": mice}
    for good in ("strawberries", "bananas", "grapes", "carrots", "mushrooms"):
        largest, groups = goods.get(good, ("", ""))
        fields[GOOD.format(i=i, good=good, key="largest")] = str(largest)
        fields[GOOD.format(i=i, good=good, key="groups")] = str(groups)
    return fields


def grid_fields(i: int, rows: list[str], declared: str = "") -> dict[str, str]:
    """A column switched to the grid, with ``rows`` tapped in at the top left of the 6 x 8 grid."""
    fields = {f"stands[{i}].mode": "grid", f"stands[{i}].declared[0]": declared}
    for r in range(6):
        for c in range(8):
            cell = rows[r][c] if r < len(rows) and c < len(rows[r]) else " "
            fields[f"stands[{i}].grid[{r}][{c}]"] = cell.strip()
    return fields


def ola_table(ola_declares: str = "strawberries") -> dict[str, str]:
    return {
        **stand_fields(0, OLA, "3", ola_declares),
        **stand_fields(1, CHRISTINA, "", "bananas"),
        **stand_fields(2, MICHAEL, "1", "grapes"),
        **stand_fields(3, PATRICIA, "0", "strawberries"),
    }


def post(client, table, fields: dict, *, seat: int = 1, htmx: bool = False, redraw: bool = False):
    manche = table.manches.get(number=1)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    data = {"seat": str(seat), "version": str(manche.version), **fields, **({"redraw": "1"} if redraw else {})}
    return client.post(f"/t/{table.token}/manches/1/", data, **headers)


def field_html(html: str, name: str) -> str:
    """The markup of the field named ``name`` to the end of its line (its control and its errors)."""
    match = re.search(rf'name="{re.escape(name)}".*?(?=</div>|</fieldset>|</td>)', html, re.S)
    assert match, name
    return match.group(0)


def selected(html: str, name: str) -> str:
    match = re.search(r'<option value="([^"]*)" selected>', field_html(html, name))
    return match.group(1) if match else ""


def chosen(html: str, name: str) -> str:
    """The value of the button chosen among the radio buttons named ``name``."""
    match = re.search(rf'name="{re.escape(name)}" value="([^"]*)" checked', html)
    return match.group(1) if match else ""


def card(html: str, seat: int) -> str:
    start = html.index(f'id="card-1-{seat}"')
    return html[start : html.index(f'<div id="live-1-{seat}"', start)]


def live(html: str, seat: int) -> str:
    """What a player's card adds up to (their notes and score), as the page or a live check draws it."""
    start = html.index(f'<div id="live-1-{seat}"')
    return html[start : html.index("</div>", start)]


def test_page_shows_a_column_per_player_with_every_good(client, table):
    table = table()
    html = client.get(f"/t/{table.token}/").content.decode()
    for name in ("stands[0].mode", "stands[0].declared[0]", "stands[3].goods.mushrooms.groups", "stands[2].mice"):
        assert f'name="{name}"' in html
    assert "stands[0].declared[1]" not in html
    assert re.search(
        r'class="caption">largest group</label>\s*<input [^>]*aria-label="Strawberries: largest group: Player 02"',
        card(html, 2),
    )
    assert '<span class="line-label" aria-hidden="true">Mushrooms</span>' in card(html, 3)
    assert chosen(html, "stands[1].mode") == "tally" and 'value="grid"><span>Grid</span>' in card(html, 1)
    assert "opens when you save" not in html
    assert "<script>" not in html and " onclick=" not in html


def test_olas_rulebook_example_scores_25(client, table):
    table = table()
    response = post(client, table, ola_table())
    assert response.status_code == 302
    manche = Manche.objects.get(table=table, number=1)
    ola, christina = manche.document["stands"][:2]
    assert ola == {
        "goods": {
            "strawberries": {"largest": 5, "groups": 4},
            "bananas": {"largest": 3, "groups": 2},
            "grapes": {"largest": 5, "groups": 1},
        },
        "mice": 3,
        "declared": ["strawberries"],
    }
    assert christina["mice"] == 0
    players = manche.result["players"]
    assert players[0]["score"] == 25
    assert players[0]["breakdown"]["scored_goods"] == ["strawberries", "bananas", "grapes"]
    assert [p["score"] for p in players] == [25, 6, 6, 4]
    html = client.get(f"/t/{table.token}/").content.decode()
    assert re.search(r"<td>Player 00</td><td class=\"number\">25</td>", html)
    assert 'name="stands[0].goods.strawberries.largest" value="5"' in html
    assert selected(html, "stands[0].declared[0]") == "strawberries"


def test_checks_add_up_each_good_and_the_scores_so_far(client, table):
    table = table()
    response = post(client, table, {**ola_table(), "stands[2].mice": "-1"}, htmx=True)
    assert response.status_code == 400
    html = response.content.decode()
    assert "This must be at least 0; it is -1." in field_html(html, "stands[2].mice")
    checks = html[html.index('id="checks-1"') :]
    assert "Declared good: scored: Strawberries, Bananas, Grapes ✓" in checks
    assert "Strawberries: 20 points" in live(html, 0) and "Strawberries: 4 points" in live(html, 3)
    unscored = "points, not scored: nobody declared it as a biggest group"
    assert f"Carrots: 4 {unscored}" in live(html, 1) and f"Carrots: 3 {unscored}" in live(html, 3)
    assert "Mice: -6 points" in live(html, 0)
    scores = [re.search(r"Score: <strong>([^<]+)</strong>", live(html, seat)).group(1) for seat in range(4)]
    assert scores == ["25", "6", "–", "4"]


def test_a_tie_left_undeclared_names_the_choices_at_the_declared_good(client, table):
    table = table()
    response = post(client, table, ola_table(ola_declares=""))
    assert response.status_code == 400
    html = response.content.decode()
    # The goods as the selects name them.
    message = "Goods tie for this stand&#x27;s biggest groups, so the player declares which: Strawberries / Grapes."
    assert message in field_html(html, "stands[0].declared[0]")
    assert 'name="stands[0].goods.strawberries.groups" value="4"' in html
    assert 'name="stands[0].mice" value="3"' in html
    assert 'name="stands[2].goods.mushrooms.largest" value="3"' in html
    assert selected(html, "stands[1].declared[0]") == "bananas"
    assert '<span class="check pending">Choose the good you declare: Strawberries / Grapes</span>' in live(html, 0)
    assert html.count(message) == 1
    assert Manche.objects.get(table=table, number=1).document is None


def test_a_good_typed_by_halves_is_refused_at_its_groups(client, table):
    table = table()
    fields = {**ola_table(), GOOD.format(i=1, good="carrots", key="groups"): ""}
    response = post(client, table, fields, htmx=True)
    assert response.status_code == 400
    html = response.content.decode()
    cell = field_html(html, "stands[1].goods.carrots.groups")
    assert "Write a whole number here." in cell
    assert 'aria-invalid="true"' in cell
    assert 'name="stands[1].goods.carrots.largest" value="2"' in html


def test_a_column_left_blank_asks_for_the_stand(client, table):
    table = table()
    fields = {**ola_table(), **stand_fields(3, {})}
    response = post(client, table, fields)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Give this stand as a tally (goods and mice) or as a grid." in field_html(html, "stands[3].mode")


@pytest.mark.parametrize("htmx", [True, False])
def test_choosing_the_grid_draws_it_at_once_and_keeps_what_was_typed(client, table, htmx):
    table = table()
    fields = {**ola_table(), "stands[3].mode": "grid"}
    response = post(client, table, fields, redraw=True, htmx=htmx)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('name="stands[3].grid[') == 48 and 'name="stands[2].grid[' not in html
    assert 'aria-label="Player 03, row 6, column 8"' in card(html, 3)
    assert "Tap in the stand, one cell per space, then save." in html
    assert "This grid shows 0 spaces" not in html and 'class="error"' not in html
    assert chosen(html, "stands[3].mode") == "grid"
    assert 'name="stands[0].goods.strawberries.largest" value="5"' in html
    assert '<input type="hidden" name="stands[3].goods.strawberries.largest" value="4">' in card(html, 3)
    assert '<input type="hidden" name="stands[3].mice" value="0">' in card(html, 3), "the counts wait, unseen"
    assert Manche.objects.get(table=table, number=1).version == 0


def test_switching_back_to_counts_counts_what_the_grid_shows(client, table):
    table = table()
    fields = {**ola_table(), **grid_fields(3, PATRICIA_GRID, "strawberries"), "stands[3].mode": "tally"}
    html = post(client, table, fields, redraw=True, htmx=True).content.decode()
    assert 'name="stands[3].grid[' not in html and chosen(html, "stands[3].mode") == "tally"
    counted = {
        name: re.search(rf'name="stands\[3\]\.{name}" value="([^"]*)"', html).group(1)
        for name in ("goods.strawberries.largest", "goods.strawberries.groups", "goods.carrots.groups", "mice")
    }
    assert counted == {
        "goods.strawberries.largest": "4",
        "goods.strawberries.groups": "1",
        "goods.carrots.groups": "3",
        "mice": "1",
    }
    assert re.search(r'name="stands\[3\]\.goods\.bananas\.largest" value=""', html)
    assert 'name="stands[0].goods.strawberries.largest" value="5"' in html


def test_saving_with_the_grid_chosen_and_left_blank_asks_for_the_stand(client, table):
    table = table()
    response = post(client, table, {**ola_table(), "stands[3].mode": "grid"})
    assert response.status_code == 400
    html = response.content.decode()
    assert html.count('name="stands[3].grid[') == 48 and chosen(html, "stands[3].mode") == "grid"
    assert 'name="stands[0].goods.strawberries.largest" value="5"' in html


def test_a_stand_tapped_in_as_a_grid_is_counted_and_saved(client, table):
    table = table()
    fields = {**ola_table(), **grid_fields(3, PATRICIA_GRID, "strawberries")}
    for key in ("largest", "groups"):
        fields[GOOD.format(i=3, good="carrots", key=key)] = "9"
    response = post(client, table, fields)
    assert response.status_code == 302
    manche = Manche.objects.get(table=table, number=1)
    patricia = manche.document["stands"][3]
    assert patricia == {"grid": [row.ljust(8) for row in PATRICIA_GRID] + [" " * 8] * 3, "declared": ["strawberries"]}
    assert manche.result["players"][3]["score"] == 4 * 1 - 2
    html = client.get(f"/t/{table.token}/").content.decode()
    assert chosen(html, "stands[3].mode") == "grid"
    assert selected(html, "stands[3].grid[2][1]") == "X"
    assert selected(html, "stands[3].grid[0][3]") == "C"
    assert selected(html, "stands[3].grid[0][0]") == ""
    assert "Counted (largest group × groups): Strawberries 4×1, Carrots 1×3, 1 mouse." in live(html, 3)
    assert 'name="stands[3].goods.strawberries.largest"' not in card(html, 3), "nothing to type: the grid counts"


def test_the_check_endpoint_counts_a_grid_live(client, table):
    table = table()
    tie = ["SSSG", "SEGG", "EXXG"]
    fields = {**stand_fields(0, OLA, "3", "strawberries"), **grid_fields(1, tie)}
    manche = table.manches.get(number=1)
    response = client.post(f"/t/{table.token}/manches/1/check/", fields, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<div id="checks-1"') and "<select" not in html
    assert "Counted (largest group × groups): Strawberries 4×1, Grapes 4×1, 2 mice." in live(html, 1)
    assert '<span class="check pending">Choose the good you declare: Strawberries / Grapes</span>' in live(html, 1)
    assert "✗" not in html, "a choice still to make is no mistake"
    assert 'title="Player 00"><span class="progress-name">Player 00</span>' in html, (
        "the progress line names players in full"
    )
    assert re.search(r'href="#card-1-1" class="progress-partial"', html)
    assert manche.version == Manche.objects.get(pk=manche.pk).version


def test_a_forbidden_declaration_is_refused_at_its_select(client, table):
    table = table()
    response = post(client, table, ola_table(ola_declares="bananas"))
    assert response.status_code == 400
    cell = field_html(response.content.decode(), "stands[0].declared[0]")
    assert "Bananas (largest group 3) is not among this stand&#x27;s biggest groups" in cell


def test_two_players_declare_two_goods_each(client, table):
    table = table(players=2)
    fields = {
        **stand_fields(0, OLA, "3", "strawberries"),
        "stands[0].declared[1]": "grapes",
        **stand_fields(1, CHRISTINA, "", "bananas"),
        "stands[1].declared[1]": "carrots",
    }
    html = client.get(f"/t/{table.token}/").content.decode()
    assert 'name="stands[1].declared[1]"' in html and "Second declared good" in html
    assert post(client, table, fields).status_code == 302
    manche = Manche.objects.get(table=table, number=1)
    assert manche.document["stands"][0]["declared"] == ["strawberries", "grapes"]
    ola = 20 + 6 + 5 - 6
    assert manche.result["players"][0]["score"] == ola


def test_teams_show_their_totals(client, table):
    table = table(variant="teams")
    assert post(client, table, ola_table()).status_code == 302
    html = client.get(f"/t/{table.token}/").content.decode()
    assert "Team totals" in html
    assert re.search(r"<td>Player 00 \+ Player 02</td><td class=\"number\">31</td>", html)
    assert re.search(r"<td>Player 01 \+ Player 03</td><td class=\"number\">10</td>", html)


def test_normalise_drops_blanks_and_joins_grid_cells():
    part = {
        "stands": [
            {
                "mode": "tally",
                "declared": [None, "grapes"],
                "goods": {"grapes": {"largest": 2, "groups": 1}, "carrots": {"largest": None, "groups": 0}},
                "mice": None,
            },
            {"mode": "tally", "declared": [None], "goods": {"grapes": {"largest": None, "groups": None}}, "mice": None},
            {"mode": "grid", "declared": [None], "grid": [["S", None], [None, "X"]], "mice": 2},
        ]
    }
    assert normalise(part)["stands"] == [
        {"goods": {"grapes": {"largest": 2, "groups": 1}}, "mice": 0, "declared": ["grapes"]},
        {},
        {"grid": ["S ", " X"]},
    ]


def test_a_grid_in_pieces_is_refused_above_the_grid_and_keeps_its_cells(client, table):
    table = table()
    pieces = ["SSS  GGG", "SSS  GGG"]
    response = post(client, table, {**ola_table(), **grid_fields(3, pieces, "strawberries")}, htmx=True)
    assert response.status_code == 400
    html = response.content.decode()
    message = "The cards of a stand touch one another; this grid is in separate pieces."
    stand = html[html.index('id="stand-1-3"') :]
    assert message in stand and html.count(message) == 1
    assert selected(html, "stands[3].grid[1][7]") == "G"
    assert selected(html, "stands[3].grid[1][4]") == ""
