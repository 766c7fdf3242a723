"""The ``tablescore`` command: serve the evening, or run one of Django's management commands on the same data."""

from __future__ import annotations

import argparse
import sys

from tablescore import __version__

DESCRIPTION = """\
Tablescore keeps the scores of a card-game club's tournament: players, tables, score sheets and live standings.

Run `tablescore` on the laptop at the desk: it gets its database ready (the first time with a demo tournament),
prints the organiser's login and the address phones open at the venue, opens the desk in your browser and serves
until you press Ctrl+C. Your tournaments stay in your own data folder, also when Tablescore is upgraded.
"""

EPILOG = """\
examples:
  tablescore                          serve the laptop and the phones on the same Wi-Fi
  tablescore serve --port 8080        the same on another port
  tablescore serve --host 127.0.0.1   this laptop alone, no phones
  tablescore --data D:\\Club serve     keep the tournaments in another folder
  tablescore manage snapshot_database a copy of the whole database, now
  tablescore manage help              every management command
"""


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="tablescore",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    main.add_argument("--version", action="version", version=f"Tablescore {__version__}")
    main.add_argument("--data", metavar="DIR", help=data_help())
    commands = main.add_subparsers(dest="command", metavar="COMMAND")

    serve = commands.add_parser(
        "serve", help="Serve the tournaments (what `tablescore` alone does).", description="Serve the tournaments."
    )
    serve.add_argument("--data", metavar="DIR", default=argparse.SUPPRESS, help=data_help())
    serve.add_argument(
        "--host",
        default="0.0.0.0",
        help="The address to listen on: 0.0.0.0 (the default) for this laptop and the phones on its network, "
        "127.0.0.1 for this laptop alone.",
    )
    serve.add_argument("--port", type=int, default=8000, help="The port to listen on (8000).")
    serve.add_argument("--no-browser", action="store_true", help="Do not open the desk in a browser.")

    manage = commands.add_parser(
        "manage",
        help="Run a management command on the same data (backups, snapshots, read_sheets...).",
        description="Run one of Django's management commands on the same data folder: `tablescore manage help` "
        "lists them.",
    )
    manage.add_argument("--data", metavar="DIR", default=argparse.SUPPRESS, help=data_help())
    manage.add_argument("arguments", nargs=argparse.REMAINDER, help="The command and its options.")
    return main


def data_help() -> str:
    from tablescore.data_folder import default_data_folder

    return f"The folder that keeps your tournaments (default {default_data_folder()})."


def main(argv: list[str] | None = None) -> int:
    options = parser().parse_args(sys.argv[1:] if argv is None else argv)
    if options.command == "manage":
        from tablescore.manage import manage

        return manage(options.data, options.arguments)
    from tablescore.serve import serve

    return serve(
        options.data,
        host=getattr(options, "host", "0.0.0.0"),
        port=getattr(options, "port", 8000),
        browser=not getattr(options, "no_browser", False),
    )
