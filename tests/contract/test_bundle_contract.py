"""What every registered game gets from its bundle alone, the real ones and those of ``tests/games/``: a phone lists
the standings under the game's own ranking, and ``python -m scoring`` scores the game's sheets without Django's
settings, as the app does. Nothing here names a game."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.contract.test_every_game import KEYS, NAMES, seated_and_started, set_up
from tests.factories import enter
from tournaments import games
from tournaments.models import Standing
from tournaments.standings.figures import number_text
from tournaments.standings.metrics import shown_metrics
from tournaments.standings.refresh import rebuild_now
from tournaments.standings.tables import PHONE_LINE

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


HEAD = re.compile(r'<p class="standings-list-head".*?</p>', re.S)
HEADING = re.compile(r'<span class="figure">(.*?)</span>')
LINE = re.compile(r"<li data-player=.*?</li>", re.S)
NAME = re.compile(r'<span class="name">(.*?)</span>')
FIGURE = re.compile(r'<span class="figure"[^>]*><span class="visually-hidden">(.*?) </span>(.*?)</span>')


def phone_list(page: str) -> tuple[list[str], dict[str, list[tuple[str, str]]]]:
    """The phone's standings list of a page: its headings, and each player's line as (label, text) pairs."""
    listed = page.split('<div class="standings-list ', 1)[1]
    headings = [unescape(text) for text in HEADING.findall(HEAD.search(listed).group())]
    lines = {}
    for line in LINE.findall(listed):
        name = unescape(NAME.search(line).group(1))
        lines[name] = [(unescape(label), unescape(text)) for label, text in FIGURE.findall(line.split("</summary>")[0])]
    return headings, lines


@pytest.mark.parametrize("key", KEYS)
def test_a_phone_lists_the_standings_by_the_games_own_ranking(key, organiser_client):
    game = games.get_game(key)
    event = set_up(organiser_client, game)
    round_ = seated_and_started(organiser_client, event, 2 * event.table_size)
    rng = random.Random(key)
    for table in round_.tables.order_by("number"):
        names = [seat.player.name for seat in table.seats.select_related("player").order_by("position")]
        for manche in table.manches.order_by("number"):
            enter(table, game.demo_sheet(rng, names, event), manche.number)
    rebuild_now(event.pk)

    headings, lines = phone_list(Client().get(reverse("tournaments:standings", args=[event.slug])).content.decode())
    line = shown_metrics(game)[:PHONE_LINE]
    assert line and line[0].key == game.ranking[0]
    assert headings == [metric.short_label_for(game) for metric in line]
    stored = {row.player.name: row for row in Standing.objects.filter(event=event).select_related("player")}
    assert set(lines) == set(stored) == set(NAMES[: 2 * event.table_size])
    for name, figures in lines.items():
        expected = [
            (metric.heading_for(game), number_text(metric.shown_value(getattr(stored[name], metric.key), game)))
            for metric in line
        ]
        assert figures == expected, name


def scored_by_the_command(bundle_module: str, document: dict, tmp_path: Path) -> dict:
    """The result document ``python -m scoring --rules <bundle>`` prints for ``document``, Django's settings unset."""
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(document), encoding="utf-8")
    env = {name: value for name, value in os.environ.items() if name != "DJANGO_SETTINGS_MODULE"}
    command = [sys.executable, "-m", "scoring", "--rules", bundle_module, str(sheet)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("key", KEYS)
def test_the_scoring_command_scores_every_games_sheet_as_the_app_does(key, make_event, tmp_path):
    game = games.get_game(key)
    event = make_event(key, players=max(game.rules.table_sizes))
    names = list(event.players.order_by("pk").values_list("name", flat=True))
    rng = random.Random(key)
    for _sheet in range(2):
        document = {"game": key, "players": names, **game.demo_sheet(rng, names, event)}
        assert scored_by_the_command(type(game).__module__, document, tmp_path) == games.score(document)
