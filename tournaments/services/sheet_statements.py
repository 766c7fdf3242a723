"""The statements a saved score sheet runs, written out once instead of compiled by the ORM at every save.

A save runs a handful of small statements; the ORM spends more time building each one than the database spends
running it, and a busy room saves a hundred sheets a second. These are plain SQL over the models' own table and
column names, the same on PostgreSQL and SQLite, with values prepared by the models' fields.
"""

from __future__ import annotations

from django.db import connection

from ..joined_rows import Joined
from ..models import Manche, Player, Round, Seat, SheetRevision, Table

#: The fields a save writes on its manche (besides the version, which it counts up).
SHEET_FIELDS = (
    "document",
    "result",
    "entered_by",
    "entered_seat",
    "entered_via",
    "entered_player",
    "entered_device",
    "entered_at",
    "confirmed_seat",
    "confirmed_via",
    "confirmed_player",
    "confirmed_by",
    "confirmed_device",
    "confirmed_at",
)
MANCHE = Joined((Manche, "m"))


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table_name(model) -> str:
    return quote(model._meta.db_table)


def column(model, name: str) -> str:
    return quote(model._meta.get_field(name).column)


def prepared(model, values: dict) -> list:
    """The database values of ``values`` (field name: Python value, a row for a foreign key), in order."""
    result = []
    for name, value in values.items():
        field = model._meta.get_field(name)
        if hasattr(value, "prepare_database_save"):
            value = value.prepare_database_save(field)
        result.append(field.get_db_prep_save(value, connection))
    return result


def seated(table_id: int) -> list[tuple[int, str]]:
    """Each seat of the table and its player's name, in seat order."""
    seat, player = table_name(Seat), table_name(Player)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.{quote('id')}, p.{column(Player, 'name')} FROM {seat} s "
            f"JOIN {player} p ON p.{quote('id')} = s.{column(Seat, 'player')} "
            f"WHERE s.{column(Seat, 'table')} = %s ORDER BY s.{column(Seat, 'position')}",
            [table_id],
        )
        return [(pk, name) for pk, name in cursor.fetchall()]


def lock_table(table_id: int) -> tuple[str, str]:
    """Inside a transaction: lock the table's row (PostgreSQL) and return its status and its round's."""
    table, round_ = table_name(Table), table_name(Round)
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.{column(Table, 'status')}, r.{column(Round, 'status')} FROM {table} t "
            f"JOIN {round_} r ON r.{quote('id')} = t.{column(Table, 'round')} WHERE t.{quote('id')} = %s{lock}",
            [table_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise Table.DoesNotExist(f"table {table_id}")
    return row


def table_manches(table_id: int) -> list[Manche]:
    """The table's manches, in order, as they are now (a statement of its own, so after any lock taken)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {MANCHE.columns()} FROM {table_name(Manche)} m "
            f"WHERE m.{column(Manche, 'table')} = %s ORDER BY m.{column(Manche, 'number')}",
            [table_id],
        )
        return [manche for (manche,) in MANCHE.instances(cursor.fetchall())]


def update_sheet(manche_id: int, based_on: int, sheet: dict) -> bool:
    """Store ``sheet`` and count the version up if the manche is still at ``based_on``; False when it is not."""
    assignments = ", ".join(f"{column(Manche, name)} = %s" for name in sheet)
    version = column(Manche, "version")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table_name(Manche)} SET {assignments}, {version} = {version} + 1 "
            f"WHERE {quote('id')} = %s AND {version} = %s",
            [*prepared(Manche, sheet), manche_id, based_on],
        )
        return cursor.rowcount == 1


def insert_revision(values: dict) -> None:
    """Keep one accepted change in the audit trail (``values``: field name: value)."""
    columns = ", ".join(column(SheetRevision, name) for name in values)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table_name(SheetRevision)} ({columns}) VALUES ({', '.join(['%s'] * len(values))})",
            prepared(SheetRevision, values),
        )
