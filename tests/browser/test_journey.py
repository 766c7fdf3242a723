"""A tournament day in a real browser, as the organiser and the players live it, for two games.

The organiser logs in, sets up the tournament, imports the players, seats, publishes (each confirmed on its own
page), starts and prints round 1.
Players open their table's link on a phone, make a mistake, see it, fix it, and a second phone
confirms; the public standings, open in another tab, change without a reload. The other sheets go in
through the JSON API, round 2 is seated and played, and the final standings add up.
"""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tournaments.models import Player

from .helpers import enter_remaining_sheets, screenshot, settled, table_tokens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-browser-password"
PLAYERS_CSV = """name,club,team
Alba Rossi,Mele Club,
Bruno Verdi,Pere Club,
Carla Bianchi,Mele Club,
Dario Neri,Pere Club,
Elena Gallo,Mele Club,
Fabio Conti,Pere Club,
Giulia Ferri,Mele Club,
Hugo Marin,Pere Club,
"""
PLAYERS = 8
TABLES = 2
#: What a full table of four shares in tournament points each round (4/2/1/0).
POINTS_PER_TABLE = 7


def messages(page: Page):
    """The messages the app shows after an action (a status list under the header)."""
    return page.locator("ul.messages")


def manche_region(page: Page, number: int, word: str = "Manche"):
    return page.get_by_role("region", name=re.compile(rf"^{word} {number}(\s|$)"))


# The organiser's steps


def log_in(page: Page, username: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="Organiser login").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My tournaments")).to_be_visible()


def create_event(page: Page, name: str, game: str, manches: int) -> str:
    """Fill in the event form; returns the event's slug, read from the desk's address."""
    page.get_by_role("link", name="New tournament", exact=True).click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Date").fill("2026-11-21")
    page.get_by_label("Venue").fill("Circolo Scacchi e Carte")
    page.get_by_label("Game", exact=True).select_option(label=game)
    expect(page.get_by_label("Manches per round")).to_have_value(str(manches))
    page.get_by_label("Rounds planned").fill("2")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tournament desk")
    expect(messages(page)).to_contain_text(f"The tournament “{name}” is set up.")
    return re.search(r"/e/([^/]+)/organiser/", page.url).group(1)


def import_players(page: Page) -> None:
    page.get_by_role("navigation", name="Tournament pages").get_by_role("link", name="Players").click()
    page.locator("summary", has_text="More").click()
    page.get_by_role("link", name="Import a list of players (CSV)").click()
    page.get_by_label("Or paste the list").fill(PLAYERS_CSV)
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#import-preview").get_by_role("status")).to_contain_text(f"{PLAYERS} to import")
    expect(page.get_by_role("cell", name="Hugo Marin Club: Pere Club")).to_be_visible()
    page.get_by_role("button", name=f"Import {PLAYERS} players").click()
    expect(messages(page)).to_contain_text(f"{PLAYERS} players imported.")
    expect(page.locator("#player-list ~ table tbody tr")).to_have_count(PLAYERS)


def open_desk(page: Page, event_name: str) -> None:
    page.get_by_role("link", name="My tournaments").click()
    page.get_by_role("link", name=event_name).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tournament desk")


def open_own_link(phone: Page, slug: str, name: str) -> None:
    """A player opens their own link (the QR code of their card) and goes to the sheet waiting for them."""
    player = Player.objects.get(event__slug=slug, name=name)
    phone.goto(f"/p/{player.token}/")
    phone.get_by_role("link", name="Check and confirm").click()
    phone.wait_for_url(re.compile(r"/tables/\d+/"))  # loaded, its script in place, before any press


def seat_publish_and_start(page: Page, number: int) -> None:
    """Seat from the desk (a page says who will be seated; its button seats), publish (confirmed), start."""
    page.get_by_role("button", name=f"Seat round {number}").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Seat round {number}")
    expect(page.locator("main")).to_contain_text(f"all {PLAYERS} active players will be seated at {TABLES} tables")
    page.get_by_role("button", name=f"Seat round {number}").click()
    expect(messages(page)).to_contain_text(f"Round {number} is seated.")
    expect(page.locator(".table-card")).to_have_count(TABLES)
    page.get_by_role("link", name="Publish the seating").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Publish the seating of round {number}")
    page.get_by_role("button", name="Publish the seating").click()
    expect(messages(page)).to_contain_text(f"Round {number} is published.")
    page.get_by_role("button", name="Start the round").click()
    expect(messages(page)).to_contain_text(f"Round {number} is in play.")


def print_sheets(page: Page) -> list[str]:
    """Fetch the round page's score sheets link as the organiser: a sheet per table, one or two a PDF page, each
    with its link; the links in table order."""
    link = page.get_by_role("link", name="Print the score sheets (PDF)")
    response = page.request.get(link.get_attribute("href"))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.body()))
    assert TABLES / 2 <= len(pdf.pages) <= TABLES
    tokens = [token for p in pdf.pages for token in table_tokens(p.extract_text())]
    assert len(tokens) == len(set(tokens)) == TABLES
    return tokens


def complete_round(page: Page, event_name: str, number: int) -> None:
    open_desk(page, event_name)
    expect(page.locator("#desk-board-title")).to_have_text(f"Round {number}: the tables")
    expect(page.locator("#desk-board .board-tile")).to_have_count(TABLES)
    rounds = page.locator("#desk-rounds")
    rounds.get_by_role("link", name=f"Round {number}").click()
    page.get_by_role("link", name="Complete the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Complete round {number}")
    page.get_by_role("button", name="Complete the round").click()
    expect(messages(page)).to_contain_text(f"Round {number} is complete.")


def standings_numbers(page: Page) -> list[dict[str, str]]:
    """The standings table's rows as {column header: cell text}."""
    headers = [h.strip() for h in page.locator("#standings thead th").all_inner_texts()]
    rows = []
    for row in page.locator("#standings tbody tr").all():
        rows.append(dict(zip(headers, [c.strip() for c in row.locator("td").all_inner_texts()])))
    return rows


def watch_for_reloads(page: Page) -> list[str]:
    """Marks the page's window and records each navigation of its main frame."""
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    page.evaluate("() => { window.sameDocument = 'never reloaded'; }")
    return navigations


def assert_not_reloaded(page: Page, navigations: list[str]) -> None:
    assert navigations == []
    assert page.evaluate("() => window.sameDocument") == "never reloaded"


def check_final_standings(standings: Page, desk: Page, event_name: str) -> None:
    """Every player played both rounds, the places run in order, and the points add up to what the tables gave."""
    expect(standings.locator("#standings tbody tr td:last-child")).to_have_text(["2"] * PLAYERS)
    rows = standings_numbers(standings)
    assert [int(r["Rank"]) for r in rows] == sorted(int(r["Rank"]) for r in rows)
    assert sum(float(r["Tournament points"]) for r in rows) == 2 * TABLES * POINTS_PER_TABLE
    open_desk(desk, event_name)
    expect(desk.locator("p.meta")).to_contain_text("Finished")


def play_round_2(desk: Page, event_name: str) -> None:
    open_desk(desk, event_name)
    seat_publish_and_start(desk, 2)
    for shift, token in enumerate(print_sheets(desk)):
        assert enter_remaining_sheets(desk.request, token, shift=shift) >= 1
    complete_round(desk, event_name, 2)


# The stories


def test_a_vegetables_tournament_day(page, phone, django_user_model):
    django_user_model.objects.create_user("ada", password=PASSWORD)
    desk = page
    name = "Autumn VEGEtables Cup"
    log_in(desk, "ada")
    slug = create_event(desk, name, game="VEGEtables", manches=4)
    import_players(desk)
    open_desk(desk, name)
    seat_publish_and_start(desk, 1)
    tokens = print_sheets(desk)

    standings = desk.context.new_page()
    standings.goto(f"/e/{slug}/standings/")
    expect(standings.locator("#standings")).to_contain_text("No results yet.")
    reloads = watch_for_reloads(standings)

    first_phone = phone()
    first_phone.goto(f"/t/{tokens[0]}/")
    seated = first_phone.locator("ol.seats li").all_inner_texts()
    assert len(seated) == 4
    manche = manche_region(first_phone, 1)
    first_phone.get_by_role("group", name="I am").get_by_role("radio", name=seated[0], exact=True).check()
    sheet = {"Pozzo": ["30", "0", "20", "10"], "Sequences (crosses)": [6, 2, 5, 2]}
    sheet |= {"Family bonuses (+30)": [1, 0, 0, 0], "Paid penalties (−50)": [0, 1, 0, 0]}
    for row, values in sheet.items():
        for player, value in zip(seated, values):
            if row == "Pozzo":
                pozzo = manche.get_by_role("group", name=f"{row}: {player}")
                pozzo.get_by_role("radio", name=value, exact=True).check()
            else:
                manche.get_by_label(f"{row}: {player}").fill(str(value))
    expect(manche.locator(".checks")).to_contain_text("Sequences (crosses): 15 of 16 ✗")
    settled(first_phone)
    manche.get_by_role("button", name="Save").click()

    crosses = manche.get_by_role("alert").filter(has_text="Sequences (crosses)")
    expect(crosses).to_have_text("Sequences (crosses): A manche has 16 sequences; these add up to 15.")
    expect(manche.get_by_label(f"Sequences (crosses): {seated[3]}")).to_have_value("2")
    settled(first_phone)
    crosses.scroll_into_view_if_needed()
    screenshot(first_phone, "table-entry-error-phone")
    manche.get_by_label(f"Sequences (crosses): {seated[3]}").fill("3")
    expect(manche.locator(".checks")).to_contain_text("Sequences (crosses): 16 of 16 ✓")
    settled(first_phone)
    manche.get_by_role("button", name="Save").click()
    expect(manche.get_by_role("status")).to_have_text(
        "Saved. Another player now confirms it with their own player card. Next: Manche 2"
    )
    ranking = manche.get_by_role("table", name="Result at the table")
    expect(ranking.locator("tbody tr").first).to_contain_text(f"1{seated[0]}120")

    leader = standings.locator("#standings tbody tr").first
    expect(leader).to_contain_text(seated[0])
    expect(leader.locator("td").nth(5)).to_have_text("120")
    assert_not_reloaded(standings, reloads)

    second_phone = phone()
    open_own_link(second_phone, slug, seated[1])
    manche_region(second_phone, 1).get_by_role("button", name=f"Confirm this result as {seated[1]}").click()
    expect(manche_region(second_phone, 1).get_by_role("status")).to_have_text("Confirmed. Thank you! Next: Manche 2")
    expect(manche_region(second_phone, 1).get_by_role("heading", level=2)).to_contain_text("Confirmed")

    for shift, token in enumerate(tokens):
        enter_remaining_sheets(first_phone.request, token, shift=shift)
    complete_round(desk, name, 1)
    expect(messages(desk)).to_contain_text("have sheets that no second player confirmed")

    play_round_2(desk, name)
    check_final_standings(standings, desk, name)
    assert_not_reloaded(standings, reloads)


def test_a_cheese_rescue_tournament_day(page, phone, django_user_model):
    django_user_model.objects.create_user("ada", password=PASSWORD)
    desk = page
    name = "Cheese Rescue Spring Open"
    log_in(desk, "ada")
    slug = create_event(desk, name, game="Cheese Rescue", manches=1)
    import_players(desk)
    open_desk(desk, name)
    seat_publish_and_start(desk, 1)
    tokens = print_sheets(desk)

    standings = desk.context.new_page()
    standings.goto(f"/e/{slug}/standings/")
    expect(standings.locator("#standings")).to_contain_text("No results yet.")
    reloads = watch_for_reloads(standings)

    first_phone = phone()
    first_phone.goto(f"/t/{tokens[1]}/")
    seated = first_phone.locator("ol.seats li").all_inner_texts()
    game = manche_region(first_phone, 1, word="Game")
    first_phone.get_by_role("group", name="I am").get_by_role("radio", name=seated[2], exact=True).check()
    # The first player kept all six cheeses (10 points) but "1" goes in as their cards left.
    for player, (points, cards) in zip(seated, [(10, 1), (6, 3), (4, 2), (1, 1)]):
        game.get_by_label(f"Cheese points left: {player}").fill(str(points))
        game.get_by_label(f"Cheese cards left: {player}").fill(str(cards))
    expect(game.locator("#live-1-0")).to_contain_text("not possible with the cards left ✗")
    settled(first_phone)
    game.get_by_role("button", name="Save", exact=True).click()
    points = game.get_by_label(f"Cheese points left: {seated[0]}")
    expect(points).to_have_attribute("aria-invalid", "true")
    expect(game.get_by_role("group", name=seated[0]).get_by_role("alert")).to_have_text(
        "10 points cannot come from 1 of the cheeses 1, 1, 1, 2, 2 and 3, only 1 to 3."
    )
    expect(game.locator(".save-refused")).to_have_text(
        f"Not saved: check what is marked in red. {seated[0].split()[0]}"
    )
    expect(points).to_have_accessible_description(re.compile("^10 points cannot come from 1"))
    settled(first_phone)
    game.get_by_label(f"Cheese cards left: {seated[0]}").fill("6")
    expect(game.locator("#live-1-0")).to_contain_text("possible with the cards left ✓")
    settled(first_phone)
    game.get_by_role("button", name="Save", exact=True).click()
    expect(game.get_by_role("status")).to_have_text("Saved. Another player now confirms it with their own player card.")
    expect(game.get_by_role("table", name="Result at the table").locator("tbody tr").first).to_contain_text(
        f"1{seated[0]}10"
    )

    leader = standings.locator("#standings tbody tr").first
    expect(leader).to_contain_text(seated[0])
    expect(leader.locator("td").nth(5)).to_have_text("10")
    assert_not_reloaded(standings, reloads)

    second_phone = phone()
    open_own_link(second_phone, slug, seated[0])
    manche_region(second_phone, 1, word="Game").get_by_role(
        "button", name=f"Confirm this result as {seated[0]}"
    ).click()
    expect(manche_region(second_phone, 1, word="Game").get_by_role("status")).to_have_text("Confirmed. Thank you!")

    enter_remaining_sheets(first_phone.request, tokens[0])
    complete_round(desk, name, 1)
    expect(messages(desk)).to_contain_text("Table 1 has sheets that no second player confirmed.")

    play_round_2(desk, name)
    check_final_standings(standings, desk, name)
    assert_not_reloaded(standings, reloads)
