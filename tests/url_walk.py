"""Every URL of the project, from the URLconf: its routes with real values for their parts, an evening to fill them
from, the clients of who may come (anonymous, a table link, a player link, the organiser, another organiser), the
forms each page shows, and a fingerprint of the database to tell a refused request changed nothing.

Shared by the fuzzer over every URL and the walk that finds nothing of an unpublished round.
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import io
import re
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote, urlsplit

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve
from django.urls.resolvers import RegexPattern, RoutePattern
from PIL import Image

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Club, Event, PaperSheet, Person, Player, Rating, Round, Season, SheetRevision, Team
from tournaments.models.rounds import RoundStatus

PASSWORD = "a-long-test-password"
#: The unpublished round's clock, in seconds: 47:13, a time no other clock of the evening shows.
HIDDEN_CLOCK = 47 * 60 + 13
ROLES = ("anonymous", "table_link", "player_link", "organiser", "other_organiser")
#: Rows that change whatever the request's answer: sessions (a login, a visit) and the login throttle's failures.
NOT_FINGERPRINTED = {"sessions.session", "axes.accessattempt", "axes.accessfailurelog", "axes.accesslog"}


# The routes ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One URL pattern: its name (or its template when it has none) and its template, whose parts are written
    ``<converter:name>`` (``<re:name>`` for a regular expression's group)."""

    key: str
    template: str
    converters: dict = field(hash=False, compare=False, default_factory=dict)

    @property
    def kwargs(self) -> list[str]:
        return PART.findall(self.template)

    def path(self, values: dict[str, str]) -> str:
        """The URL with ``values`` in its parts, each quoted as a browser would."""
        return "/" + PART_WITH_CONVERTER.sub(lambda m: quote(str(values[m[2]]), safe=""), self.template)


PART = re.compile(r"<(?:\w+:)?(\w+)>")
PART_WITH_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


def regex_template(pattern: str) -> str:
    """A regular expression's pattern as a template: anchors dropped, each named group a ``<re:name>`` part."""
    text = pattern.lstrip("^").rstrip("$").replace("\\", "")
    out, i = [], 0
    while i < len(text):
        found = re.match(r"\(\?P<(\w+)>", text[i:])
        if not found:
            out.append(text[i])
            i += 1
            continue
        depth, j = 1, i + found.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        out.append(f"<re:{found[1]}>")
        i = j
    return "".join(out)


def piece(pattern) -> str:
    if isinstance(pattern, RoutePattern):
        return str(pattern)
    if isinstance(pattern, RegexPattern):
        return regex_template(pattern.regex.pattern)
    raise TypeError(f"a URL pattern of a kind the walk does not know: {pattern!r}")


def routes() -> list[Route]:
    """Every URL pattern of the URLconf, keyed by its namespaced name (its template when unnamed)."""
    found: dict[str, Route] = {}

    def walk(patterns, prefix: str, namespace: str, converters: dict) -> None:
        for item in patterns:
            here = prefix + piece(item.pattern)
            known = {**converters, **getattr(item.pattern, "converters", {})}
            if isinstance(item, URLResolver):
                inner = ":".join(filter(None, [namespace, item.namespace]))
                walk(item.url_patterns, here, inner, known)
            elif isinstance(item, URLPattern):
                key = ":".join(filter(None, [namespace, item.name])) if item.name else here
                found.setdefault(key, Route(key, here, known))

    walk(get_resolver().url_patterns, "", "", {})
    return list(found.values())


# The evening -----------------------------------------------------------------------------------------------------


@dataclass
class Evening:
    """The rows every route's parts are filled from."""

    organiser: object
    other_organiser: object
    event: Event
    other_event: Event
    private_event: Event
    club: Club
    other_club: Club
    season: Season
    played: Round
    hidden: Round
    table: object
    hidden_table: object
    player: Player
    person: Person
    paper: PaperSheet
    revision: SheetRevision


def tiny_jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (40, 30), 200).save(buffer, "JPEG")
    return buffer.getvalue()


def new_event(name: str, slug: str, players: int = 8, **fields) -> Event:
    defaults = {"table_size": 4, "manches_per_round": 1, "rounds_planned": 3, "game": "cheese-rescue"}
    event = Event.objects.create(name=name, slug=slug, date=datetime.date(2026, 11, 21), **{**defaults, **fields})
    Player.objects.bulk_create(
        Player(event=event, name=f"{name} Player {i:02d}", club="Club A" if i % 2 else "Club B") for i in range(players)
    )
    return event


def build_evening() -> Evening:
    """An organiser's event whose round 1 is published and in play, a sheet saved at its first table and a paper
    sheet waiting at its second; round 2 seated but not published, a sheet entered at the desk and its clock set
    to ``HIDDEN_CLOCK``; a private event; a club with people and a season; another organiser with his own event
    and club."""
    users = get_user_model()
    organiser = users.objects.create_superuser("boss", password=PASSWORD)
    other = users.objects.create_user("ada", password=PASSWORD)
    club = Club.objects.create(name="Circolo Ludico Roma")
    club.organisers.add(organiser)
    other_club = Club.objects.create(name="Tana dei Goblin")
    other_club.organisers.add(other)

    event = new_event("Friday Cup", "friday-cup", club=club, status="running")
    event.organisers.add(organiser)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    Team.objects.create(event=event, name="Team A")
    played = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)
    table = played.tables.get(number=1)
    enter(table, cheese_tallies([6, 4, 2, 1]))
    hidden = seat_by_hand(event, 2, [[ids[0], ids[4], ids[5], ids[6]], [ids[1], ids[2], ids[3], ids[7]]])
    Round.objects.filter(pk=hidden.pk).update(published=False, clock_seconds=HIDDEN_CLOCK)
    hidden.refresh_from_db()
    hidden_table = hidden.tables.get(number=1)
    enter(hidden_table, cheese_tallies([9, 5, 3, 1]))

    player = event.players.get(pk=ids[0])
    people = []
    for each in event.players.order_by("pk")[:4]:
        each.person = Person.objects.create(club=club, name=each.name)
        each.save(update_fields=["person"])
        people.append(each.person)
    Rating.objects.create(person=people[0], game=event.game, mu=25, sigma=8, ordinal=1, previous_ordinal=0)
    season = Season.objects.create(club=club, name="Winter 2026")
    season.events.add(event)

    revision = SheetRevision.objects.filter(manche__table=table).order_by("pk").first()
    SheetRevision.objects.filter(pk=revision.pk).update(paper=tiny_jpeg())
    paper = PaperSheet.objects.create(
        table=played.tables.get(number=2), picture=tiny_jpeg(), width=40, height=30, fields=[], source="IMG_1.jpg"
    )

    private_event = new_event("Secret Cup", "secret-cup", players=4, public=False)
    private_event.organisers.add(organiser)
    seat_by_hand(private_event, 1, [list(private_event.players.values_list("pk", flat=True))])
    other_event = new_event("Goblin Night", "goblin-night", players=4, club=other_club)
    other_event.organisers.add(other)
    seat_by_hand(other_event, 1, [list(other_event.players.values_list("pk", flat=True))])
    users.objects.get(pk=other.pk).groups.create(name="Scorers")

    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    seen = {"user_agent": "test", "ip_address": "10.0.0.9", "username": "nobody", "http_accept": "*/*"}
    AccessAttempt.objects.create(
        **seen, path_info="/accounts/login/", get_data="", post_data="", failures_since_start=1
    )
    AccessFailureLog.objects.create(**seen, path_info="/accounts/login/")
    AccessLog.objects.create(**seen, path_info="/accounts/login/")
    return Evening(
        organiser=organiser,
        other_organiser=other,
        event=event,
        other_event=other_event,
        private_event=private_event,
        club=club,
        other_club=other_club,
        season=season,
        played=played,
        hidden=hidden,
        table=table,
        hidden_table=hidden_table,
        player=player,
        person=people[0],
        paper=paper,
        revision=revision,
    )


class Unfillable(LookupError):
    """A route has a part the evening gives no value for: the walk must be taught it."""


def admin_object(template: str):
    """The first row of the model an admin route's template names (``admin/<app>/<model>/...``)."""
    found = re.match(r"admin/(\w+)/(\w+)/", template)
    if not found:
        raise Unfillable(f"{template}: an admin object id outside admin/<app>/<model>/")
    model = apps.get_model(found[1], found[2])
    row = model._base_manager.order_by("pk").first()
    if row is None:
        raise Unfillable(f"{template}: the evening has no {model._meta.label} row; add one to build_evening()")
    return row


def real_values(route: Route, evening: Evening, table=None) -> dict[str, str]:
    """The evening's values for every part of ``route``; ``table`` is the table whose token table routes take.

    Raises ``Unfillable`` naming the part when the evening has no value for it: a new converter or part name
    must be taught here, so that a new view is fuzzed with real values rather than only refused ones.
    """
    t = route.template
    table = table or evening.table
    values = {}
    for name in route.kwargs:
        if name == "slug" and t.startswith("e/"):
            values[name] = evening.event.slug
        elif name == "slug" and t.startswith(("organiser/clubs/", "c/")):
            values[name] = evening.club.slug
        elif name == "token" and t.startswith(("t/", "api/tables/")):
            values[name] = table.token
        elif name == "token" and t.startswith("p/"):
            values[name] = evening.player.token
        elif name == "table_id":
            values[name] = table.pk
        elif name == "number":
            values[name] = 1
        elif name == "player_id":
            values[name] = evening.player.pk
        elif name == "person_id":
            values[name] = evening.person.pk
        elif name == "season_id":
            values[name] = evening.season.pk
        elif name == "paper_id":
            values[name] = evening.paper.pk
        elif name == "revision_id":
            values[name] = evening.revision.pk
        elif name == "object_id" and t.startswith("admin/r/"):
            values[name] = evening.event.pk
        elif name == "content_type_id":
            values[name] = ContentType.objects.get_for_model(Event).pk
        elif name == "object_id":
            values[name] = admin_object(t).pk
        elif name == "id" and t.startswith("admin/auth/user/"):
            values[name] = evening.organiser.pk
        elif name == "app_label":
            values[name] = "tournaments"
        elif name == "url" and t.startswith("admin/"):
            values[name] = "no-such-page/"
        else:
            raise Unfillable(f"{route.key} ({t}): no value for <{name}>; teach tests/url_walk.py real_values() it")
    return values


# Who comes -------------------------------------------------------------------------------------------------------


def role_client(role: str, evening: Evening, table=None) -> Client:
    """A browser as ``role``: nobody, a phone that opened a table's link and said its seat, a phone that opened a
    player's link, the event's organiser (staff), another organiser who runs only his own event."""
    client = Client(raise_request_exception=False)
    if role == "table_link":
        token = (table or evening.table).token
        client.get(f"/t/{token}/")
        client.post(f"/t/{token}/seat/", {"seat": "1"})
    elif role == "player_link":
        client.get(f"/p/{evening.player.token}/")
    elif role == "organiser":
        client.force_login(evening.organiser)
    elif role == "other_organiser":
        client.force_login(evening.other_organiser)
    elif role != "anonymous":
        raise ValueError(role)
    return client


def send(client: Client, method: str, path: str, **kwargs):
    """One request, the client's cookies as they were before it (a logout or a language switch is not kept)."""
    cookies = copy.deepcopy(client.cookies)
    try:
        return getattr(client, method.lower())(path, **kwargs)
    finally:
        client.cookies = cookies


def rolled_back(function, *args, **kwargs):
    """``function``'s result, whatever it wrote to the database undone."""
    with transaction.atomic():
        result = function(*args, **kwargs)
        transaction.set_rollback(True)
    return result


# The forms pages show ------------------------------------------------------------------------------------------


class Forms(HTMLParser):
    """Each form's targets (action, hx-post, hx-get, a button's formaction) and the names of its controls."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[set[str], set[str]]] = []
        self.loose: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = {k: v or "" for k, v in attrs}
        targets = {attributes[a] for a in ("action", "hx-post", "hx-get", "formaction") if a in attributes}
        if tag == "form":
            self.forms.append((targets or {""}, set()))
            return
        into = self.forms[-1] if self.forms else None
        if into is not None:
            into[0].update(targets)
        if tag in ("input", "select", "textarea", "button") and attributes.get("name"):
            (into[1] if into is not None else self.loose).add(attributes["name"])


def route_of(path: str) -> str | None:
    """The key of the route ``path`` resolves to, None when it resolves to none or to an unnamed one."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name if match.url_name else None


def form_fields(pages: dict[str, str]) -> dict[str, set[str]]:
    """The control names of every form of ``pages`` (URL -> HTML), by the route (its key) each form is sent to."""
    fields: dict[str, set[str]] = defaultdict(set)
    for url, html in pages.items():
        parser = Forms()
        parser.feed(html)
        for targets, names in parser.forms:
            for target in targets:
                path = urlsplit(target).path if target else url
                if not path.startswith("/"):
                    continue
                key = route_of(path)
                if key:
                    fields[key] |= names - {"csrfmiddlewaretoken"}
    return fields


# The database's fingerprint ------------------------------------------------------------------------------------


def plain(value):
    return bytes(value) if isinstance(value, memoryview) else value


def fingerprint() -> dict[str, str]:
    """A digest of every row of every model (sessions and login failures left out), by model."""
    digests = {}
    for model in apps.get_models(include_auto_created=True):
        label = model._meta.label_lower
        if label in NOT_FINGERPRINTED:
            continue
        rows = model._base_manager.order_by("pk").values_list()
        digest = hashlib.sha256(repr([tuple(plain(v) for v in row) for row in rows]).encode()).hexdigest()
        digests[label] = digest
    return digests


@contextmanager
def writes_seen():
    """The INSERT, UPDATE and DELETE statements run inside the block, but those of the rows not fingerprinted: a
    request that wrote nothing changed nothing, and the whole fingerprint is taken only after one that did."""
    seen: list[str] = []
    skipped = tuple(apps.get_model(label)._meta.db_table for label in NOT_FINGERPRINTED)

    def record(execute, sql, params, many, context):
        if sql.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE") and not any(t in sql for t in skipped):
            seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


def changed_models(before: dict[str, str]) -> list[str]:
    after = fingerprint()
    return sorted(label for label, digest in after.items() if before.get(label) != digest)
