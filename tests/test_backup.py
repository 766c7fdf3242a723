"""Event backup: export a whole event as JSON and import it into a database without it, nothing lost."""

from __future__ import annotations

import contextlib
import copy
import datetime
import json
from decimal import Decimal, InvalidOperation

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import DataError, transaction
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.contract.fuzzing import FUZZ, json_values
from tests.factories import cheese_tallies, enter, seat_by_hand
from tests.subprocesses import fresh_database, manage
from tournaments import games
from tournaments.forms.backup import FORM_CHECKS
from tournaments.forms.event import EventForm
from tournaments.models import (
    AuditEntry,
    Club,
    Event,
    Manche,
    PaperSheet,
    Person,
    Player,
    Rating,
    RatingChange,
    Round,
    Season,
    Seat,
    SheetRevision,
    Standing,
    Table,
    Team,
)
from tournaments.models.audit import Action
from tournaments.models.rounds import RoundStatus, TableStatus
from tournaments.models.tokens import is_weak, well_formed
from tournaments.ratings.build import rebuild_ratings
from tournaments.services.audit import record
from tournaments.services.backup import MAX_DEPTH, BackupError, export_event, export_event_json, import_event
from tournaments.services.clock import MAX_SECONDS
from tournaments.services.sheets import Author, confirm_sheet, dispute_sheet, record_sheet

pytestmark = pytest.mark.django_db

LONG_AGO = datetime.datetime(2025, 3, 4, 5, 6, 7, 123456, tzinfo=datetime.UTC)


def realistic_event(make_event, django_user_model, players: int = 7) -> Event:
    """A Cheese Rescue event with a team, a dropped player, two rounds of sheets, a locked and a disputed table."""
    anna = django_user_model.objects.create_user("anna", password="a-long-test-password")
    django_user_model.objects.create_user("marco", password="a-long-test-password")
    event = make_event(
        "cheese-rescue",
        players=players,
        table_size=3,
        manches_per_round=2,
        placement_points=[5, 3, 1],
        venue="Circolo Arci",
        confirmation_required=False,
        status="running",
        language="it",
        paper_size="letter",
        seed=123456789,
    )
    event.organisers.add(anna)
    team = Team.objects.create(event=event, name="Team Brie")
    Team.objects.create(event=event, name="Team Empty")
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    Player.objects.filter(pk__in=ids[:2]).update(team=team, checked_in=True)
    Player.objects.filter(pk=ids[-1]).update(active=False)

    first_round = seat_by_hand(event, 1, [ids[0:3], ids[3:6]])
    Round.objects.filter(pk=first_round.pk).update(seating_method="mixer", seating_quality={"repeats": 0})
    first, second = first_round.tables.order_by("number")
    manche = enter(first, cheese_tallies([6, 6, 2]))
    record_sheet(manche, {**manche.document, **cheese_tallies([7, 6, 2])}, based_on=1, author=Author("organiser", anna))
    enter(first, cheese_tallies([3, 5, 1]), manche_number=2, via="link")
    enter(second, cheese_tallies([5, 3, 1]))
    enter(second, cheese_tallies([2, 3, 4]), manche_number=2)
    Manche.objects.filter(table=second, number=1).update(confirmed_seat=2, confirmed_at=LONG_AGO)
    Table.objects.filter(pk=first.pk).update(locked=True)
    Round.objects.filter(pk=first_round.pk).update(status=RoundStatus.COMPLETE)

    second_tables = [[ids[0], ids[3], ids[5]], [ids[1], ids[2], ids[4]]]
    second_round = seat_by_hand(event, 2, second_tables, status=RoundStatus.IN_PLAY)
    third, _fourth = second_round.tables.order_by("number")
    disputed = enter(third, cheese_tallies([0, 10, 4]), via="link")
    at_third = {seat.position: seat.player for seat in third.seats.all()}
    changed = {**disputed.document, **cheese_tallies([1, 10, 4])}
    by_player = Author("player", player=at_third[1], seat=1, device="phone-one")
    disputed = record_sheet(disputed, changed, based_on=disputed.version, author=by_player)
    confirm_sheet(disputed, version=disputed.version, author=Author("player", player=at_third[2], seat=2, device="two"))
    dispute_sheet(disputed, Author("link", seat=3, device="phone-three"), reason="Seat 3 counted 10 cheeses, not 4")
    record(event, Action.PLAYER_LINK, Author("organiser", user=anna, device="desk"), subject=at_third[3])
    record(event, Action.PUBLISH, Author("organiser", user=anna), round=second_round, details={"tables": 2})
    Table.objects.filter(pk=third.pk).update(status=TableStatus.DISPUTED)

    Event.objects.filter(pk=event.pk).update(created_at=LONG_AGO)
    Player.objects.filter(event=event).update(registered_at=LONG_AGO)
    Round.objects.filter(event=event).update(created_at=LONG_AGO)
    SheetRevision.objects.filter(manche__table__round__event=event, version=1).update(changed_at=LONG_AGO)
    AuditEntry.objects.filter(event=event, action=Action.CONFIRM).update(at=LONG_AGO)
    event.refresh_from_db()
    return event


# Natural references: each row named by what identifies it in the event, never by its id.


def natural(obj):
    if obj is None:
        return None
    match obj:
        case Event():
            return obj.slug
        case Team() | Player():
            return (obj.event.slug, obj.name)
        case Round():
            return (obj.event.slug, obj.number)
        case Table():
            return (*natural(obj.round), obj.number)
        case Manche():
            return (*natural(obj.table), obj.number)
        case Seat():
            return (*natural(obj.table), obj.position)
        case SheetRevision():
            return (*natural(obj.manche), obj.version)
        case Standing():
            return (*natural(obj.event), obj.player.name)
        case Club():
            return obj.slug
        case Person():
            return (obj.club.slug, obj.name, obj.affiliation)
    if isinstance(obj, get_user_model()):
        return obj.get_username()
    raise AssertionError(f"no natural reference for {type(obj).__name__}: the backup test must learn it")


BACKED_UP = {Event, Team, Player, Round, Table, Seat, Manche, SheetRevision, Standing, AuditEntry}
#: What an event's backup names (its club, its players' people) or what is rebuilt from it (the ratings); a season
#: is its club's, spanning events, and not in any one event's backup.
CLUB_LEVEL = {Club, Person, Rating, RatingChange, Season}
#: A paper sheet's picture waiting to be checked is not kept: it is read again from the photo. Once saved, its
#: picture is in the backup with the changes it made (``SheetRevision.paper``).
NOT_KEPT = {PaperSheet}
#: Times of a rebuild, not values of the event.
REBUILT_AT = {"updated"}


def dump_all() -> dict[str, list[dict]]:
    """Every row of every model of the app: each field's value, links as natural references, no ids."""
    models = set(apps.get_app_config("tournaments").get_models())
    assert models == BACKED_UP | CLUB_LEVEL | NOT_KEPT, f"models the backup test does not cover: {models ^ BACKED_UP}"
    dump = {}
    for model in [*models, get_user_model()]:
        rows = []
        for obj in model.objects.all():
            row = {}
            for field in model._meta.concrete_fields:
                if field.primary_key:
                    continue
                value = natural(getattr(obj, field.name)) if field.is_relation else field.value_from_object(obj)
                if model is get_user_model() and field.name in ("password", "last_login", "date_joined"):
                    continue
                if model is Rating and field.name in REBUILT_AT:
                    continue
                row[field.name] = value
            for field in model._meta.many_to_many:
                row[field.name] = sorted(natural(o) for o in getattr(obj, field.name).all())
            rows.append(row)
        dump[model.__name__] = sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str))
    return dump


def wipe(event: Event) -> None:
    """Delete the event and all it holds (seats first: a seat protects its player)."""
    Seat.objects.filter(round__event=event).delete()
    event.delete()


def test_export_import_round_trip_keeps_every_value(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    before = dump_all()
    assert len(before["Seat"]) == 12 and len(before["Manche"]) == 8 and len(before["Standing"]) == 7
    assert len(before["SheetRevision"]) == 7 and len(before["AuditEntry"]) == 4
    text = export_event_json(event)
    wipe(event)
    django_user_model.objects.filter(username="marco").delete()
    assert not Event.objects.exists() and not SheetRevision.objects.exists()

    imported = import_event(json.loads(text))

    assert dump_all() == {**before, "User": [r for r in before["User"] if r["username"] != "marco"]}
    anna = django_user_model.objects.get(username="anna")
    assert anna.has_usable_password()
    assert list(imported.organisers.all()) == [anna]
    assert imported.created_at == LONG_AGO and imported.seed == 123456789
    assert imported.standings_version == event.standings_version > 0
    seat = Seat.objects.filter(round__event=imported, rank=1).first()
    assert isinstance(seat.placement_points, Decimal)


def in_a_club(event: Event) -> Club:
    """The event in a club, each player linked to a person of their name, the club's ratings rebuilt."""
    club = Club.objects.create(name="Circolo Arci Bologna")
    Event.objects.filter(pk=event.pk).update(club=club)
    event.refresh_from_db()
    for player in event.players.all():
        player.person = Person.objects.create(club=club, name=player.name, affiliation=player.club)
        player.save(update_fields=["person"])
    Person.objects.create(club=club, name="Someone Else")
    rebuild_ratings(club)
    return club


def test_a_round_trip_keeps_the_club_and_the_people_into_a_database_that_has_them(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    in_a_club(event)
    before = dump_all()
    assert len(before["Rating"]) == 6 and len(before["RatingChange"]) == 6
    text = export_event_json(event)
    wipe(event)
    assert Person.objects.count() == 8 and not Rating.objects.exists()
    import_event(json.loads(text))
    assert dump_all() == before


def test_a_round_trip_makes_the_club_and_the_people_in_a_database_without_them(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    club = in_a_club(event)
    Person.objects.filter(name="Someone Else").delete()
    before = dump_all()
    text = export_event_json(event)
    wipe(event)
    club.delete()
    assert not Person.objects.exists()
    imported = import_event(json.loads(text))
    after = dump_all()
    made_anew = {"created_at", "organisers"}
    for name in ("Club", "Person"):
        before[name], after[name] = (
            [{k: v for k, v in row.items() if k not in made_anew} for row in rows]
            for rows in (before[name], after[name])
        )
    assert after == before
    assert [u.username for u in imported.club.organisers.all()] == ["anna"]


def test_a_person_without_a_club_is_refused(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    in_a_club(event)
    document = export_event(event)
    wipe(event)
    document["event"]["club"] = None
    with pytest.raises(BackupError, match="names a person, but the tournament has no club"):
        import_event(document)


def test_the_document_is_versioned_and_names_rows_by_reference(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    document = export_event(event)
    assert (document["format"], document["version"]) == ("tablescore-event", 1)
    assert "id" not in document["event"] and document["event"]["organisers"] == ["anna"]
    refs = {p["ref"] for p in document["players"]}
    team_ref = next(t["ref"] for t in document["teams"] if t["name"] == "Team Brie")
    assert sum(p["team"] == team_ref for p in document["players"]) == 2
    first_table = document["rounds"][0]["tables"][0]
    assert first_table["locked"] is True and {s["player"] for s in first_table["seats"]} <= refs
    assert first_table["seats"][0]["placement_points"] in {"5.00", "4.00", "3.00", "1.00"}
    assert first_table["manches"][0]["entered_by"] == "anna" and first_table["manches"][0]["version"] == 2
    assert {r["user"] for r in document["revisions"]} == {None, "anna"}
    json.dumps(document)  # plain JSON, no encoder needed


def test_importing_a_backup_twice_is_refused(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    document = json.loads(export_event_json(event))
    with pytest.raises(BackupError, match="exists already"):
        import_event(document)
    Event.objects.filter(pk=event.pk).update(slug="renamed")
    with pytest.raises(BackupError, match="table links"):
        import_event(document)
    assert Event.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something-else"}, "not a Tablescore tournament backup"),
        ({"version": 2}, "version 2; this Tablescore reads version 1"),
        ({"players": {}}, "“players” should be a list"),
    ],
)
def test_a_wrong_document_is_refused_with_a_clear_message(make_event, change, message):
    event = make_event("cheese-rescue", players=3, table_size=3)
    document = export_event(event)
    wipe(event)
    with pytest.raises(BackupError, match=message):
        import_event({**document, **change})
    assert not Event.objects.exists()


def test_a_bad_row_rolls_everything_back(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    document = export_event(event)
    wipe(event)
    document["standings"][0]["player"] = 999999
    with pytest.raises(BackupError, match=r"standings\[0\]\.player names player 999999"):
        import_event(document)
    document = export_event(make_event("veggies", players=2))
    for player in document["players"]:
        del player["token"]
    document["players"][0]["nickname"] = "Bob"
    document["event"]["slug"] = "other"
    with pytest.raises(BackupError, match=r"players\[0\] has fields this Tablescore does not know: nickname"):
        import_event(document)
    assert not Event.objects.filter(slug=event.slug).exists() and not Player.objects.filter(event__slug="other")


def test_management_commands_round_trip_through_a_file(make_event, django_user_model, tmp_path, capsys):
    event = realistic_event(make_event, django_user_model)
    before = dump_all()
    path = tmp_path / "backup.json"
    call_command("export_event", event.slug, "-o", str(path))
    assert json.loads(path.read_text(encoding="utf-8"))["event"]["slug"] == event.slug
    wipe(event)
    call_command("import_event", str(path))
    assert "Imported" in capsys.readouterr().out
    assert dump_all() == before
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_event", str(path))


def test_export_command_writes_to_standard_output(make_event, capsys):
    event = make_event("veggies", players=4)
    call_command("export_event", event.slug)
    assert json.loads(capsys.readouterr().out)["event"]["name"] == event.name
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_event", "nowhere")


def test_import_command_explains_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello", encoding="utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_event", str(path))


def test_download_needs_login(client, make_event):
    event = make_event("veggies", players=4)
    response = client.get(reverse("tournaments:event_export", kwargs={"slug": event.slug}))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_download_is_refused_to_who_does_not_run_the_event(client, make_event, django_user_model):
    event = make_event("veggies", players=4)
    client.force_login(django_user_model.objects.create_user("visitor", password="a-long-test-password"))
    assert client.get(reverse("tournaments:event_export", kwargs={"slug": event.slug})).status_code == 403


def test_an_organiser_downloads_a_backup_that_imports(client, make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    client.force_login(django_user_model.objects.get(username="anna"))
    before = dump_all()
    response = client.get(reverse("tournaments:event_export", kwargs={"slug": event.slug}))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith(f'attachment; filename="{event.slug}-backup-')
    wipe(event)
    import_event(json.loads(response.content))
    assert dump_all() == before


@pytest.mark.parametrize("players", [6, 12])
def test_download_reads_a_constant_number_of_queries(
    organiser_client, make_event, django_user_model, django_assert_max_num_queries, players
):
    event = realistic_event(make_event, django_user_model, players=players)
    seat_by_hand(event, 3, [list(event.players.order_by("pk").values_list("pk", flat=True)[: players - 1])])
    with django_assert_max_num_queries(14):
        response = organiser_client.get(reverse("tournaments:event_export", kwargs={"slug": event.slug}))
    assert len(json.loads(response.content)["players"]) == players


# A backup is checked as a form checks what people type: a crafted one stores nothing and breaks no page.


def exported(make_event, django_user_model) -> dict:
    """The backup of a realistic event, which is then deleted (its accounts stay)."""
    event = realistic_event(make_event, django_user_model)
    document = json.loads(export_event_json(event))
    wipe(event)
    return document


def assert_nothing_stored() -> None:
    assert all(not model.objects.exists() for model in BACKED_UP), {m.__name__: m.objects.count() for m in BACKED_UP}


def refused(document: dict, message: str, checks=None) -> BackupError:
    users = get_user_model().objects.count()
    with pytest.raises(BackupError, match=message) as error:
        import_event(document, checks)
    assert_nothing_stored()
    assert get_user_model().objects.count() == users
    return error.value


def first_table(document: dict) -> dict:
    return document["rounds"][0]["tables"][0]


def test_a_slug_that_is_no_web_address_is_refused_and_the_home_page_still_works(make_event, django_user_model, client):
    document = exported(make_event, django_user_model)
    document["event"]["slug"] = "bad/slug <b>"
    refused(document, r"event is refused: slug: Enter a valid")
    assert client.get(reverse("tournaments:home")).status_code == 200


def test_a_game_this_tablescore_does_not_know_is_refused(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    document["event"]["game"] = "chess"
    refused(document, r"event\.game: “chess” is not a game this Tablescore knows; it knows .*cheese-rescue")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["event"].update(placement_points="1e400"), r"event is refused: placement_points: Give at most 9"),
        (lambda d: d["event"].update(placement_points=[float("inf")]), r"event\.placement_points holds a number JSON"),
        (lambda d: d["event"].update(placement_points=[10000, 0, 0]), r"event is refused: placement_points"),
        (lambda d: first_table(d)["seats"][0].update(placement_points="1e400"), r"seats\[0\]\.placement_points should"),
        (lambda d: first_table(d)["seats"][0].update(placement_points="-1"), r"seats\[0\]\.placement_points should"),
        (lambda d: first_table(d)["seats"][0].update(placement_points="999.001"), r"seats\[0\]\.placement_points"),
        (lambda d: first_table(d)["seats"][0].update(placement_points="NaN"), r"seats\[0\]\.placement_points"),
        (lambda d: d["standings"][0].update(points="1e400"), r"standings\[0\] is refused: points"),
        (lambda d: d["standings"][0].update(buchholz=1e400), r"standings\[0\]\.buchholz should be a number written"),
        (lambda d: d["rounds"][0].update(seating_quality={"repeats": float("nan")}), r"rounds\[0\]\.seating_quality"),
    ],
)
def test_numbers_that_do_not_fit_are_refused(make_event, django_user_model, change, message):
    document = exported(make_event, django_user_model)
    change(document)
    refused(document, message)


def test_a_round_number_beyond_any_integer_is_refused(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    document["rounds"][1]["number"] = 2**70
    refused(document, r"rounds\[1\] is refused: number: Ensure this value is less than or equal to")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["rounds"][0].update(number="1"), r"rounds\[0\]\.number should be a whole number"),
        (lambda d: d["rounds"][0].update(published="yes"), r"rounds\[0\]\.published should be true or false"),
        (lambda d: d["players"][0].update(name=["Anna"]), r"players\[0\]\.name should be text"),
        (lambda d: d["players"][0].update(name="x" * 101), r"players\[0\] is refused: name: Ensure this value"),
        (lambda d: d["event"].update(language="xx"), r"event is refused: language: Value 'xx' is not a valid choice"),
        (lambda d: first_table(d).update(status="lost"), r"tables\[0\] is refused: status"),
        (lambda d: d["event"].update(table_size=7), r"event is refused: table_size: Cheese Rescue is played at"),
        (lambda d: d["players"][1].update(ref=[1]), r"players\[1\]\.ref should be present and unique"),
    ],
)
def test_values_a_form_would_refuse_are_refused(make_event, django_user_model, change, message):
    document = exported(make_event, django_user_model)
    change(document)
    refused(document, message)


@pytest.mark.parametrize("where", ["table", "player"])
def test_tokens_of_the_wrong_type_are_refused(make_event, django_user_model, where):
    document = exported(make_event, django_user_model)
    row = first_table(document) if where == "table" else document["players"][0]
    row["token"] = [row["token"]]
    refused(document, r"\.token should be text")


@pytest.mark.parametrize("token", ["short", "a" * 21 + "!", "ÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄ", " " + "abcdefghijklmnopqrstu"])
def test_malformed_tokens_are_refused(make_event, django_user_model, token):
    document = exported(make_event, django_user_model)
    document["players"][2]["token"] = token
    refused(document, r"players\[2\]\.token is not a link token")


def test_a_token_given_twice_is_refused(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    document["players"][1]["token"] = first_table(document)["token"]
    refused(document, r"tables\[0\]\.token is the token of players\[1\] too")


def test_weak_tokens_are_replaced_by_new_ones(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    first_table(document)["token"] = "a" * 22
    document["players"][0]["token"] = "abababababababababab-_"
    kept = document["players"][1]["token"]
    event = import_event(document)
    tokens = [*Table.objects.values_list("token", flat=True), *Player.objects.values_list("token", flat=True)]
    assert "a" * 22 not in tokens and "abababababababababab-_" not in tokens
    assert all(well_formed(token) and not is_weak(token) for token in tokens) and len(set(tokens)) == len(tokens)
    assert event.players.filter(token=kept).exists()


def test_player_tokens_are_exported_and_imported(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    tokens = dict(event.players.values_list("name", "token"))
    document = export_event(event)
    assert {p["name"]: p["token"] for p in document["players"]} == tokens
    wipe(event)
    imported = import_event(document)
    assert dict(imported.players.values_list("name", "token")) == tokens


def test_an_older_backup_without_player_tokens_gives_each_player_a_new_one(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    for player in document["players"]:
        del player["token"]
    event = import_event(document)
    tokens = list(event.players.values_list("token", flat=True))
    assert len(tokens) == 7 and len(set(tokens)) == 7 and all(well_formed(t) and not is_weak(t) for t in tokens)


def test_unknown_organisers_are_refused_by_name_and_no_account_is_created(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    document["event"]["organisers"] = ["anna", "mallory", "eve"]
    refused(document, r"accounts this Tablescore does not have: eve, mallory\. An import creates no account")
    assert not django_user_model.objects.filter(username__in=["eve", "mallory"]).exists()


@pytest.mark.parametrize("field", ["entered_by", "user"])
def test_unknown_authors_of_sheets_are_refused_too(make_event, django_user_model, field):
    document = exported(make_event, django_user_model)
    if field == "entered_by":
        first_table(document)["manches"][0]["entered_by"] = "ghost"
    else:
        document["revisions"][0]["user"] = "ghost"
    refused(document, r"does not have: ghost\.")
    assert not django_user_model.objects.filter(username="ghost").exists()


def test_every_sheet_is_scored_again_and_the_engines_result_is_kept(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    manche = first_table(document)["manches"][0]
    honest = manche["result"]
    manche["result"] = {"players": [{"score": 999, "rank": 1}], "forged": True}
    first_table(document)["manches"][1]["result"] = None
    event = import_event(document)
    stored = Manche.objects.get(table__round__event=event, table__round__number=1, table__number=1, number=1)
    assert stored.result == honest
    second = Manche.objects.get(table__round__event=event, table__round__number=1, table__number=1, number=2)
    assert second.result == games.score(second.document) and second.result is not None


def test_each_seats_score_tiebreak_and_place_come_from_the_engines_results(make_event, django_user_model):
    event = realistic_event(make_event, django_user_model)
    before = {
        (s.round.number, s.table.number, s.position): (s.score, s.tiebreak, s.rank, s.placement_points)
        for s in Seat.objects.select_related("round", "table")
    }
    document = export_event(event)
    wipe(event)
    seats = first_table(document)["seats"]
    seats[0].update(score=2**62, tiebreak="abc", rank=30000)
    seats[1].update(tiebreak=[2**62, 2**62])
    document["rounds"][1]["tables"][1]["seats"][0].update(score=5, rank=1, placement_points="5.00")
    event = import_event(document)
    after = {
        (s.round.number, s.table.number, s.position): (s.score, s.tiebreak, s.rank, s.placement_points)
        for s in Seat.objects.filter(round__event=event).select_related("round", "table")
    }
    assert after == before
    enter(event.rounds.get(number=2).tables.get(number=2), cheese_tallies([4, 2, 1]))
    assert event.standings.count() == 7


def test_a_sheet_the_rules_refuse_is_refused_naming_its_round_table_and_manche(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    document["rounds"][0]["tables"][1]["manches"][1]["document"]["tallies"] = "lots"
    error = refused(document, r"rounds\[0\]\.tables\[1\]\.manches\[1\] \(round 1, table 2, manche 2\)")
    assert "the rules refuse the sheet: tallies" in str(error)


def test_a_sheet_of_another_game_is_refused(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    first_table(document)["manches"][0]["document"]["game"] = "veggies"
    refused(document, r"\(round 1, table 1, manche 1\): the sheet is not a sheet of Cheese Rescue")


def test_what_the_database_refuses_becomes_a_backup_error_naming_the_part(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    seats = first_table(document)["seats"]
    seats[1]["position"] = seats[0]["position"]
    refused(document, r"rounds \(their seats\): the database refused this part of the backup \((UNIQUE|duplicate key)")


@pytest.mark.parametrize("error", [OverflowError, InvalidOperation, DataError, ValueError, TypeError])
def test_any_refusal_during_the_import_is_a_backup_error(make_event, django_user_model, monkeypatch, error):
    document = exported(make_event, django_user_model)

    def fail(*args, **kwargs):
        raise error("no")

    monkeypatch.setattr(Standing.objects, "bulk_create", fail)
    refused(document, r"^standings: the database refused this part of the backup \(no\)\.$")


def test_the_import_command_refuses_a_file_with_a_number_too_large_for_json(make_event, django_user_model, tmp_path):
    document = exported(make_event, django_user_model)
    document["event"]["placement_points"] = "PLACEHOLDER"
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(document).replace('"PLACEHOLDER"', "[1e400, 0]"), encoding="utf-8")
    with pytest.raises(CommandError, match=r"event\.placement_points holds a number JSON cannot keep"):
        call_command("import_event", str(path))
    assert_nothing_stored()


# The forms' limits: a backup holds nothing the set-up, round and clock pages would refuse.


def form_message(field: str, value) -> str:
    """What the event set-up form says of ``value`` typed into ``field``."""
    form = EventForm(data={field: str(value)})
    return form.errors[field][0]


def in_a_file(document: dict, tmp_path) -> str:
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("field", "value"),
    [("rounds_planned", 31), ("rounds_planned", 1_000_000), ("manches_per_round", 13), ("manches_per_round", 100_000)],
)
def test_the_command_refuses_what_the_set_up_form_refuses_with_its_message(
    make_event, django_user_model, tmp_path, field, value
):
    document = exported(make_event, django_user_model)
    document["event"][field] = value
    with pytest.raises(CommandError) as error:
        call_command("import_event", in_a_file(document, tmp_path))
    assert str(error.value) == f"event is refused: {field}: {form_message(field, value)}"
    assert form_message(field, value).startswith("Ensure this value is less than or equal to")
    assert_nothing_stored()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["event"].update(table_size=1), r"event is refused: table_size: Ensure this value is greater"),
        (
            lambda d: d["event"].update(placement_points=[1000, 0]),
            r"placement_points: A place earns at most 999 points",
        ),
        (lambda d: d["event"].update(placement_points=[9] * 10), r"placement_points: Give points for at most 9 places"),
        (lambda d: d["event"].update(public_url="ftp://x.org"), r"public_url: The address must start with http://"),
        (lambda d: d["event"].update(public_url="http://x.org/a"), r"public_url: Give only the start of the address"),
        (lambda d: d["rounds"][0].update(seating_method="zzz"), r"rounds\[0\] is refused: seating_method: Select a"),
        (
            lambda d: d["event"].update(club={"slug": "new-club", "name": "\u200b"}),
            r"event\.club is refused: name: A name needs at least one letter or digit",
        ),
    ],
)
def test_values_the_forms_refuse_are_refused_with_the_forms_messages(make_event, django_user_model, change, message):
    document = exported(make_event, django_user_model)
    change(document)
    refused(document, message, FORM_CHECKS)
    assert not Club.objects.filter(slug="new-club").exists()


def test_values_the_forms_take_are_kept_as_the_forms_keep_them(make_event, django_user_model):
    document = exported(make_event, django_user_model)
    document["event"].update(rounds_planned=30, manches_per_round=12, public_url="HTTP://192.168.1.20:8000/")
    event = import_event(document, FORM_CHECKS)
    assert (event.rounds_planned, event.manches_per_round) == (30, 12)
    assert event.public_url == "http://192.168.1.20:8000"


@pytest.mark.parametrize("checks", [None, FORM_CHECKS])
def test_a_round_clock_longer_than_the_clock_allows_is_refused(make_event, django_user_model, checks):
    document = exported(make_event, django_user_model)
    document["rounds"][1]["clock_seconds"] = 10**15
    refused(
        document,
        rf"rounds\[1\] is refused: clock_seconds: Ensure this value is less than or equal to {MAX_SECONDS}\.",
        checks,
    )
    document["rounds"][1]["clock_seconds"] = MAX_SECONDS
    assert import_event(document, checks).rounds.get(number=2).clock_seconds == MAX_SECONDS


# Malformed files: a clear error, never a traceback.


def test_the_command_refuses_deeply_nested_json_with_a_clear_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(CommandError, match=rf"nests lists and objects more than {MAX_DEPTH} levels deep"):
        call_command("import_event", str(path))


def test_manage_py_prints_the_refusal_of_a_malformed_file_not_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"format": "tablescore-event", "event": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with fresh_database(tmp_path) as url:
        manage(url, "migrate", "--noinput", "-v", "0")
        done = manage(url, "import_event", str(path), check=False)
    assert done.returncode == 1
    assert "CommandError: The file nests lists and objects more than" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_backup_nesting_a_sheet_too_deep_is_refused(make_event, django_user_model, tmp_path):
    document = exported(make_event, django_user_model)
    nested: list = []
    for _level in range(MAX_DEPTH):
        nested = [nested]
    first_table(document)["manches"][0]["document"]["note"] = nested
    with pytest.raises(CommandError, match="levels deep"):
        call_command("import_event", in_a_file(document, tmp_path))
    refused(document, "levels deep")


def test_brackets_inside_text_do_not_count_as_nesting(make_event, django_user_model, tmp_path):
    document = exported(make_event, django_user_model)
    document["event"]["venue"] = "[[[{{{" * 20
    call_command("import_event", in_a_file(document, tmp_path))
    assert Event.objects.get().venue == "[[[{{{" * 20


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "tablescore-event", "version": ' + b"7" * 5000 + b"}", "a number too long to read"),
        (b"\xff\xfe not text", "is not text in UTF-8"),
        (b"[1, 2", "is not JSON"),
        (b'"a backup?"', "not a Tablescore tournament backup"),
        (b"[]", "not a Tablescore tournament backup"),
    ],
)
def test_the_command_explains_any_malformed_file_without_a_traceback(tmp_path, content, message):
    path = tmp_path / "crafted.json"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("import_event", str(path))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(event=[d["event"]]),
        lambda d: d.update(rounds=[[1, 2]]),
        lambda d: d["rounds"][0].update(tables={"0": first_table(d)}),
        lambda d: first_table(d).update(seats="none"),
        lambda d: first_table(d)["manches"][0].update(document=[1, 2]),
        lambda d: first_table(d)["manches"][0]["document"].update(tallies=[{"cheese_points": "6"}] * 3),
        lambda d: d["event"].pop("game"),
        lambda d: d["event"].pop("slug"),
        lambda d: d["players"][0].pop("ref"),
        lambda d: d["event"].update(rounds_planned="4"),
        lambda d: d["event"].update(rounds_planned=2**200),
        lambda d: d["event"].update(date=[2026, 1, 1]),
        lambda d: d["event"].update(date="2026-02-30"),
        lambda d: d["event"].update(organisers="anna"),
        lambda d: d["event"].update(organisers=["\ud800"]),
        lambda d: d["event"].update(club=["club"]),
        lambda d: d["revisions"][0].update(round=None),
        lambda d: d["audit"][0].update(of_round=[1]),
        lambda d: d["standings"].append("player"),
    ],
)
def test_wrong_types_and_missing_keys_are_backup_errors(make_event, django_user_model, change):
    document = exported(make_event, django_user_model)
    change(document)
    refused(document, ".", FORM_CHECKS)


def every_path(value, trail=()) -> list[tuple]:
    """The path to every value inside ``value``, itself included."""
    if isinstance(value, dict):
        children = value.items()
    elif isinstance(value, list):
        children = enumerate(value)
    else:
        children = ()
    return [trail, *(path for key, child in children for path in every_path(child, (*trail, key)))]


def changed_at(document: dict, path: tuple, value) -> dict:
    """A copy of ``document`` with ``value`` at ``path`` (None for the value: the key is dropped from its object)."""
    changed = copy.deepcopy(document)
    *parents, last = path
    holder = changed
    for key in parents:
        holder = holder[key]
    if value is None and isinstance(holder, dict):
        del holder[last]
    else:
        holder[last] = value
    return changed


@pytest.fixture
def small_backup(make_event, django_user_model) -> dict:
    """The backup of a small event with a seated round and a sheet, which is then deleted."""
    event = make_event("cheese-rescue", players=3, table_size=3, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    enter(seat_by_hand(event, 1, [ids]).tables.get(), cheese_tallies([6, 3, 1]))
    document = json.loads(export_event_json(event))
    wipe(event)
    return document


@FUZZ
@given(data=st.data())
def test_any_value_anywhere_in_a_backup_imports_or_is_a_backup_error(small_backup, data):
    path = data.draw(st.sampled_from(every_path(small_backup)[1:]))
    document = changed_at(small_backup, path, data.draw(json_values))
    with transaction.atomic():
        with contextlib.suppress(BackupError):
            import_event(document, FORM_CHECKS)
        transaction.set_rollback(True)
