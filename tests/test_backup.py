"""Event backup: export a whole event as JSON and import it into a database without it, nothing lost."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event, Manche, Player, Round, Seat, SheetRevision, Standing, Table, Team
from tournaments.models.rounds import RoundStatus, TableStatus
from tournaments.services.backup import BackupError, export_event, export_event_json, import_event
from tournaments.services.sheets import Author, record_sheet

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

    second_round = seat_by_hand(event, 2, [[ids[0], ids[3], ids[5]], [ids[1], ids[2], ids[4]]])
    third, _fourth = second_round.tables.order_by("number")
    enter(third, cheese_tallies([0, 10, 4]), via="link")
    Table.objects.filter(pk=third.pk).update(status=TableStatus.DISPUTED)

    Event.objects.filter(pk=event.pk).update(created_at=LONG_AGO)
    Player.objects.filter(event=event).update(registered_at=LONG_AGO)
    Round.objects.filter(event=event).update(created_at=LONG_AGO)
    SheetRevision.objects.filter(manche__table__round__event=event, version=1).update(changed_at=LONG_AGO)
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
    if isinstance(obj, get_user_model()):
        return obj.get_username()
    raise AssertionError(f"no natural reference for {type(obj).__name__}: the backup test must learn it")


BACKED_UP = {Event, Team, Player, Round, Table, Seat, Manche, SheetRevision, Standing}


def dump_all() -> dict[str, list[dict]]:
    """Every row of every model of the app: each field's value, links as natural references, no ids."""
    models = set(apps.get_app_config("tournaments").get_models())
    assert models == BACKED_UP, f"models the backup test does not cover: {models ^ BACKED_UP}"
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
    assert len(before["SheetRevision"]) == 6
    text = export_event_json(event)
    wipe(event)
    django_user_model.objects.filter(username__in=["anna", "marco"]).delete()
    assert not Event.objects.exists() and not SheetRevision.objects.exists()

    imported = import_event(json.loads(text))

    assert dump_all() == {**before, "User": [r for r in before["User"] if r["username"] != "marco"]}
    anna = django_user_model.objects.get(username="anna")
    assert not anna.has_usable_password()
    assert list(imported.organisers.all()) == [anna]
    assert imported.created_at == LONG_AGO and imported.seed == 123456789
    assert imported.standings_version == event.standings_version > 0
    seat = Seat.objects.filter(round__event=imported, rank=1).first()
    assert isinstance(seat.placement_points, Decimal)


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
