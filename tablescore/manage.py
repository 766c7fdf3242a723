"""``tablescore manage ...``: Django's management commands against the installed app's data folder."""

from __future__ import annotations

from tablescore.data_folder import use_data_folder


def manage(data: str | None, arguments: list[str]) -> int:
    """Run ``arguments`` (``migrate``, ``snapshot_database``, ``read_sheets FILE``...) as ``manage.py`` would."""
    use_data_folder(data)
    from django.core.management import execute_from_command_line

    from config.env import ensure_secret_key

    ensure_secret_key()
    execute_from_command_line(["tablescore manage", *(arguments or ["help"])])
    return 0
