"""The statements a saved score sheet runs, written out once instead of compiled by the ORM at every save.

A save runs a handful of small statements; the ORM spends more time building each one than the database spends
running it, and a busy room saves a hundred sheets a second. These are plain SQL over the models' own table and
column names, the same on PostgreSQL and SQLite (made once per kind of database), with values prepared by the
models' fields.
"""

from __future__ import annotations

from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections

from ..joined_rows import Joined, column_sql, table_sql
from ..models import Manche, Player, Round, Seat, SheetRevision, Table

#: The fields a save writes on its manche, in this order (besides the version, which it counts up).
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
#: The fields of a revision a save keeps, in this order.
REVISION_FIELDS = (
    "manche",
    "version",
    "before",
    "after",
    "changed_at",
    "user",
    "via",
    "seat",
    "player",
    "device",
    "after_completion",
)
MANCHE = Joined((Manche, "m"))


@cache
def sql(vendor: str) -> dict[str, str]:
    """The text of each statement for this kind of database."""
    table, column = table_sql, column_sql
    lock = " FOR UPDATE OF t" if connections[DEFAULT_DB_ALIAS].features.has_select_for_update_of else ""
    pk = connections[DEFAULT_DB_ALIAS].ops.quote_name("id")
    version = column(Manche, "version")
    assignments = ", ".join(f"{column(Manche, name)} = %s" for name in SHEET_FIELDS)
    revision_columns = ", ".join(column(SheetRevision, name) for name in REVISION_FIELDS)
    return {
        "seated": f"SELECT s.{pk}, p.{column(Player, 'name')} FROM {table(Seat)} s "
        f"JOIN {table(Player)} p ON p.{pk} = s.{column(Seat, 'player')} "
        f"WHERE s.{column(Seat, 'table')} = %s ORDER BY s.{column(Seat, 'position')}",
        "lock": f"SELECT t.{column(Table, 'status')}, r.{column(Round, 'status')} FROM {table(Table)} t "
        f"JOIN {table(Round)} r ON r.{pk} = t.{column(Table, 'round')} WHERE t.{pk} = %s{lock}",
        "manches": f"SELECT {MANCHE.columns()} FROM {table(Manche)} m "
        f"WHERE m.{column(Manche, 'table')} = %s ORDER BY m.{column(Manche, 'number')}",
        "sheet": f"UPDATE {table(Manche)} SET {assignments}, {version} = {version} + 1 "
        f"WHERE {pk} = %s AND {version} = %s",
        "revision": f"INSERT INTO {table(SheetRevision)} ({revision_columns}) "
        f"VALUES ({', '.join(['%s'] * len(REVISION_FIELDS))})",
    }


def prepared(db, model, names: tuple[str, ...], values: dict) -> list:
    """The database values of ``values`` (field name: Python value, a row for a foreign key) in ``names``' order."""
    result = []
    for name in names:
        field, value = model._meta.get_field(name), values[name]
        if hasattr(value, "prepare_database_save"):
            value = value.prepare_database_save(field)
        result.append(field.get_db_prep_save(value, db))
    return result


def run(statement: str, params: list):
    """A cursor of the default database that ran ``statement`` (a key of ``sql``) with ``params``."""
    db = connections[DEFAULT_DB_ALIAS]
    cursor = db.cursor()
    cursor.execute(sql(db.vendor)[statement], params)
    return cursor


def seated(table_id: int) -> list[tuple[int, str]]:
    """Each seat of the table and its player's name, in seat order."""
    with run("seated", [table_id]) as cursor:
        return [(pk, name) for pk, name in cursor.fetchall()]


def lock_table(table_id: int) -> tuple[str, str]:
    """Inside a transaction: wait for every other change of the table's sheets or status, and keep them waiting
    (the table's row is locked; SQLite has one writer at a time); returns the table's status and its round's.

    Each such change locks the table's row first and its manches, seats and event after it, so none waits for
    another in a circle; what is read after this is what the one before committed.
    """
    with run("lock", [table_id]) as cursor:
        row = cursor.fetchone()
    if row is None:
        raise Table.DoesNotExist(f"table {table_id}")
    return row


def table_manches(table_id: int) -> list[Manche]:
    """The table's manches, in order, as they are now (a statement of its own, so after any lock taken)."""
    with run("manches", [table_id]) as cursor:
        return [manche for (manche,) in MANCHE.instances(cursor.fetchall())]


def update_sheet(manche_id: int, based_on: int, sheet: dict) -> bool:
    """Store ``sheet`` (every field of SHEET_FIELDS) and count the version up if the manche is still at
    ``based_on``; False when it is not."""
    db = connections[DEFAULT_DB_ALIAS]
    with run("sheet", [*prepared(db, Manche, SHEET_FIELDS, sheet), manche_id, based_on]) as cursor:
        return cursor.rowcount == 1


def insert_revision(values: dict) -> None:
    """Keep one accepted change in the audit trail (``values``: every field of REVISION_FIELDS)."""
    db = connections[DEFAULT_DB_ALIAS]
    with run("revision", prepared(db, SheetRevision, REVISION_FIELDS, values)):
        pass
