"""The app server of an installed Tablescore: waitress, pure Python, the same on Windows, macOS and Linux."""

from __future__ import annotations

import waitress

#: Requests served at once. One process: the live pages' renders and the rate limits are shared through files and
#: the database anyway, and SQLite takes one writer at a time.
THREADS = 8
#: Open connections kept (each phone and screen keeps one); below the 512 sockets ``select`` watches on Windows.
CONNECTION_LIMIT = 400


class PortInUse(Exception):
    """Another program (often Tablescore started twice) listens on the port already."""


def create_server(application, host: str, port: int):
    """A waitress server bound to ``host:port``, not yet serving (``run()`` serves until Ctrl+C)."""
    try:
        return waitress.create_server(
            application,
            host=host,
            port=port,
            threads=THREADS,
            connection_limit=CONNECTION_LIMIT,
            ident="Tablescore",
            clear_untrusted_proxy_headers=True,
        )
    except OSError as error:
        raise PortInUse(
            f"Port {port} is in use already: is Tablescore running in another window? "
            f"Close it, or start this one with --port {port + 1}. ({error.strerror or error})"
        ) from error
