"""Plots: valid SVG with a text alternative whose numbers are the data's; each game's story from stored sheets;
the statistics, player and person pages."""

from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET

from django.urls import reverse
from pypdf import PdfReader

from tests.factories import enter, seat_by_hand
from tests.test_entry_cheese_rescue import BOARD
from tests.test_entry_snack_match import BENJAMIN_GRID, DIET, SOFIA_GRID
from tournaments.demo import enter_some_sheets
from tournaments.models import Club, Event
from tournaments.models.rounds import RoundStatus
from tournaments.plots import Bar, Group, Series, bars, lines, strips
from tournaments.services import people
from tournaments.services.audit import Author
from tournaments.services.round_end import complete_round
from tournaments.services.seating import seat_next_round
from tournaments.services.statistics import event_plots, event_sheets

SVG = "{http://www.w3.org/2000/svg}"


def parsed(plot):
    root = ET.fromstring(plot.svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("aria-labelledby") == f"{plot.ident}-title {plot.ident}-desc"
    assert root.find(f"{SVG}title").text == plot.title and root.find(f"{SVG}desc").text == plot.description
    assert "style" not in plot.svg
    return root


def test_lines_draw_each_series_and_list_its_values():
    plot = lines(
        "moves",
        "Movement <&>",
        "Ranks",
        ["R1", "R2", "R3"],
        [Series("Ada", [3, 1, 1]), Series("Bea & Co", [1, None, 2], highlight=True)],
        "Player",
        inverted=True,
    )
    root = parsed(plot)
    assert plot.columns == ["Player", "R1", "R2", "R3"]
    assert plot.rows == [["Ada", "3", "1", "1"], ["Bea & Co", "1", "–", "2"]]
    assert len(root.findall(f"{SVG}polyline")) == 1  # Bea's line is broken by her missing round
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "1 Ada" in labels and "2 Bea & Co" in labels
    ada = [c for c in root.iter(f"{SVG}circle") if "series-0" in c.get("class")]
    assert float(ada[0].get("cy")) > float(ada[1].get("cy")) == float(ada[2].get("cy"))  # rank 1 on top


def test_a_long_history_keeps_a_few_dates_under_its_line_and_no_dots():
    labels = ["" if i % 4 else f"{i // 4 + 1:02d}/01" for i in range(400)]
    root = parsed(lines("rating", "Rating", "A long history", labels, [Series("Rating", list(range(400)))], "Rating"))
    dates = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "axis" and "/" in t.text]
    assert 5 <= len(dates) <= 10 and dates[0] == "01/01"
    assert not root.findall(f"{SVG}circle") and len(root.findall(f"{SVG}polyline")) == 1


def test_strips_give_each_groups_range_and_median_and_mark_the_players_value():
    plot = strips(
        "scores",
        "Scores",
        "Per round",
        [Group("R1", [10, 30, 20], marked=[30]), Group("R2", [5, 7])],
        ["Round", "Players", "Lowest", "Median", "Highest", "Yours"],
    )
    root = parsed(plot)
    assert plot.rows == [["R1", "3", "10", "20", "30", "30"], ["R2", "2", "5", "6", "7", "–"]]
    assert len([c for c in root.iter(f"{SVG}circle") if "highlight" in c.get("class")]) == 1
    assert len([c for c in root.iter(f"{SVG}circle") if "spread" in c.get("class")]) == 5


def test_bars_run_from_zero_both_ways():
    plot = bars("mods", "Modifiers", "Points", [Bar("corners", 4), Bar("most", -3)], ["Modifier", "Points"])
    root = parsed(plot)
    rects = root.findall(f"{SVG}rect")
    zero = float(root.find(f"{SVG}line").get("x1"))
    assert float(rects[0].get("x")) == zero and float(rects[1].get("x")) + float(rects[1].get("width")) == zero
    assert plot.rows == [["corners", "4"], ["most", "-3"]]


def played_event(make_event, game: str, rounds: int = 2, **fields) -> Event:
    """An event of ``game`` whose rounds are all entered with the game's demo sheets and completed."""
    event = make_event(game, players=8, rounds_planned=rounds, **fields)
    rng = random.Random(5)
    for _ in range(rounds):
        round_ = seat_next_round(event)
        round_.published, round_.status = True, RoundStatus.IN_PLAY
        round_.save(update_fields=["published", "status"])
        enter_some_sheets(round_, rng, every_table=True)
        complete_round(round_)
    return event


def by_ident(plots):
    return {plot.ident: plot for plot in plots}


def test_every_event_has_its_movement_and_scores(make_event):
    event = played_event(make_event, "veggies")
    plots = by_ident(event_plots(event))
    movement, scores = plots["movement"], plots["scores"]
    parsed(movement)
    assert movement.columns[1:] == ["R1", "R2"] and len(movement.rows) == 8
    standings = {s.player.name: s.rank for s in event.standings.select_related("player")}
    assert {row[0]: int(row[-1]) for row in movement.rows} == standings
    seats = event.rounds.get(number=1).seats.values_list("score", flat=True)
    assert scores.rows[0][:2] == ["R1", "8"] and scores.rows[0][2] == str(min(seats))


def test_vegetables_tells_the_pozzo_order_and_the_crosses(make_event):
    event = played_event(make_event, "vegetables", manches_per_round=2)
    plots = by_ident(event_plots(event))
    pozzo = plots["vegetables-pozzo"]
    assert [row[0] for row in pozzo.rows] == ["Pozzo 30", "Pozzo 20", "Pozzo 10", "Pozzo 0"]
    crosses = plots["vegetables-crosses"]
    assert [row[:2] for row in crosses.rows] == [["R1", "16"], ["R2", "16"]]  # 8 players x 2 manches a round
    all_crosses = [
        m["sequences"] for s in event_sheets(event) for b in s.breakdowns() for m in b["manches"] if s.round == 1
    ]
    assert crosses.rows[0][4] == str(max(all_crosses))


def test_veggies_tells_the_declared_goods_and_the_mice(make_event):
    event = played_event(make_event, "veggies")
    plots = by_ident(event_plots(event))
    declared = plots["veggies-declared"]
    assert sum(int(row[1]) for row in declared.rows) == 16  # one declaration per stand, 8 stands a round
    mice = plots["veggies-mice"]
    stands = [b["mice"] for s in event_sheets(event) for b in s.breakdowns()]
    assert {row[0]: int(row[1]) for row in mice.rows} == {
        (f"{n} mouse" if n == 1 else f"{n} mice"): stands.count(n) for n in set(stands)
    }


def test_snack_match_tells_the_group_sizes_and_the_diet(make_event):
    event = played_event(make_event, "snack-match")
    plots = by_ident(event_plots(event))
    sizes = [g["size"] for s in event_sheets(event) for b in s.breakdowns() for g in b["groups"]]
    assert sum(int(row[1]) for row in plots["snack-groups"].rows) == len(sizes)
    assert "snack-diet" not in plots  # the standard game has no diet

    diet = make_event("snack-match", players=2, table_size=2, variant="special-diet", options={"diet": DIET})
    round_ = seat_by_hand(diet, 1, [list(diet.players.values_list("pk", flat=True))])
    enter(
        round_.tables.get(),
        {"variant": "special-diet", "diet": DIET, "zones": [{"grid": BENJAMIN_GRID}, {"grid": SOFIA_GRID}]},
    )
    modifiers = by_ident(event_plots(diet))["snack-diet"]
    assert modifiers.rows == [["corners: +1 per corner square", "1"], ["most: -3 to whoever has the most", "-3"]]


def test_cheese_rescue_tells_the_cheese_saved_and_the_removals(make_event):
    event = played_event(make_event, "cheese-rescue")
    plots = by_ident(event_plots(event))
    saved = plots["cheese-saved"]
    kept = [b["cheese_cards"] for s in event_sheets(event) for b in s.breakdowns() if s.round == 2]
    assert saved.rows[1] == ["R2", "8", str(min(kept)), saved.rows[1][3], str(max(kept))]
    assert "cheese-removals" not in plots  # tallies only: no board, no removals

    board = make_event("cheese-rescue", players=2, table_size=2)
    round_ = seat_by_hand(board, 1, [list(board.players.values_list("pk", flat=True))])
    enter(round_.tables.get(), {"board": BOARD})
    removals = by_ident(event_plots(board))["cheese-removals"]
    # The board's removals: three cats next to a dog, two mice next to a cat, five cheeses next to a mouse.
    assert [int(row[1]) for row in removals.rows] == [3, 2, 5]
    assert removals.description.startswith("Cards taken off the 1 board entered")


def test_the_statistics_page_shows_every_plot_with_its_text_alternative(
    client, make_event, django_assert_max_num_queries
):
    event = played_event(make_event, "vegetables", rounds=3)
    with django_assert_max_num_queries(8):
        response = client.get(reverse("tournaments:statistics", args=[event.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == 4
    assert html.count('<div class="visually-hidden"><table>') == 4
    assert "Crosses by pozzo order" in html and "Standings movement by round" in html
    event_page = client.get(reverse("tournaments:event", args=[event.slug])).content.decode()
    assert reverse("tournaments:statistics", args=[event.slug]) in event_page


def test_the_player_page_highlights_the_players_line_in_a_few_queries(
    client, make_event, django_assert_max_num_queries
):
    event = played_event(make_event, "veggies", rounds=3)
    player = (
        event.standings.get(rank=1).player if event.standings.filter(rank=1).count() == 1 else event.players.first()
    )
    url = reverse("tournaments:player", args=[event.slug, player.pk])
    with django_assert_max_num_queries(20):
        html = client.get(url).content.decode()
    assert html.count('class="line highlight"') == 1 and "Score distribution per round" in html
    assert f"{player.name}</th>" in html


def test_the_person_page_plots_the_rating_above_the_history(organiser_client, organiser, make_event):
    club = Club.objects.create(name="Circolo")
    club.organisers.add(organiser)
    event = make_event("veggies", players=8, rounds_planned=2)
    event.club = club
    event.save(update_fields=["club"])
    people.link_players(event, {p.pk: people.NEW_PERSON for p in event.players.all()}, Author(via="organiser"))
    rng = random.Random(2)
    for _ in range(2):
        round_ = seat_next_round(event)
        round_.published, round_.status = True, RoundStatus.IN_PLAY
        round_.save(update_fields=["published", "status"])
        enter_some_sheets(round_, rng, every_table=True)
        complete_round(round_)
    person = club.people.first()
    html = organiser_client.get(person.get_absolute_url()).content.decode()
    assert "Rating at Veggies" in html and html.index("Rating at Veggies") < html.index(
        '<table class="grid stack history">'
    )
    assert "over 2 rounds" in html


def test_the_printed_standings_draw_the_movement_and_the_scores(organiser_client, make_event):
    event = played_event(make_event, "cheese-rescue", rounds=3)
    url = reverse("tournaments:print_standings", args=[event.slug])
    reader = PdfReader(io.BytesIO(organiser_client.get(url).content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    leader = event.standings.order_by("rank", "player__name").first().player.name
    assert len(reader.pages) == 1
    assert "Standings movement by round" in text and "Score distribution per round" in text
    assert f"1 {leader}" in text and "R3" in text
    earlier = PdfReader(io.BytesIO(organiser_client.get(url, {"round": 1}).content)).pages[0].extract_text()
    assert "R1" in earlier and "R2" not in earlier
