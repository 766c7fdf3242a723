"""A club's people across its events: suggestions, the People page, merging, unlinking, who may see what."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError
from django.urls import reverse

from tests.factories import seat_by_hand
from tournaments.models import AuditEntry, Club, Event, Person, Player, Rating
from tournaments.models.audit import Action
from tournaments.models.rounds import RoundStatus
from tournaments.services import people
from tournaments.services.audit import Author

DESK = Author(via="organiser")


@pytest.fixture
def club(db, organiser):
    club = Club.objects.create(name="Circolo Ludico Roma")
    club.organisers.add(organiser)
    return club


def event_of(club, name="Night", date=datetime.date(2026, 11, 21), players=()):
    event = Event.objects.create(name=name, date=date, game="vegetables", manches_per_round=4, club=club)
    for player_name, player_club in players:
        Player.objects.create(event=event, name=player_name, club=player_club)
    return event


def test_a_club_gets_a_web_address_of_its_own(db):
    first = Club.objects.create(name="Tana dei Goblin")
    second = Club.objects.create(name="Tana dei Goblin")
    assert (first.slug, second.slug) == ("tana-dei-goblin", "tana-dei-goblin-2")


def test_a_person_is_unique_in_a_club_by_name_and_club_whatever_the_case(club):
    Person.objects.create(club=club, name="Ada Rossi", affiliation="Roma")
    Person.objects.create(club=club, name="Ada Rossi", affiliation="Napoli")
    Person.objects.create(club=Club.objects.create(name="Other"), name="Ada Rossi", affiliation="Roma")
    with pytest.raises(IntegrityError):
        Person.objects.create(club=club, name="ADA ROSSI", affiliation="roma")


def test_match_key_ignores_case_accents_and_spacing():
    assert people.match_key("  Íñigo   Peña ") == people.match_key("inigo pena")
    assert people.match_key("Łukasz") != people.match_key("Lukas")


def test_suggestions_put_the_same_club_first_then_other_clubs(club):
    exact = Person.objects.create(club=club, name="Núria Sánchez", affiliation="Club Dau Barcelona")
    namesake = Person.objects.create(club=club, name="Nuria Sanchez", affiliation="Tana dei Goblin")
    Person.objects.create(club=Club.objects.create(name="Elsewhere"), name="Nuria Sanchez", affiliation="")
    event = event_of(
        club, players=[("NURIA  SÁNCHEZ", "club dau barcelona"), ("Nuria Sanchez", "Klub Kraków"), ("Eva Nowak", "")]
    )
    found = {s.player.name: s for s in people.suggestions(event)}
    assert found["NURIA  SÁNCHEZ"].exact == exact
    assert found["NURIA  SÁNCHEZ"].others == [namesake]
    assert found["Nuria Sanchez"].exact is None
    assert set(found["Nuria Sanchez"].others) == {exact, namesake}
    assert (found["Eva Nowak"].exact, found["Eva Nowak"].others) == (None, [])


def test_a_person_linked_in_the_event_is_not_suggested_again(club):
    person = Person.objects.create(club=club, name="Ada Rossi")
    event = event_of(club, players=[("Ada Rossi", ""), ("ada rossi ", "x")])
    Player.objects.filter(event=event, club="").update(person=person)
    assert [(s.player.name, s.exact, s.others) for s in people.suggestions(event)] == [("ada rossi ", None, [])]


def test_linking_creates_new_people_and_links_chosen_ones(club):
    ada = Person.objects.create(club=club, name="Ada Rossi", affiliation="Roma")
    event = event_of(club, players=[("Ada Rossi", "Roma"), ("Bea Martínez", "Barcelona"), ("Cyd Nowak", "")])
    ids = dict(event.players.values_list("name", "pk"))
    linked = people.link_players(event, {ids["Ada Rossi"]: str(ada.pk), ids["Bea Martínez"]: "new"}, DESK)
    assert linked == 2
    players = {p.name: p for p in event.players.select_related("person")}
    assert players["Ada Rossi"].person == ada
    assert (players["Bea Martínez"].person.name, players["Bea Martínez"].person.affiliation) == (
        "Bea Martínez",
        "Barcelona",
    )
    assert players["Cyd Nowak"].person is None
    assert AuditEntry.objects.filter(event=event, action=Action.PERSON_LINK).count() == 2


def test_a_new_person_of_an_existing_name_and_club_is_that_person(club):
    ada = Person.objects.create(club=club, name="Ada Rossi", affiliation="Roma")
    event = event_of(club, players=[("ADA ROSSI", "ROMA")])
    people.link_players(event, {event.players.get().pk: "new"}, DESK)
    assert event.players.get().person == ada
    assert Person.objects.count() == 1


def test_one_person_is_not_two_players_of_an_event_nor_someone_of_another_club(club):
    ada = Person.objects.create(club=club, name="Ada Rossi")
    stranger = Person.objects.create(club=Club.objects.create(name="Other"), name="Bea")
    event = event_of(club, players=[("Ada Rossi", ""), ("Ada R.", "")])
    first, second = event.players.order_by("name")
    with pytest.raises(people.PeopleRefused):
        people.link_players(event, {first.pk: str(ada.pk), second.pk: str(ada.pk)}, DESK)
    with pytest.raises(people.PeopleRefused):
        people.link_players(event, {first.pk: str(stranger.pk)}, DESK)
    assert not event.players.filter(person__isnull=False).exists()


def complete_round_with_places(event, places):
    """Round 1 of ``event`` complete, one table, seats placed as ``places`` says (name -> place)."""
    ids = [event.players.get(name=name).pk for name in places]
    round_ = seat_by_hand(event, 1, [ids])
    for seat in round_.seats.select_related("player"):
        seat.rank = places[seat.player.name]
        seat.save(update_fields=["rank"])
    round_.status = RoundStatus.COMPLETE
    round_.save(update_fields=["status"])
    return round_


def test_linking_after_a_completed_round_rates_it(club):
    event = event_of(club, players=[("Ada", ""), ("Bea", ""), ("Cyd", "")])
    complete_round_with_places(event, {"Ada": 1, "Bea": 2, "Cyd": 3})
    assert not Rating.objects.exists()
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    ratings = {r.person.name: r for r in Rating.objects.select_related("person")}
    assert ratings["Ada"].ordinal > ratings["Bea"].ordinal > ratings["Cyd"].ordinal


def test_merging_moves_players_rebuilds_ratings_and_is_recorded(club):
    first = event_of(club, "Night 1", datetime.date(2026, 1, 1), [("Ada Rossi", ""), ("Bea", ""), ("Cyd", "")])
    second = event_of(club, "Night 2", datetime.date(2026, 1, 8), [("Ada Rosi", ""), ("Bea", ""), ("Cyd", "")])
    for event in (first, second):
        complete_round_with_places(
            event, dict(zip(event.players.order_by("name").values_list("name", flat=True), [1, 2, 3]))
        )
        people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    keep, other = Person.objects.get(name="Ada Rossi"), Person.objects.get(name="Ada Rosi")
    assert people.merge_people(keep, other, DESK) == 1
    assert not Person.objects.filter(pk=other.pk).exists()
    assert set(keep.players.values_list("event__name", flat=True)) == {"Night 1", "Night 2"}
    rating = Rating.objects.get(person=keep)
    assert (rating.rounds, rating.events) == (2, 2)
    entry = AuditEntry.objects.get(action=Action.PERSON_MERGE)
    assert entry.event == second and entry.details["merged_name"] == "Ada Rosi"


def test_two_people_who_played_the_same_event_are_not_merged(club):
    event = event_of(club, players=[("Ada", ""), ("Bea", "")])
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    ada, bea = Person.objects.order_by("name")
    with pytest.raises(people.PeopleRefused):
        people.merge_people(ada, bea, DESK)
    with pytest.raises(people.PeopleRefused):
        people.merge_people(ada, ada, DESK)


def test_unlinking_takes_the_results_out_of_the_ratings(club):
    event = event_of(club, players=[("Ada", ""), ("Bea", ""), ("Cyd", "")])
    complete_round_with_places(event, {"Ada": 1, "Bea": 2, "Cyd": 3})
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    ada = event.players.get(name="Ada")
    person = ada.person
    people.unlink_player(ada, DESK)
    ada.refresh_from_db()
    assert ada.person is None
    assert not Rating.objects.filter(person=person).exists()
    assert Rating.objects.count() == 2
    assert AuditEntry.objects.filter(subject=ada, action=Action.PERSON_UNLINK).exists()


# Pages


def test_the_people_page_ticks_exact_matches_and_links_only_what_is_sent(organiser_client, club):
    ada = Person.objects.create(club=club, name="Ada Rossi", affiliation="Roma")
    event = event_of(club, players=[("Ada Rossi", "Roma"), ("Bea Martínez", ""), ("Ada Rossi ", "x")])
    Person.objects.create(club=club, name="Bea Martinez", affiliation="Barcelona")
    url = reverse("tournaments:event_people", args=[event.slug])
    page = organiser_client.get(url).content.decode()
    roma = event.players.get(club="Roma")
    assert f'name="person-{roma.pk}" value="{ada.pk}" checked' in page
    bea = event.players.get(name="Bea Martínez")
    assert f'<select id="person-{bea.pk}" name="person-{bea.pk}">' in page
    response = organiser_client.post(url, {f"person-{roma.pk}": str(ada.pk), f"person-{bea.pk}": ""}, follow=True)
    assert "1 player linked." in response.content.decode()
    assert list(event.players.filter(person__isnull=False).values_list("pk", flat=True)) == [roma.pk]


@pytest.mark.parametrize("odd", ["²", "٣", "9" * 30, "9" * 5000, "-1", ""])
def test_people_page_ids_that_are_no_ids_link_nobody_and_are_no_server_error(organiser_client, club, odd):
    ada = Person.objects.create(club=club, name="Ada Rossi", affiliation="Roma")
    event = event_of(club, players=[("Ada Rossi", "Roma")])
    player = event.players.get()
    url = reverse("tournaments:event_people", args=[event.slug])
    posts = [{f"person-{player.pk}": odd}, {f"person-{odd}": str(ada.pk)}, {f"person-{odd}": "new"}]
    for posted in posts:
        response = organiser_client.post(url, posted, follow=True)
        assert response.status_code in (200, 400), posted
    assert "0 players linked." in organiser_client.post(url, posts[0], follow=True).content.decode()
    assert not event.players.filter(person__isnull=False).exists()


def test_the_people_page_reads_a_few_queries_whatever_the_players(
    organiser_client, club, django_assert_max_num_queries
):
    event = event_of(club, players=[(f"Player {i}", f"Club {i % 3}") for i in range(40)])
    for i in range(0, 40, 2):
        Person.objects.create(club=club, name=f"Player {i}", affiliation=f"Club {i % 3}")
    with django_assert_max_num_queries(10):
        assert organiser_client.get(reverse("tournaments:event_people", args=[event.slug])).status_code == 200


def test_after_an_import_the_organiser_is_sent_to_the_people_page(organiser_client, club):
    event = event_of(club)
    url = reverse("tournaments:players_import", args=[event.slug])
    response = organiser_client.post(url, {"action": "confirm", "text": "Ada Rossi;Roma\nBea Peña;Barcelona\n"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:event_people", args=[event.slug])


def test_club_pages_are_for_its_organisers(client, member, club):
    url = reverse("tournaments:club", args=[club.slug])
    assert client.get(url).status_code == 302
    assert member.get(url).status_code == 404
    club.organisers.add(member.user)
    assert member.get(url).status_code == 200


def test_the_club_pages_answer_in_a_few_queries(organiser_client, club, django_assert_max_num_queries):
    for n in range(3):
        event = event_of(club, f"Night {n}", datetime.date(2026, 1, 1 + n), [(f"P{i}", "") for i in range(4)])
        complete_round_with_places(event, {f"P{i}": i + 1 for i in range(4)})
        people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    person = Person.objects.get(name="P0")
    pages = [
        (reverse("tournaments:club", args=[club.slug]), "P3"),
        (reverse("tournaments:club_people", args=[club.slug]), "P2"),
        (reverse("tournaments:person", args=[club.slug, person.pk]), "Night 2"),
        (reverse("tournaments:clubs"), club.name),
    ]
    for url, text in pages:
        with django_assert_max_num_queries(10):
            response = organiser_client.get(url)
        assert response.status_code == 200
        assert text in response.content.decode()


def test_the_ratings_page_ranks_the_winner_first(organiser_client, club):
    event = event_of(club, players=[("Ada", ""), ("Bea", ""), ("Cyd", "")])
    complete_round_with_places(event, {"Ada": 3, "Bea": 1, "Cyd": 2})
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    page = organiser_client.get(reverse("tournaments:club", args=[club.slug])).content.decode()
    assert page.index(">Bea<") < page.index(">Cyd<") < page.index(">Ada<")


def test_merging_from_the_pages_asks_first(organiser_client, club):
    event = event_of(club, players=[("Ada", "")])
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    ada, other = Person.objects.get(), Person.objects.create(club=club, name="Ada R.")
    url = reverse("tournaments:people_merge", args=[club.slug])
    asked = organiser_client.get(url, {"keep": other.pk, "other": ada.pk})
    assert asked.status_code == 200 and Person.objects.count() == 2
    done = organiser_client.post(url, {"keep": other.pk, "other": ada.pk, "confirm": "1"})
    assert done.status_code == 302
    assert list(Person.objects.values_list("name", flat=True)) == ["Ada R."]
    assert event.players.get().person == other


def test_unlinking_from_the_person_page(organiser_client, club):
    event = event_of(club, players=[("Ada", "")])
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    player = event.players.get()
    url = reverse("tournaments:person_unlink", args=[club.slug, player.person_id, player.pk])
    assert organiser_client.post(url).status_code == 302
    player.refresh_from_db()
    assert player.person is None


def test_the_player_page_shows_the_rating_when_the_event_has_a_club(client, club, django_assert_max_num_queries):
    event = event_of(club, players=[("Ada", ""), ("Bea", "")])
    complete_round_with_places(event, {"Ada": 1, "Bea": 2})
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    ada = event.players.get(name="Ada")
    page = client.get(reverse("tournaments:player", args=[event.slug, ada.pk])).content.decode()
    assert "Rating at Circolo Ludico Roma" in page
    Event.objects.filter(pk=event.pk).update(club=None)
    page = client.get(reverse("tournaments:player", args=[event.slug, ada.pk])).content.decode()
    assert "Rating at" not in page


def test_the_event_form_offers_the_organisers_clubs_and_makes_a_new_one(organiser_client, member, club):
    other = Club.objects.create(name="Someone else's club")
    form = member.get(reverse("tournaments:event_new")).content.decode()
    assert club.name not in form and other.name not in form
    club.organisers.add(member.user)
    form = member.get(reverse("tournaments:event_new")).content.decode()
    assert club.name in form and other.name not in form
    data = {
        "name": "Winter night",
        "date": "2026-12-01",
        "game": "vegetables",
        "rounds_planned": 3,
        "manches_per_round": 4,
        "table_size": 4,
        "seating_method": "mixer",
        "language": "en",
        "paper_size": "A4",
        "public": "on",
        "new_club": "Tana dei Goblin",
    }
    assert member.post(reverse("tournaments:event_new"), data).status_code == 302
    event = Event.objects.get(name="Winter night")
    assert event.club.name == "Tana dei Goblin"
    assert list(event.club.organisers.all()) == [member.user]


def test_moving_an_event_to_another_club_unlinks_its_players_and_rates_both_clubs(organiser_client, club):
    event = event_of(club, players=[("Ada", ""), ("Bea", "")])
    complete_round_with_places(event, {"Ada": 1, "Bea": 2})
    people.link_players(event, {p.pk: "new" for p in event.players.all()}, DESK)
    assert Rating.objects.filter(person__club=club).count() == 2
    other = Club.objects.create(name="Tana dei Goblin")
    event.organisers.add(*club.organisers.all())
    form = organiser_client.get(reverse("tournaments:event_edit", args=[event.slug])).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(club=other.pk, placement_points="", public="on", date="2026-11-21", new_club="")
    response = organiser_client.post(reverse("tournaments:event_edit", args=[event.slug]), data)
    assert response.status_code == 302, response.context["form"].errors
    event.refresh_from_db()
    assert event.club == other
    assert not event.players.filter(person__isnull=False).exists()
    assert not Rating.objects.exists()
