"""Ratings from the placements of completed rounds: the arithmetic, rebuilding, bringing them up to date."""

from __future__ import annotations

import datetime
import io
import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import seat_by_hand
from tournaments.models import Club, Event, Person, Player, Rating, RatingChange
from tournaments.models.rounds import RoundStatus
from tournaments.ratings import skill
from tournaments.ratings.build import rate_round, rebuild_ratings


def test_the_winner_of_a_table_gains_and_the_last_loses():
    start = skill.initial()
    after = skill.rate_table([start] * 4, [1, 2, 3, 4])
    assert after[0].mu > start.mu > after[3].mu
    assert after[0].ordinal > after[1].ordinal > after[2].ordinal > after[3].ordinal
    assert all(s.sigma < start.sigma for s in after)


def test_equal_places_are_ties():
    after = skill.rate_table([skill.initial()] * 4, [1, 2, 2, 4])
    assert after[1] == after[2]
    assert after[0].mu > after[1].mu > after[3].mu


def test_one_rank_per_seat():
    with pytest.raises(ValueError):
        skill.rate_table([skill.initial()] * 3, [1, 2])


def club_events(events: int = 3, players: int = 8, seed: int = 3, game: str = "vegetables") -> Club:
    """A club whose events have the same people, every round complete with random places."""
    club = Club.objects.create(name="Circolo Ludico")
    rng = random.Random(seed)
    people = [Person.objects.create(club=club, name=f"Person {i:02d}") for i in range(players)]
    for e in range(events):
        event = Event.objects.create(
            name=f"Night {e}", date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * e), game=game, club=club
        )
        linked = [Player.objects.create(event=event, name=p.name, person=p) for p in people]
        for number in (1, 2):
            ids = [p.pk for p in linked]
            rng.shuffle(ids)
            round_ = seat_by_hand(event, number, [ids[i : i + 4] for i in range(0, len(ids), 4)])
            for table in round_.tables.all():
                ranks = [1, 2, 3, 4]
                rng.shuffle(ranks)
                for seat, rank in zip(table.seats.order_by("position"), ranks):
                    seat.rank = rank
                    seat.save(update_fields=["rank"])
            round_.status = RoundStatus.COMPLETE
            round_.save(update_fields=["status"])
    return club


def rating_rows():
    return list(
        Rating.objects.order_by("person_id", "game").values_list(
            "person_id", "game", "mu", "sigma", "ordinal", "previous_ordinal", "rounds", "events"
        )
    )


def change_rows():
    return list(
        RatingChange.objects.order_by("pk").values_list(
            "person_id", "event_id", "round_number", "table_number", "rank", "mu_before", "mu_after", "sigma_after"
        )
    )


@pytest.mark.django_db
def test_rebuilding_twice_gives_the_same_rows():
    club = club_events()
    assert rebuild_ratings(club) == 8
    first, first_changes = rating_rows(), change_rows()
    assert rebuild_ratings(club) == 8
    assert rating_rows() == first
    assert change_rows() == first_changes
    assert len(first_changes) == 3 * 2 * 8
    assert {row[6:] for row in first} == {(6, 3)}


@pytest.mark.django_db
def test_each_change_starts_where_the_last_one_ended():
    club = club_events(events=2)
    rebuild_ratings(club)
    person = Person.objects.filter(club=club).first()
    changes = list(RatingChange.objects.filter(person=person).order_by("pk"))
    assert changes[0].mu_before == skill.initial().mu
    for before, after in zip(changes, changes[1:]):
        assert after.mu_before == before.mu_after
        assert after.sigma_before == before.sigma_after
    rating = Rating.objects.get(person=person)
    assert (rating.mu, rating.sigma) == (changes[-1].mu_after, changes[-1].sigma_after)
    assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
    last_event_first = next(c for c in changes if c.event_id == changes[-1].event_id)
    assert rating.previous_ordinal == pytest.approx(last_event_first.mu_before - 3 * last_event_first.sigma_before)


@pytest.mark.django_db
def test_rating_round_by_round_gives_what_a_rebuild_gives():
    club = club_events()
    rebuild_ratings(club)
    full, full_changes = rating_rows(), change_rows()
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    for event in Event.objects.order_by("date"):
        for round_ in event.rounds.order_by("number"):
            rate_round(round_)
    assert rating_rows() == full
    assert [row[1:] for row in change_rows()] == [row[1:] for row in full_changes]


@pytest.mark.django_db
def test_rating_an_earlier_round_again_rebuilds():
    club = club_events()
    rebuild_ratings(club)
    full = rating_rows()
    first = Event.objects.order_by("date").first().rounds.get(number=1)
    rate_round(first)
    assert rating_rows() == full


@pytest.mark.django_db
def test_an_unlinked_player_plays_as_a_newcomer_and_keeps_nothing():
    club = club_events(events=1)
    player = Player.objects.filter(event__club=club).order_by("name").first()
    person = player.person
    player.person = None
    player.save()
    rebuild_ratings(club)
    assert not RatingChange.objects.filter(person=person).exists()
    assert Rating.objects.count() == 7
    assert RatingChange.objects.count() == 2 * 7


@pytest.mark.django_db
def test_rounds_not_complete_and_events_without_club_count_for_nothing():
    club = club_events(events=1)
    event = Event.objects.get(club=club)
    event.rounds.filter(number=2).update(status=RoundStatus.IN_PLAY)
    rebuild_ratings(club)
    assert set(Rating.objects.values_list("rounds", flat=True)) == {1}
    Event.objects.update(club=None)
    rebuild_ratings(club)
    assert not Rating.objects.exists()


@pytest.mark.django_db
def test_the_command_rebuilds_every_club_or_one():
    club = club_events(events=1)
    other = club_events(events=1, seed=9)
    out = io.StringIO()
    call_command("rebuild_ratings", "--club", club.slug, stdout=out)
    assert f"{club.slug}: 8 ratings rebuilt" in out.getvalue()
    assert set(Rating.objects.values_list("person__club", flat=True)) == {club.pk}
    call_command("rebuild_ratings", stdout=out)
    assert set(Rating.objects.values_list("person__club", flat=True)) == {club.pk, other.pk}


@pytest.mark.django_db
def test_completing_a_round_rates_it_and_reopening_takes_it_back(make_event):
    from tests.factories import cheese_tallies, enter
    from tournaments.services.round_end import complete_round, reopen_round

    club = Club.objects.create(name="Club")
    event = make_event("cheese-rescue", players=4, manches_per_round=1, club=club)
    for player in event.players.all():
        player.person = Person.objects.create(club=club, name=player.name)
        player.save(update_fields=["person"])
    ids = list(event.players.order_by("name").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY)
    enter(round_.tables.get(), cheese_tallies([9, 6, 3, 0]))
    complete_round(round_)
    ratings = dict(Rating.objects.values_list("person__name", "ordinal"))
    assert ratings["Player 00"] > ratings["Player 01"] > ratings["Player 02"] > ratings["Player 03"]
    assert RatingChange.objects.filter(event=event, round_number=1).count() == 4
    reopen_round(round_)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_a_sheet_corrected_after_the_round_is_complete_rates_it_again(make_event):
    from tests.factories import cheese_tallies, enter
    from tournaments.services.round_end import complete_round

    club = Club.objects.create(name="Club")
    event = make_event("cheese-rescue", players=4, manches_per_round=1, club=club)
    for player in event.players.all():
        player.person = Person.objects.create(club=club, name=player.name)
        player.save(update_fields=["person"])
    ids = list(event.players.order_by("name").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY)
    table = round_.tables.get()
    enter(table, cheese_tallies([9, 6, 3, 0]))
    complete_round(round_)
    enter(table, cheese_tallies([0, 3, 6, 9]))
    ratings = dict(Rating.objects.values_list("person__name", "ordinal"))
    assert ratings["Player 03"] > ratings["Player 02"] > ratings["Player 01"] > ratings["Player 00"]
    assert list(RatingChange.objects.order_by("rank").values_list("person__name", flat=True))[0] == "Player 03"


def rating_section(client, player: Player) -> str:
    """The rating figures of the player's public page."""
    html = client.get(reverse("tournaments:player", args=[player.event.slug, player.pk])).content.decode()
    start = html.index('<section class="rating"')
    return html[start : html.index("</section>", start)]


@pytest.mark.django_db
def test_a_public_page_rates_from_public_events_only(client):
    club = club_events(events=2)
    public, private = Event.objects.filter(club=club).order_by("date")
    private.public = False
    private.save()
    rebuild_ratings(club)
    player = public.players.order_by("name").first()
    assert Rating.objects.get(person=player.person).events == 2

    shown = rating_section(client, player)

    private.delete()
    assert Rating.objects.get(person=player.person).events == 1
    assert shown == rating_section(client, player)
    assert "<dt>Tournaments</dt><dd>1</dd>" in shown


@pytest.mark.django_db
def test_the_organisers_see_every_event_counted_on_a_private_events_page(organiser_client):
    club = club_events(events=2)
    public, private = Event.objects.filter(club=club).order_by("date")
    private.public = False
    private.save()
    rebuild_ratings(club)
    rating = Rating.objects.get(person=private.players.order_by("name").first().person)
    shown = rating_section(organiser_client, private.players.order_by("name").first())
    assert f"<dd>{round(rating.ordinal)}</dd>" in shown and f"<dd>{rating.rounds}</dd>" in shown
