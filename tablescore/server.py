"""The app server of an installed Tablescore: granian, the same on Windows, macOS and Linux.

Chosen by ``benchmarks/load.py --server`` on SQLite against waitress (pure Python, one process) and gunicorn (Unix
only): as fast as gunicorn, and with one worker (as on Windows, where granian runs a single one) still ahead of
waitress at saves' 99th percentile. Its workers are started afresh (``spawn``), as Windows and macOS always do, so
that no process inherits another's database connection.
"""

from __future__ import annotations

import multiprocessing
import socket
import sys

from granian import Granian
from granian.constants import Interfaces
from granian.log import LogLevels

#: The WSGI application every worker imports for itself.
APPLICATION = "config.wsgi:application"
#: Worker processes and the threads each runs requests in: two processes on the laptop's cores; one on Windows,
#: where granian cannot share a listening socket between processes, with as many threads in all.
WORKERS, THREADS = (1, 8) if sys.platform == "win32" else (2, 4)


class PortInUse(Exception):
    """Another program (often Tablescore started twice) listens on the port already."""


def check_port(host: str, port: int) -> None:
    """Raise PortInUse, with what to do, when ``host:port`` cannot be listened on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if sys.platform != "win32":
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise PortInUse(
                f"Port {port} is in use already: is Tablescore running in another window? "
                f"Close it, or start this one with --port {port + 1}. ({error.strerror or error})"
            ) from error


def create_server(host: str, port: int) -> Granian:
    """A granian server for ``host:port``, not yet serving: ``serve()`` serves until Ctrl+C."""
    check_port(host, port)
    multiprocessing.set_start_method("spawn", force=True)
    return Granian(
        APPLICATION,
        address=host,
        port=port,
        interface=Interfaces.WSGI,
        workers=WORKERS,
        blocking_threads=THREADS,
        websockets=False,
        log_level=LogLevels.warning,
    )
