"""What a player's pages say: the player's own link speaks to them ("you"); the public page anyone opens from the
standings speaks of them by name; a dropped player and a finished event are told as such, not to wait for a round."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Player
from tournaments.models.event import EventStatus
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db

NEXT_ROUND = "as soon as the organiser publishes the next round"
YOU = re.compile(r"\b(you|your)\b", re.IGNORECASE)


@pytest.fixture
def event(make_event):
    return make_event("vegetables", players=8)


@pytest.fixture
def player(event) -> Player:
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.COMPLETE)
    return Player.objects.get(pk=ids[0])


def own_page(player) -> str:
    return Client().get(reverse("tournaments:player_link", args=[player.token])).content.decode()


def public_page(player) -> str:
    return Client().get(reverse("tournaments:player", args=[player.event.slug, player.pk])).content.decode()


def main(page: str) -> str:
    """The page's own content, without the site's header and footer."""
    return page[page.index("<main") : page.index("</main>")]


def test_between_rounds_the_own_link_says_you_and_the_public_page_names_the_player(player):
    own = own_page(player)
    assert "No table for you right now" in own and f"Your table shows here {NEXT_ROUND}." in own
    public = public_page(player)
    assert f"No table for {player.name} right now" in public
    assert f"{player.name}'s table shows here {NEXT_ROUND}." in public
    assert not YOU.findall(main(public))


def test_during_a_round_the_table_now_is_yours_or_the_players(event, player):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 2, [ids[::2], ids[1::2]], status=RoundStatus.IN_PLAY)
    assert "Your table now: 1, seat 1" in own_page(player)
    public = public_page(player)
    assert f"{player.name}'s table now: 1, seat 1" in public
    assert not YOU.findall(main(public))


def test_a_dropped_player_is_told_they_left_not_to_wait_for_the_next_round(player):
    Player.objects.filter(pk=player.pk).update(active=False)
    own = own_page(player)
    assert "You have left the tournament" in own and "Your results stay in the standings." in own
    public = public_page(player)
    assert f"{player.name} has left the tournament" in public
    assert f"{player.name}'s results stay in the standings." in public
    for page in (own, public):
        assert NEXT_ROUND not in page
    assert not YOU.findall(main(public))


@pytest.mark.parametrize("active", [True, False])
def test_after_the_event_every_player_page_says_it_is_over_and_links_the_final_standings(event, player, active):
    Player.objects.filter(pk=player.pk).update(active=active)
    event.status = EventStatus.FINISHED
    event.save(update_fields=["status"])
    standings = reverse("tournaments:standings", args=[event.slug])
    for page in (own_page(player), public_page(player)):
        assert "The tournament is over" in page
        assert f'Final standings: <a href="{standings}">{event.name}</a>' in page
        assert NEXT_ROUND not in page and "left the tournament" not in page


def test_after_a_private_event_the_pages_point_to_the_results_below(event, player):
    event.status = EventStatus.FINISHED
    event.public = False
    event.save(update_fields=["status", "public"])
    assert "The tournament is over" in own_page(player) and "Your results stay below." in own_page(player)


@pytest.mark.parametrize(("language", "word"), [("en", "score"), ("es", "puntuación"), ("it", "punteggio")])
def test_the_scores_beside_the_other_players_at_a_table_say_what_they_are(make_event, language, word):
    event = make_event("cheese-rescue", players=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY)
    (table,) = round_.tables.all()
    enter(table, cheese_tallies([9, 5, 3, 1]))
    type(round_).objects.filter(pk=round_.pk).update(status=RoundStatus.COMPLETE)
    player = Player.objects.get(pk=ids[0])
    mates = dict(table.seats.exclude(player=player).values_list("player__name", "score"))

    for address in (
        reverse("tournaments:player", args=[event.slug, player.pk]),
        reverse("tournaments:player_link", args=[player.token]),
    ):
        page = Client().get(address, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        line = re.search(r'<p class="mates">(.*?)</p>', page, re.DOTALL).group(1)
        for name, score in mates.items():
            assert re.search(rf"{re.escape(name)}(</a>)? <span class=\"muted\">\({word} {score}\)</span>", line)
