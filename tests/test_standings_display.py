"""What the standings pages say beside the numbers: which round they are after, who moved since the last complete
round, who dropped, the game's tiebreak as a count with its legend, and names in alphabetical order."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments import games
from tournaments.games import Game
from tournaments.models import Player, Standing
from tournaments.models.rounds import RoundStatus
from tournaments.standings.build import rebuild_standings
from tournaments.standings.metrics import SeatResult, rank_players
from tournaments.standings.rows import standings_rows
from tournaments.standings.stage import Stage, stage_of, standings_stage
from tournaments.views.public import standings_table

pytestmark = pytest.mark.django_db

COMPLETE, IN_PLAY, SEATED = RoundStatus.COMPLETE, RoundStatus.IN_PLAY, RoundStatus.SEATED


def moved(event) -> dict[int, int | None]:
    return {row.player_id: row.moved for row in standings_rows(event, standings_stage(event))}


@pytest.fixture
def cheese(make_event):
    event = make_event("cheese-rescue", players=8, table_size=4)
    event.ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return event


def play(event, number, tables, status, results):
    """Round ``number`` at ``tables`` (player ids), its tables' sheets ``results`` (cheese points, one list a table)."""
    round_ = seat_by_hand(event, number, tables, status)
    for table, points in zip(round_.tables.order_by("number"), results):
        enter(table, cheese_tallies(points))
    return round_


# The stage ---------------------------------------------------------------------------------------------------------


def test_the_latest_started_round_decides_what_the_standings_are_after():
    assert stage_of([]) == Stage()
    assert stage_of([(1, SEATED, True)]) == Stage()
    assert stage_of([(1, COMPLETE, True), (2, SEATED, True)]) == Stage(1, live=False)
    assert stage_of([(1, COMPLETE, True), (2, IN_PLAY, True)]) == Stage(2, live=True)
    assert stage_of([(1, COMPLETE, True), (2, COMPLETE, True)]) == Stage(2, live=False)
    assert Stage().title == "Standings"
    assert Stage(3, live=True).title == "Live standings, round 3"
    assert Stage(3).title == "Standings after round 3"
    assert (Stage(1).baseline, Stage(2, live=True).baseline, Stage().baseline) == (None, 1, None)


# Movement ----------------------------------------------------------------------------------------------------------


def test_no_arrow_while_the_first_round_is_played_or_once_it_is_complete(client, cheese):
    ids = cheese.ids
    first = play(cheese, 1, [ids[:4], ids[4:]], IN_PLAY, [[9, 6, 4, 1]])
    assert set(moved(cheese).values()) == {None}
    page = client.get(reverse("tournaments:standings", args=[cheese.slug])).content.decode()
    assert "Live standings, round 1" in page
    assert 'class="up"' not in page and 'class="down"' not in page
    enter(first.tables.get(number=2), cheese_tallies([1, 4, 6, 9]))
    first.status = COMPLETE
    first.save()
    assert set(moved(cheese).values()) == {None}


def test_mid_round_the_arrows_count_from_the_last_complete_round(client, cheese):
    ids = cheese.ids
    play(cheese, 1, [ids[:4], ids[4:]], COMPLETE, [[9, 6, 4, 1], [9, 6, 4, 1]])
    after_one = {s.player_id: s.rank for s in Standing.objects.filter(event=cheese)}
    second = seat_by_hand(cheese, 2, [ids[::2], ids[1::2]], IN_PLAY)
    # Started, nothing entered yet: the standings are still those after round 1, so nobody has moved.
    assert set(moved(cheese).values()) == {None}
    enter(second.tables.get(number=1), cheese_tallies([1, 4, 6, 9]))
    now = {s.player_id: s.rank for s in Standing.objects.filter(event=cheese)}
    assert moved(cheese) == {p: after_one[p] - now[p] for p in ids}
    assert any(moved(cheese).values())
    page = client.get(reverse("tournaments:projector", args=[cheese.slug])).content.decode()
    assert "Live standings, round 2" in page and ('class="up"' in page or 'class="down"' in page)


def test_a_late_arrival_has_no_arrow_until_a_round_of_theirs_is_complete(cheese):
    ids = cheese.ids
    late = ids[-1]
    play(cheese, 1, [ids[:4], ids[4:7]], COMPLETE, [[9, 6, 4, 1], [9, 6, 4]])
    play(cheese, 2, [ids[:4], ids[4:]], IN_PLAY, [[1, 4, 6, 9], [1, 4, 6, 9]])
    assert moved(cheese)[late] is None
    assert moved(cheese)[ids[0]] is not None


def test_the_rebuild_stores_the_rank_after_the_round_before_the_latest_with_results(cheese):
    ids = cheese.ids
    play(cheese, 1, [ids[:4], ids[4:]], COMPLETE, [[9, 6, 4, 1], [9, 6, 4, 1]])
    after_one = {s.player_id: s.rank for s in Standing.objects.filter(event=cheese)}
    play(cheese, 2, [ids[::2], ids[1::2]], COMPLETE, [[1, 4, 6, 9], [9, 6, 4, 1]])
    rebuild_standings(cheese)
    stored = Standing.objects.filter(event=cheese)
    assert {s.player_id: s.previous_rank for s in stored} == after_one
    assert {s.previous_round for s in stored} == {1}


# Who ranks where ---------------------------------------------------------------------------------------------------


def test_a_player_without_a_result_ranks_after_one_who_scored_below_zero():
    results = [SeatResult(1, 1, 10, Decimal(0), -6, -3), SeatResult(2, 1, 10, Decimal(0), -8, -4)]
    ranked = rank_players(results, [1, 2, 3], Game.ranking)
    assert [(r.player, r.rank) for r in ranked] == [(1, 1), (2, 2), (3, 3)]


def test_a_dropped_player_keeps_their_place_and_is_marked(client, cheese):
    ids = cheese.ids
    play(cheese, 1, [ids[:4], ids[4:]], COMPLETE, [[9, 6, 4, 1], [9, 6, 4, 1]])
    leader = Standing.objects.filter(event=cheese).order_by("rank").first()
    Player.objects.filter(pk=leader.player_id).update(active=False)
    rebuild_standings(cheese)
    assert Standing.objects.get(event=cheese, player_id=leader.player_id).rank == leader.rank
    page = client.get(reverse("tournaments:standings", args=[cheese.slug])).content.decode()
    name = leader.player.name
    assert re.search(rf'<li data-player="{leader.player_id}" class="dropped">', page)
    assert re.search(rf"{name}</a> <span class=\"tag\">dropped</span>", page)
    projector = client.get(reverse("tournaments:projector", args=[cheese.slug])).content.decode()
    assert re.search(rf'<tr class="dropped">\s*<td class="number">{leader.rank}</td>', projector)


def html_text(html: str) -> str:
    """Markup with its layout whitespace dropped, to compare two renderings of one table."""
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).replace(" >", ">").strip()


SORT_KEYS = {
    "rank": lambda row: row.rank,
    "player": lambda row: row.name_key,
    "club": lambda row: row.club_key,
    "points": lambda row: row.shown["points"],
    "score": lambda row: row.shown["score"],
    "tiebreak": lambda row: row.shown["tiebreak"],
    "rounds_played": lambda row: row.rounds_played,
}


@pytest.mark.parametrize("sort", ["", "-rank", "player", "-club", "points", "-score", "tiebreak", "-rounds_played"])
def test_the_standings_table_sorts_by_the_column_asked_and_escapes_what_it_draws(rf, cheese, sort):
    ids = cheese.ids
    play(cheese, 1, [ids[:4], ids[4:]], COMPLETE, [[9, 6, 4, 1], [9, 6, 4, 1]])
    play(cheese, 2, [ids[::2], ids[1::2]], IN_PLAY, [[1, 4, 6, 9]])
    Player.objects.filter(pk=ids[3]).update(active=False, club="")
    Player.objects.filter(pk=ids[5]).update(club="Club <b> & Co")
    rebuild_standings(cheese)
    request = rf.get("/", {"sort": sort} if sort else {})
    for language in ["en", "it"]:
        with translation.override(language):
            table = standings_table(request, cheese, standings_stage(cheese))
            drawn = table.as_html(request)
            assert drawn.count("<tr") == 8 + 1
    rows = [row.record for row in table.paginated_rows]
    column = sort.lstrip("-") or "rank"
    keys = [SORT_KEYS[column](row) for row in rows]
    assert keys == sorted(keys, reverse=sort.startswith("-"))
    if column == "rank":
        assert [(row.rank, row.name_key) for row in rows] == sorted(
            [(row.rank, row.name_key) for row in rows], reverse=sort.startswith("-")
        )
    assert "Club &lt;b&gt; &amp; Co" in drawn and 'class="dropped' in drawn and "▲" in drawn and "▼" in drawn


# The game's tiebreak -----------------------------------------------------------------------------------------------


@pytest.fixture
def veggies(make_event):
    """Two players of a game whose rules count the tiebreak as minus the mice: 3 mice and 1 mouse."""
    event = make_event("veggies", players=2, table_size=2)
    first, second = event.players.order_by("pk")
    Standing.objects.create(event=event, player=first, rank=1, points=4, score=20, tiebreak=-3, rounds_played=1)
    Standing.objects.create(event=event, player=second, rank=2, points=4, score=20, tiebreak=-1, rounds_played=1)
    return event


def test_the_tiebreak_column_counts_mice_under_the_game_s_heading_with_a_legend(client, veggies):
    page = client.get(reverse("tournaments:standings", args=[veggies.slug])).content.decode()
    assert "Ties broken by fewest mice" in page
    assert re.search(r"<th[^>]*>\s*(<a[^>]*>)?Mice", page)
    assert "<dt>Mice</dt><dd>3</dd>" in page
    assert "-3" not in page and "fewest mice</th>" not in page
    projector = client.get(reverse("tournaments:projector", args=[veggies.slug])).content.decode()
    assert "Ties broken by fewest mice" in projector and ">Mice</th>" in projector
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("tournaments:standings_csv", args=[veggies.slug])).content.decode("utf-8-sig")
            )
        )
    )
    assert rows[0][5] == "Mice" and [row[5] for row in rows[1:]] == ["3", "1"]


def test_sorting_by_the_tiebreak_sorts_the_counts_shown(client, veggies):
    url = reverse("tournaments:standings", args=[veggies.slug])
    first, second = veggies.players.order_by("pk")
    fewest = client.get(url, {"sort": "tiebreak"}).content.decode().split("<table")[1]
    assert fewest.index(second.name) < fewest.index(first.name)
    most = client.get(url, {"sort": "-tiebreak"}).content.decode().split("<table")[1]
    assert most.index(first.name) < most.index(second.name)


@pytest.mark.parametrize("game", [game.key for game in games.all_games()])
def test_every_game_heads_its_tiebreak_and_explains_it_or_shows_none(game):
    bundle = games.get_game(game)
    if bundle.tiebreak_name():
        assert bundle.tiebreak_column() and bundle.tiebreak_explained().startswith("Ties broken by")
        # Marked for translation: the words follow the reader's language.
        assert all(isinstance(label, Promise) for label in (bundle.tiebreak_label, bundle.tiebreak_legend))
    else:
        assert bundle.tiebreak_explained() == "" and bundle.tiebreak_column() == ""


# Alphabetical order ------------------------------------------------------------------------------------------------

NAMES = [
    "Zoë Kovač",
    "Íñigo Peña",
    "Ólafur Sigurðsson",
    "Łukasz Wiśniewski",
    "Núria Sánchez-Vicario",
    "Núria de la Fuente",
]
IN_ORDER = [
    "Íñigo Peña",
    "Łukasz Wiśniewski",
    "Núria de la Fuente",
    "Núria Sánchez-Vicario",
    "Ólafur Sigurðsson",
    "Zoë Kovač",
]


@pytest.fixture
def accented(make_event):
    event = make_event("cheese-rescue", players=0, table_size=3)
    Player.objects.bulk_create(Player(event=event, name=name, club=name.split()[-1]) for name in NAMES)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    for table in seat_by_hand(event, 1, [ids[:3], ids[3:]], status=RoundStatus.IN_PLAY).tables.all():
        enter(table, cheese_tallies([4, 4, 4]))
    rebuild_standings(event)
    return event


def order_in(page: str) -> list[str]:
    return sorted(NAMES, key=page.index)


def test_tied_players_are_listed_alphabetically_on_every_page(client, accented):
    slug = accented.slug
    standings = client.get(reverse("tournaments:standings", args=[slug])).content.decode()
    assert order_in(standings.split('class="standings-list ')[1]) == IN_ORDER
    assert order_in(standings.split("<table")[1]) == IN_ORDER
    assert order_in(client.get(reverse("tournaments:projector", args=[slug])).content.decode()) == IN_ORDER
    event_page = client.get(reverse("tournaments:event", args=[slug])).content.decode()
    assert order_in(event_page.split('class="columns player-names"')[1]) == IN_ORDER


@pytest.mark.parametrize(("sort", "expected"), [("player", IN_ORDER), ("-player", IN_ORDER[::-1])])
def test_sorting_by_name_follows_the_alphabet_not_the_database(client, accented, sort, expected):
    page = client.get(reverse("tournaments:standings", args=[accented.slug]), {"sort": sort}).content.decode()
    assert order_in(page.split("<table")[1]) == expected
