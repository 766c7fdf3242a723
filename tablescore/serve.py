"""``tablescore serve``: the data folder's database made ready, then the evening served until Ctrl+C."""

from __future__ import annotations

import os
import sys
import threading
import webbrowser

from tablescore import __version__
from tablescore.data_folder import use_data_folder

#: Listening on one of these serves the laptop and every phone on its networks.
EVERY_ADDRESS = {"0.0.0.0", "::", ""}


def serve(data: str | None, *, host: str, port: int, browser: bool) -> int:
    folder = use_data_folder(data)
    say(f"Tablescore {__version__}. Your tournaments are kept in {folder}")
    venue = host in EVERY_ADDRESS
    phones = venue_addresses(port) if venue else []
    here = f"http://{'127.0.0.1' if venue else host}:{port}"

    from config.wsgi import application
    from tablescore.server import PortInUse, create_server

    try:
        server = create_server(application, host, port)
    except PortInUse as error:
        say(str(error))
        return 1
    prepare_the_evening(here)
    if venue:
        for address in phones:
            say(f"Phones: {address}/ (on the same Wi-Fi as this laptop; the address on QR codes and printed links)")
        if not phones:
            say("Phones: no network address found; connect this laptop to the venue's Wi-Fi and start again.")
    say(f"Tablescore is ready: open {here}/ on this laptop. Ctrl+C stops it.")
    if browser and can_open_a_browser():
        threading.Thread(target=webbrowser.open, args=(f"{here}/accounts/login/",), daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    say("Tablescore stopped.")
    return 0


def prepare_the_evening(here: str) -> None:
    """The database brought up to date (a new one, or one an upgrade finds older), the demo in an empty one, the
    organiser's account made the first time and its login printed."""
    from django.core.management import call_command

    say("Getting the database ready...")
    call_command("migrate", interactive=False, verbosity=0)
    call_command("load_demo", if_empty=True)
    call_command("ensure_organiser", address=here)


def venue_addresses(port: int) -> list[str]:
    """The laptop's addresses on its local networks; Django answers there and QR codes carry the first, unless
    ``ALLOWED_HOSTS`` or ``PUBLIC_URL`` are set already (read before the settings are)."""
    from tournaments.public_address import lan_addresses, local_ips

    ips = local_ips()
    if not os.environ.get("ALLOWED_HOSTS"):
        os.environ["ALLOWED_HOSTS"] = ",".join(["127.0.0.1", "localhost", "[::1]", *ips])
    addresses = lan_addresses(port)
    if addresses and not os.environ.get("PUBLIC_URL"):
        os.environ["PUBLIC_URL"] = addresses[0]
    return addresses


def can_open_a_browser() -> bool:
    """A browser with a window can be opened: always on Windows and macOS; on Linux only with a display (else
    Python's ``webbrowser`` would start a text browser in this very terminal)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def say(line: str) -> None:
    print(line, flush=True)
