"""Snack Match at the table: group sizes or 4 x 4 zones typed on a phone (switched at once on a player's card), the
special diet, live checks."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.factories import seat_by_hand
from tournaments.games.snack_match.entry import normalise
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db

DIET = [
    {"kind": "snack", "component": "donut", "modifier": "corners"},
    {"kind": "cloth", "component": "green", "modifier": "most"},
]

# The rulebook's final scoring example, as the players would type it (groups of 1 and 2 may be left out;
# our edition's tablecloths are orange and green only, so Benjamín's and Sofía's other cloths score nothing).
BENJAMIN = {
    "snacks.soda": "4, 1",
    "snacks.donut": "4 1",
    "snacks.sandwich": "3",
    "snacks.sausage": "2, 1",
    "cloths.orange": "5",
    "cloths.green": "5",
}
SOFIA = {
    "snacks.sandwich": "4, 1",
    "snacks.sausage": "4, 1",
    "snacks.soda": "3",
    "snacks.donut": "1, 1, 1",
    "cloths.green": "9",
    "cloths.orange": "3",
}
# Zones with our two tablecloths. Groups: donuts 4, sodas 4, green 5, orange 4 = 9 (+1 donut in a corner);
# sandwiches 4, sausages 4, sodas 3, green 9, orange 6 = 16 (-3 for the most green).
BENJAMIN_GRID = [
    ["donut/orange", "donut/orange", "donut/orange", None],
    ["soda/orange", "soda/green", "donut/green", None],
    ["soda/green", "soda/green", "sandwich/green", None],
    [None, None, None, None],
]
SOFIA_GRID = [
    ["sandwich/green", "sandwich/green", "sausage/green", "sausage/green"],
    ["sandwich/green", "sandwich/green", "sausage/green", "sausage/green"],
    ["soda/green", "soda/orange", "soda/orange", "donut/orange"],
    [None, "sausage/orange", "donut/orange", "sandwich/orange"],
]


class SheetFields(HTMLParser):
    """What a browser posts from the sheet form: every input's value and every select's chosen option."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.in_sheet = False
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attrs = dict(attrs)
        if tag == "form":
            self.in_sheet = "sheet" in (attrs.get("class") or "").split()
        elif self.in_sheet and tag == "input" and attrs.get("name") not in (None, "csrfmiddlewaretoken"):
            if attrs.get("type") != "radio" or "checked" in attrs:
                self.fields[attrs["name"]] = attrs.get("value") or ""
        elif self.in_sheet and tag == "select":
            self.select = attrs["name"]
        elif self.select and tag == "option" and (self.select not in self.fields or "selected" in attrs):
            self.fields[self.select] = attrs.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.in_sheet = False


def form_fields(html: str) -> dict[str, str]:
    parser = SheetFields()
    parser.feed(html)
    return parser.fields


@pytest.fixture
def make_table(make_event):
    def make(**fields):
        event = make_event("snack-match", players=2, table_size=2, **fields)
        players = list(event.players.order_by("name"))
        for player, name in zip(players, ["Benjamín", "Sofía"], strict=True):
            player.name = name
            player.save()
        round_ = seat_by_hand(event, 1, [[p.pk for p in players]], status=RoundStatus.IN_PLAY)
        return round_.tables.get()

    return make


@pytest.fixture
def table(make_table):
    return make_table()


def page(client, table) -> str:
    response = client.get(f"/t/{table.token}/")
    assert response.status_code == 200
    return response.content.decode()


def sizes(player: int, typed: dict[str, str]) -> dict[str, str]:
    return {f"zones[{player}].groups.{key}": text for key, text in typed.items()}


def squares(player: int, rows: list) -> dict[str, str]:
    return {
        f"zones[{player}].grid[{r}][{c}]": square or "" for r, row in enumerate(rows) for c, square in enumerate(row)
    }


def with_grids(client, table, players, typed: dict[str, str] | None = None) -> str:
    """The form once ``players`` chose the grid (after typing ``typed``), as the switch draws it again."""
    fields = {**form_fields(page(client, table)), **(typed or {})}
    fields |= {f"zones[{i}].mode": "grid" for i in players}
    manche = table.manches.get(number=1)
    data = {**fields, "seat": "1", "version": str(manche.version), "redraw": "1"}
    response = client.post(f"/t/{table.token}/manches/1/", data)
    assert response.status_code == 200
    return response.content.decode()


def post(client, table, typed: dict[str, str], *, check: bool = False, grids=(), **headers):
    """Post the form as the phone shows it (with the grid of ``grids``' players drawn), with ``typed`` filled in."""
    fields = form_fields(with_grids(client, table, grids) if grids else page(client, table))
    assert set(typed) <= set(fields), set(typed) - set(fields)
    manche = table.manches.get(number=1)
    data = {**fields, **typed, "seat": "1", "version": str(manche.version)}
    url = f"/t/{table.token}/manches/1/" + ("check/" if check else "")
    return client.post(url, data, **headers)


def field_cell(html: str, name: str) -> str:
    """The line of a card (or the zone square) holding the field ``name``, with its error."""
    start = html.index(f'name="{name}"')
    opening = max(html.rfind(tag, 0, start) for tag in ("<td>", '<div class="line', '<fieldset class="switch'))
    return html[opening : min(i for tag in ("</td>", "</div>", "</fieldset>") if (i := html.find(tag, start)) > 0)]


def live(html: str, seat: int) -> str:
    """What a player's card adds up to, as the page or the live check draws it."""
    start = html.index(f'<div id="live-1-{seat}"')
    return html[start : html.index("</div>", start)]


def chosen(html: str, name: str) -> str:
    match = re.search(rf'name="{re.escape(name)}" value="([^"]*)" checked', html)
    return match.group(1) if match else ""


# The standard form ----------------------------------------------------------------------------


def test_the_form_has_a_sizes_row_per_component_and_a_grid_per_player(client, table) -> None:
    html = page(client, table)
    for kind, key, label in [
        ("snacks", "sandwich", "Snack: sandwich"),
        ("snacks", "soda", "Snack: soda"),
        ("cloths", "orange", "Tablecloth: orange"),
        ("cloths", "green", "Tablecloth: green"),
    ]:
        assert f'name="zones[1].groups.{kind}.{key}"' in html
        assert f">{label}</label>" in html and f'aria-label="{label}: Sofía"' in html
    assert chosen(html, "zones[0].mode") == "groups" and 'value="grid"><span>Grid</span>' in html
    assert "Entered as" in html and 'name="zones[1].grid[' not in html
    html = with_grids(client, table, [1])
    assert html.count('name="zones[1].grid[') == 16 and 'name="zones[0].grid[' not in html
    assert ">Sofía: row 4, column 4</label>" in html
    square = field_cell(html, "zones[1].grid[0][0]")
    options = re.findall(r'<option value="([^"]*)"(?: selected)?>([^<]*)</option>', square)
    assert options[0] == ("", "–") and len(options) == 9
    assert ("sandwich/orange", "🥪🟧") in options and ("soda/green", "🥤🟩") in options
    assert '<optgroup label="🥪 sandwich">' in square, "the short marks are named in full above them"
    assert "🥪 sandwich · 🍩 donut · 🌭 sausage · 🥤 soda · 🟧 orange · 🟩 green" in html
    assert "Special diet cards" not in html
    assert "<script>" not in html and " onclick" not in html


def test_the_rulebook_example_typed_as_group_sizes(client, table) -> None:
    response = post(client, table, {**sizes(0, BENJAMIN), **sizes(1, SOFIA)})
    assert response.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.document["zones"] == [
        {
            "groups": {
                "snacks": {"sandwich": [3], "donut": [4, 1], "sausage": [2, 1], "soda": [4, 1]},
                "cloths": {"orange": [5], "green": [5]},
            }
        },
        {
            "groups": {
                "snacks": {"sandwich": [4, 1], "donut": [1, 1, 1], "sausage": [4, 1], "soda": [3]},
                "cloths": {"orange": [3], "green": [9]},
            }
        },
    ]
    assert [(p["name"], p["score"], p["rank"]) for p in manche.result["players"]] == [
        ("Benjamín", 11, 2),
        ("Sofía", 13, 1),
    ]
    html = page(client, table)
    assert re.search(r"<td class=\"number\">1</td><td>Sofía</td><td class=\"number\">13</td>", html)
    assert re.search(r"<td class=\"number\">2</td><td>Benjamín</td><td class=\"number\">11</td>", html)
    assert 'name="zones[0].groups.snacks.donut" value="4, 1"' in html
    assert 'name="zones[1].groups.snacks.donut" value="1, 1, 1"' in html


def test_a_size_that_is_no_number_is_refused_at_its_field_with_everything_kept(client, table) -> None:
    typed = {**sizes(0, {**BENJAMIN, "snacks.sandwich": "3, x"}), **sizes(1, {**SOFIA, "cloths.green": "0"})}
    response = post(client, table, typed)
    assert response.status_code == 400
    html = response.content.decode()
    sandwich = field_cell(html, "zones[0].groups.snacks.sandwich")
    assert 'value="3, x"' in sandwich and 'aria-invalid="true"' in sandwich
    assert "Snack: sandwich: size 2 of the list, “x”, is not a whole number; write each group&#x27;s size" in sandwich
    assert "This must be at least 1; it is 0." in field_cell(html, "zones[1].groups.cloths.green")
    for player, typed_sizes in ((0, BENJAMIN), (1, SOFIA)):
        for key, text in typed_sizes.items():
            if (player, key) not in ((0, "snacks.sandwich"), (1, "cloths.green")):
                assert f'name="zones[{player}].groups.{key}" value="{text}"' in html
    assert 'class="errorlist"' not in html
    assert table.manches.get(number=1).document is None


def test_a_player_with_nothing_typed_is_told_at_their_column(client, table) -> None:
    response = post(client, table, sizes(0, BENJAMIN))
    assert response.status_code == 400
    cell = field_cell(response.content.decode(), "zones[1].mode")
    assert "Give this picnic zone as its groups or as its grid." in cell


def test_one_player_taps_in_the_grid_while_the_other_types_sizes(client, table) -> None:
    drawn = with_grids(client, table, [1], sizes(1, {"cloths.green": "12"}))
    assert '<input type="hidden" name="zones[1].groups.cloths.green" value="12">' in drawn, "kept, unseen"
    fields = {**form_fields(drawn), **sizes(0, BENJAMIN), **squares(1, SOFIA_GRID), "seat": "1", "version": "0"}
    response = client.post(f"/t/{table.token}/manches/1/", fields)
    assert response.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.document["zones"][1] == {"grid": SOFIA_GRID}
    assert [p["score"] for p in manche.result["players"]] == [11, 16]
    html = page(client, table)
    assert '<option value="sausage/orange" selected>' in field_cell(html, "zones[1].grid[3][1]")
    assert chosen(html, "zones[1].mode") == "grid" and chosen(html, "zones[0].mode") == "groups"


def test_switching_back_to_sizes_reads_them_off_the_grid(client, table) -> None:
    drawn = with_grids(client, table, [0])
    fields = {**form_fields(drawn), **squares(0, BENJAMIN_GRID), "zones[0].mode": "groups", "redraw": "1"}
    html = client.post(f"/t/{table.token}/manches/1/", {**fields, "seat": "1", "version": "0"}).content.decode()
    assert 'name="zones[0].grid[' not in html and chosen(html, "zones[0].mode") == "groups"
    assert 'name="zones[0].groups.snacks.donut" value="4"' in html
    assert 'name="zones[0].groups.snacks.soda" value="4"' in html
    assert 'name="zones[0].groups.cloths.orange" value="4"' in html
    assert 'name="zones[0].groups.cloths.green" value="5"' in html
    assert table.manches.get(number=1).version == 0


def test_a_grid_posted_with_sizes_chosen_is_read_as_the_grid(client, table) -> None:
    """Without the grid drawn (a form posted by hand): the part filled in is the one read."""
    data = {**sizes(0, BENJAMIN), **squares(1, SOFIA_GRID), "zones[1].mode": "groups", "seat": "1", "version": "0"}
    response = client.post(f"/t/{table.token}/manches/1/", data)
    assert response.status_code == 302
    assert table.manches.get(number=1).document["zones"][1] == {"grid": SOFIA_GRID}


def test_a_grid_with_too_few_squares_is_refused_with_the_squares_kept(client, table) -> None:
    grid = [["soda/green", "donut/orange", None, None]] + [[None] * 4] * 3
    typed = {**sizes(0, BENJAMIN), **squares(1, grid)}
    response = post(client, table, typed, grids=[1])
    assert response.status_code == 400
    html = response.content.decode()
    zone = html[html.index('id="zone-1-1"') :]
    assert "A picnic zone shows at least the 3 squares of the card on top; this grid shows 2." in zone
    assert '<option value="donut/orange" selected>' in field_cell(html, "zones[1].grid[0][1]")
    assert 'class="errorlist"' not in html


def test_the_check_cells_add_up_the_groups_as_typed(client, table) -> None:
    typed = {**sizes(0, BENJAMIN), **sizes(1, {"snacks.soda": "3, 2", "cloths.green": "9, x"})}
    response = post(client, table, typed, check=True, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<div id="checks-1"')
    assert "Points from groups: <strong>11</strong>" in live(html, 0) and "<strong>8</strong>" in live(html, 1)
    grid = post(client, table, squares(0, BENJAMIN_GRID), check=True, grids=[0]).content.decode()
    assert "Points from groups: <strong>9</strong>" in live(grid, 0) and "<strong>–</strong>" in live(grid, 1)


def test_saving_with_htmx_returns_the_manche_with_its_ranking(client, table) -> None:
    response = post(client, table, {**sizes(0, BENJAMIN), **sizes(1, SOFIA)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<section id="manche-1"') and "Result at the table" in html


# Component names --------------------------------------------------------------------------------


def test_the_event_s_names_for_the_rulebook_components(client, make_table) -> None:
    table = make_table(options={"names": {"snacks": {"sandwich": "Bocadillo"}, "cloths": {"orange": "Naranja"}}})
    html = page(client, table)
    assert 'aria-label="Snack: Bocadillo: Benjamín"' in html and 'aria-label="Tablecloth: Naranja: Sofía"' in html
    html = with_grids(client, table, [0])
    assert '<optgroup label="🥪 Bocadillo"><option value="sandwich/orange">🥪🟧</option>' in html
    assert '<option value="donut/green">🍩🟩</option>' in html and "🟧 Naranja" in html


def test_an_edition_with_its_own_components(client, make_table) -> None:
    names = {"snacks": {"pizza": "Pizza", "taco": "Taco"}, "cloths": {"red": "Rojo", "blue": "Azul", "white": "Blanco"}}
    table = make_table(options={"names": names})
    html = page(client, table)
    assert 'name="zones[0].groups.snacks.pizza"' in html and "sandwich" not in html
    html = with_grids(client, table, [0])
    assert len(re.findall(r'<option value="[^"]+">', field_cell(html, "zones[0].grid[0][0]"))) == 6
    assert '<optgroup label="P Pizza">' in html and '<option value="pizza/blue">P·A</option>' in html
    assert "P Pizza · T Taco · A Azul · B Blanco · R Rojo" in html, "each kind's own names in alphabetical order"
    response = post(
        client, table, {**sizes(0, {"snacks.pizza": "5", "cloths.red": "4"}), **sizes(1, {"snacks.taco": "3"})}
    )
    assert response.status_code == 302
    assert [p["score"] for p in table.manches.get(number=1).result["players"]] == [5, 1]


# The special diet -------------------------------------------------------------------------------


def test_the_special_diet_shows_its_cards_and_only_grids(client, make_table) -> None:
    html = page(client, make_table(variant="special-diet", options={"diet": DIET}))
    diet = html[html.index("Special diet cards") : html.index("Picnic zone of")]
    assert "Snack: donut" in diet and "corners: +1 per corner square" in diet
    assert "Tablecloth: green" in diet and "most: -3 to whoever has the most" in diet
    assert 'name="zones[0].groups.' not in html and 'name="zones[0].mode"' not in html
    assert html.count('name="zones[1].grid[') == 16 and "<details" not in html


def test_a_special_diet_sheet_entered_as_grids(client, make_table) -> None:
    table = make_table(variant="special-diet", options={"diet": DIET})
    response = post(client, table, {**squares(0, BENJAMIN_GRID), **squares(1, SOFIA_GRID)})
    assert response.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.document["variant"] == "special-diet"
    assert manche.document["diet"] == DIET
    assert manche.document["zones"] == [{"grid": BENJAMIN_GRID}, {"grid": SOFIA_GRID}]
    players = manche.result["players"]
    assert [(p["score"], p["rank"]) for p in players] == [(10, 2), (13, 1)]
    assert [m["points"] for m in players[0]["breakdown"]["modifiers"]] == [1, 0]
    assert [m["points"] for m in players[1]["breakdown"]["modifiers"]] == [0, -3]
    html = page(client, table)
    assert '<option value="sandwich/orange" selected>' in field_cell(html, "zones[1].grid[3][3]")


def test_the_special_diet_checks_show_the_scores_once_every_zone_is_in(client, make_table) -> None:
    table = make_table(variant="special-diet", options={"diet": DIET})
    half = post(client, table, squares(0, BENJAMIN_GRID), check=True).content.decode()
    assert "Points from groups: <strong>9</strong>" in live(half, 0) and "<strong>–</strong>" in live(half, 1)
    full = post(client, table, {**squares(0, BENJAMIN_GRID), **squares(1, SOFIA_GRID)}, check=True).content.decode()
    assert "Score with the diet: <strong>10</strong>" in live(full, 0)
    assert "Score with the diet: <strong>13</strong>" in live(full, 1)


def test_a_special_diet_without_its_cards_says_so_above_the_zones(client, make_table) -> None:
    table = make_table(variant="special-diet")
    response = post(client, table, {**squares(0, BENJAMIN_GRID), **squares(1, SOFIA_GRID)})
    assert response.status_code == 400
    html = response.content.decode()
    diet = html[html.index("Special diet cards") : html.index("Picnic zone of")]
    assert "The organiser has not chosen the diet cards yet" in diet
    assert "The special diet needs its two extra cards, each a component and a modifier." in diet
    assert '<option value="soda/green" selected>' in field_cell(html, "zones[0].grid[2][0]")


# normalise() ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "read"),
    [("5, 2", [5, 2]), ("5 2", [5, 2]), (" 5;2 ", [5, 2]), (5, [5]), ("5, x", [5, "x"]), ("2.5", ["2.5"])],
)
def test_normalise_reads_sizes_as_lists(typed: object, read: list) -> None:
    part = {"zones": [{"mode": "groups", "groups": {"snacks": {"soda": typed, "donut": None}}, "grid": [[None]]}]}
    assert normalise(part) == {"zones": [{"groups": {"snacks": {"soda": read}}}]}


@pytest.mark.parametrize(
    ("mode", "groups", "grid", "read"),
    [
        ("grid", {"snacks": {"soda": "3"}}, [["soda/green", None]], {"grid": [["soda/green", None]]}),
        ("groups", {"snacks": {"soda": "3"}}, [["soda/green", None]], {"groups": {"snacks": {"soda": [3]}}}),
        ("groups", {"snacks": {"soda": None}}, [["soda/green", None]], {"grid": [["soda/green", None]]}),
        ("grid", {"snacks": {"soda": "3"}}, [[None, None]], {"groups": {"snacks": {"soda": [3]}}}),
        ("grid", {"snacks": {"soda": None}}, [[None, None]], {"grid": [[None, None]]}),
        ("groups", {"snacks": {"soda": None}}, [[None, None]], {}),
    ],
)
def test_normalise_keeps_the_part_filled_in_or_the_one_the_mode_chooses(mode, groups, grid, read) -> None:
    assert normalise({"zones": [{"mode": mode, "groups": groups, "grid": grid}]}) == {"zones": [read]}


def test_normalise_without_a_mode_keeps_what_is_given() -> None:
    grid = [["soda/green", None]]
    assert normalise({"zones": [{"grid": grid}]}) == {"zones": [{"grid": grid}]}
    both = {"groups": {"snacks": {"soda": [3]}}, "grid": grid}
    assert normalise({"zones": [dict(both)]}) == {"zones": [both]}


def test_the_live_check_says_which_size_of_a_list_is_no_whole_number(client, table) -> None:
    typed = {**sizes(0, BENJAMIN), **sizes(1, {"snacks.soda": "3, 2", "cloths.green": "9, x"})}
    response = post(client, table, typed, check=True, HTTP_HX_REQUEST="true")
    second = live(response.content.decode(), 1)
    assert "Tablecloth: green: size 2 of the list, “x”, is not a whole number" in second
    assert "separated by commas" in second and "Write a whole number here." not in second
