"""``tablescore serve``: the data folder's database made ready, then the evening served until Ctrl+C."""

from __future__ import annotations

import http.client
import os
import sys
import threading
import time
import webbrowser
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from tablescore import __version__
from tablescore.data_folder import use_data_folder

#: Listening on one of these serves the laptop and every phone on its networks.
EVERY_ADDRESS = {"0.0.0.0", "::", ""}
#: How long the workers may take to start (each reads the app and readies its templates) before it is said.
READY_SECONDS = 120


def serve(data: str | None, *, host: str, port: int, browser: bool) -> int:
    folder = use_data_folder(data)
    say(f"Tablescore {__version__}. Your tournaments are kept in {folder}")
    venue = host in EVERY_ADDRESS
    if venue:
        answer_at_the_venue(port)
    here = f"http://{'127.0.0.1' if venue else f'[{host}]' if ':' in host else host}:{port}"

    from tablescore.server import PortInUse, create_server

    try:
        server = create_server(host, port)
    except PortInUse as error:
        say(str(error))
        return 1
    try:
        prepare_the_evening(here)
    except ImproperlyConfigured as error:
        say(f"Tablescore cannot start: {error}")
        return 1
    if venue:
        from django.core.management import call_command

        call_command("network_addresses", port=str(port))
    threading.Thread(target=say_when_ready, args=(here, browser), daemon=True).start()
    try:
        server.serve()
    finally:
        say("Tablescore stopped.")
    return 0


def prepare_the_evening(here: str) -> None:
    """The settings checked, the database brought up to date (a new one, or one an upgrade finds older), the demo
    in an empty one, the organiser's account made the first time and its login printed. The server's workers
    then start afresh, with none of this process's connections."""
    import django
    from django.core.management import call_command
    from django.db import connections

    from config.env import ensure_secret_key
    from tournaments.startup_checks import refuse_to_serve_if_misconfigured

    ensure_secret_key()
    django.setup()
    refuse_to_serve_if_misconfigured()
    say("Getting the database ready...")
    call_command("migrate", interactive=False, verbosity=0)
    call_command("load_demo", if_empty=True)
    call_command("ensure_organiser", address=here)
    connections.close_all()


def say_when_ready(here: str, browser: bool, seconds: float = READY_SECONDS) -> None:
    """Once the server answers: say so, and open the desk in a browser when asked and one can be opened."""
    deadline = time.monotonic() + seconds
    while not answers(here):
        if time.monotonic() > deadline:
            say(f"Tablescore did not answer at {here}/ within {seconds:.0f} s; see the messages above.")
            return
        time.sleep(0.2)
    say(f"Tablescore is ready: open {here}/ on this laptop. Ctrl+C stops it.")
    if browser and can_open_a_browser():
        webbrowser.open(f"{here}/accounts/login/")


def answers(here: str) -> bool:
    """Whether the server at ``here`` answers a request for its home page at all."""
    address = urlsplit(here)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=2)
    try:
        connection.request("GET", "/")
        connection.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def answer_at_the_venue(port: int) -> None:
    """Django answers at the laptop's addresses on its local networks and QR codes carry the first, unless
    ``ALLOWED_HOSTS`` or ``PUBLIC_URL`` are set already (as ``make run HOST=0.0.0.0`` does; before the settings are
    read)."""
    from config.env import LOCAL_HOSTS
    from tournaments.public_address import lan_addresses, local_ips

    if not os.environ.get("ALLOWED_HOSTS"):
        os.environ["ALLOWED_HOSTS"] = ",".join([*LOCAL_HOSTS, *local_ips()])
    addresses = lan_addresses(port)
    if addresses and not os.environ.get("PUBLIC_URL"):
        os.environ["PUBLIC_URL"] = addresses[0]


def can_open_a_browser() -> bool:
    """A browser with a window can be opened: always on Windows and macOS; on Linux only with a display (else
    Python's ``webbrowser`` would start a text browser in this very terminal)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def say(line: str) -> None:
    print(line, flush=True)
