"""Every statement the app writes out as SQL instead of asking the ORM for it, in one place.

Each is here for one reason: it runs at every save or poll of a busy room, where compiling an ORM query costs more
than the database spends running it, or it says something the ORM cannot (a lock of one table of a join, an
``UPDATE ... FROM (VALUES ...)``, PostgreSQL's advisory lock). The text is made from the models' own table and
column names, once per kind of database, and means the same on PostgreSQL and SQLite (3.33 or later); rows read
come back as model instances through the ORM's own converters (``Joined``). ``tests/test_sql.py`` runs every one
of them on both databases.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from decimal import Decimal
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections

from .models import Event, Manche, Player, Round, Seat, SheetRevision, Table


def db():
    return connections[DEFAULT_DB_ALIAS]


def table_sql(model) -> str:
    """The model's table name, quoted for the default database."""
    return db().ops.quote_name(model._meta.db_table)


def column_sql(model, name: str) -> str:
    """The column of the model's field ``name``, quoted for the default database."""
    return db().ops.quote_name(model._meta.get_field(name).column)


class Joined:
    """The columns of ``models`` (each under its alias) and how to read a row of them back as model instances."""

    def __init__(self, *models: tuple[type, str]):
        self.models = models
        self._columns: dict[str, str] = {}
        self._converters: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def columns(self) -> str:
        """The select list for the default database."""
        connection = db()
        if connection.vendor not in self._columns:
            quote = connection.ops.quote_name
            self._columns[connection.vendor] = ", ".join(
                f"{alias}.{quote(field.column)}"
                for model, alias in self.models
                for field in model._meta.concrete_fields
            )
        return self._columns[connection.vendor]

    def _converters_of(self, connection) -> list[tuple]:
        found = self._converters.get(connection)
        if found is None:
            found = self._converters[connection] = [
                (col, connection.ops.get_db_converters(col) + field.get_db_converters(connection))
                for model, alias in self.models
                for field in model._meta.concrete_fields
                for col in [field.get_col(alias)]
            ]
        return found

    def instances(self, rows) -> list[list]:
        """For each row of ``columns()``, one instance of each model (None for a model whose key is NULL)."""
        connection = db()
        converters = self._converters_of(connection)
        made = []
        for row in rows:
            values = []
            for value, (col, functions) in zip(row, converters, strict=True):
                for function in functions:
                    value = function(value, col, connection)
                values.append(value)
            start, instances = 0, []
            for model, _alias in self.models:
                fields = model._meta.concrete_fields
                own = values[start : start + len(fields)]
                names = [field.attname for field in fields]
                instances.append(None if own[0] is None else model.from_db(connection.alias, names, own))
                start += len(fields)
            made.append(instances)
        return made


def run(text: str, params: Sequence):
    """A cursor of the default database that ran ``text`` with ``params``."""
    cursor = db().cursor()
    cursor.execute(text, params)
    return cursor


def prepared(model, names: Sequence[str], values: dict) -> list:
    """The database values of ``values`` (field name: Python value, a row for a foreign key) in ``names``' order."""
    connection = db()
    result = []
    for name in names:
        field, value = model._meta.get_field(name), values[name]
        if hasattr(value, "prepare_database_save"):
            value = value.prepare_database_save(field)
        result.append(field.get_db_prep_save(value, connection))
    return result


def pk_sql() -> str:
    return db().ops.quote_name("id")


# A table and whoever sits at it ----------------------------------------------------------------------------------

#: A table with its round, event, seats and their players: one row per seat, in seat order.
TABLE_SEATS = Joined((Table, "t"), (Round, "r"), (Event, "e"), (Seat, "s"), (Player, "p"))


@cache
def _table_seats_sql(vendor: str, key: str, published: bool) -> str:
    pk, column = pk_sql(), column_sql
    only_published = f"AND r.{column(Round, 'published')} " if published else ""
    return (
        f"SELECT {TABLE_SEATS.columns()} FROM {table_sql(Table)} t "
        f"JOIN {table_sql(Round)} r ON r.{pk} = t.{column(Table, 'round')} "
        f"JOIN {table_sql(Event)} e ON e.{pk} = r.{column(Round, 'event')} "
        f"LEFT JOIN {table_sql(Seat)} s ON s.{column(Seat, 'table')} = t.{pk} "
        f"LEFT JOIN {table_sql(Player)} p ON p.{pk} = s.{column(Seat, 'player')} "
        f"WHERE t.{column(Table, key)} = %s {only_published}ORDER BY s.{column(Seat, 'position')}"
    )


def table_seats(*, token: str | None = None, table_id: int | None = None, published: bool = False) -> list[list]:
    """The table of that token or id as rows of (table, round, event, seat, player), one per seat in seat order
    (one row with no seat and no player for a table nobody sits at); no row when there is no such table, or, with
    ``published``, when its round's seating is not published: the database answers both alike, in the same time."""
    key, value = ("token", token) if token is not None else ("id", table_id)
    with run(_table_seats_sql(db().vendor, key, published), [value]) as cursor:
        return TABLE_SEATS.instances(cursor.fetchall())


# A save's statements --------------------------------------------------------------------------------------------

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
    "entered_at",
    "key",
    "paper",
)
LOCKED_MANCHES = Joined((Table, "t"), (Round, "r"), (Manche, "m"))


@cache
def _save_sql(vendor: str) -> dict[str, str]:
    pk, column, table = pk_sql(), column_sql, table_sql
    version = column(Manche, "version")
    assignments = ", ".join(f"{column(Manche, name)} = %s" for name in SHEET_FIELDS)
    revision_columns = ", ".join(column(SheetRevision, name) for name in REVISION_FIELDS)
    return {
        "lock": f"SELECT {pk} FROM {table(Table)} WHERE {pk} = %s FOR UPDATE",
        "read": f"SELECT {LOCKED_MANCHES.columns()} FROM {table(Table)} t "
        f"JOIN {table(Round)} r ON r.{pk} = t.{column(Table, 'round')} "
        f"LEFT JOIN {table(Manche)} m ON m.{column(Manche, 'table')} = t.{pk} "
        f"WHERE t.{pk} = %s ORDER BY m.{column(Manche, 'number')}",
        "sheet": f"UPDATE {table(Manche)} SET {assignments}, {version} = {version} + 1 "
        f"WHERE {pk} = %s AND {version} = %s",
        "revision": f"INSERT INTO {table(SheetRevision)} ({revision_columns}) "
        f"VALUES ({', '.join(['%s'] * len(REVISION_FIELDS))})",
    }


def lock_table(table_id: int) -> tuple[Table, Round, list[Manche]]:
    """Inside a transaction: wait for every other change of the table's sheets or status and keep them waiting
    (the table's row is locked; SQLite has one writer at a time); returns the table, its round and its manches in
    order as they are now.

    Each change of a table's sheets or status locks the table's row first and its manches, seats and event after
    it, so none waits for another in a circle; what is read after this is what the one before committed.
    """
    statements = _save_sql(db().vendor)
    if db().features.has_select_for_update:
        # The lock first, the rows after, in a statement of their own: a statement that waited for the lock would
        # still read the rows as they were when it started, before the change it waited for.
        with run(statements["lock"], [table_id]):
            pass
    with run(statements["read"], [table_id]) as cursor:
        rows = LOCKED_MANCHES.instances(cursor.fetchall())
    if not rows:
        raise Table.DoesNotExist(f"table {table_id}")
    table, round_, _manche = rows[0]
    return table, round_, [manche for _t, _r, manche in rows if manche is not None]


def update_sheet(manche_id: int, based_on: int, sheet: dict) -> bool:
    """Store ``sheet`` (every field of SHEET_FIELDS) and count the version up if the manche is still at
    ``based_on``; False when it is not."""
    params = [*prepared(Manche, SHEET_FIELDS, sheet), manche_id, based_on]
    with run(_save_sql(db().vendor)["sheet"], params) as cursor:
        return cursor.rowcount == 1


def insert_revision(values: dict) -> None:
    """Keep one accepted change in the audit trail (``values``: every field of REVISION_FIELDS)."""
    with run(_save_sql(db().vendor)["revision"], prepared(SheetRevision, REVISION_FIELDS, values)):
        pass


# Many rows at once -----------------------------------------------------------------------------------------------

#: The values that columns of these types take as they are (the drivers adapt them): Django's preparation of them is
#: the same value again, at a cost that counts when a standings rebuild writes a thousand rows.
INTEGERS = (int, type(None))
AS_IS = {
    "AutoField": INTEGERS,
    "BigAutoField": INTEGERS,
    "BigIntegerField": INTEGERS,
    "IntegerField": INTEGERS,
    "PositiveBigIntegerField": INTEGERS,
    "PositiveIntegerField": INTEGERS,
    "PositiveSmallIntegerField": INTEGERS,
    "SmallAutoField": INTEGERS,
    "SmallIntegerField": INTEGERS,
    "DecimalField": (Decimal, type(None)),
}


def update_rows(model, fields: Sequence[str], rows: Sequence[tuple], batch_size: int = 500) -> int:
    """Set ``fields`` of each row given as ``(pk, *values)`` in one ``UPDATE ... FROM (VALUES ...)`` a batch;
    returns how many rows were given.

    Django's ``bulk_update`` builds a ``CASE WHEN`` per row and column in Python, which costs more than the rest of a
    save or the standings' whole ranking. Every value is cast to its column's type, so a column of NULLs or of mixed
    numbers reads the same on both databases.
    """
    if not rows:
        return 0
    connection = db()
    quote = connection.ops.quote_name
    opts = model._meta
    columns = [opts.get_field(name) for name in fields]
    casts = [f"CAST(%s AS {field.db_type(connection)})" for field in [opts.pk, *columns]]
    row_sql = f"({', '.join(casts)})"
    table = quote(opts.db_table)
    assignments = ", ".join(f"{quote(field.column)} = v.column{i}" for i, field in enumerate(columns, start=2))
    takes_as_is = {
        field: AS_IS[field.get_internal_type()] for field in [opts.pk, *columns] if field.get_internal_type() in AS_IS
    }
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch_size):
            batch = rows[start : start + batch_size]
            params = [
                value if type(value) in takes_as_is.get(field, ()) else field.get_db_prep_save(value, connection)
                for row in batch
                for field, value in zip([opts.pk, *columns], row)
            ]
            cursor.execute(
                f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row_sql] * len(batch))}) AS v "
                f"WHERE {table}.{quote(opts.pk.column)} = v.column1",
                params,
            )
    return len(rows)


def insert_rows(model, fields: Sequence[str], rows: Sequence[tuple], batch_size: int = 5000) -> None:
    """Insert plain rows (values of ``fields`` in order, already as the database takes them) in batches: for tens
    of thousands of rows, where a model instance each would take longer than the work that made them."""
    columns = ", ".join(column_sql(model, name) for name in fields)
    text = f"INSERT INTO {table_sql(model)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    with db().cursor() as cursor:
        for start in range(0, len(rows), batch_size):
            cursor.executemany(text, rows[start : start + batch_size])


# Standings' writers ----------------------------------------------------------------------------------------------

#: The PostgreSQL advisory lock namespace of the standings' writers (the second key is the event's id).
WRITER_LOCK = 0x5374616E  # "Stan"


def standings_writer_lock(event_id: int) -> None:
    """Inside a transaction: wait until no other transaction writes this event's standings (PostgreSQL; SQLite has
    one writer at a time)."""
    if db().vendor == "postgresql":
        with run("SELECT pg_advisory_xact_lock(%s, %s)", [WRITER_LOCK, event_id % 2**31]):
            pass


# SQLite files of their own (snapshots) ---------------------------------------------------------------------------


def sqlite_file_is_whole(connection) -> bool:
    """Whether the SQLite file behind ``connection`` (a ``sqlite3`` connection) passes SQLite's quick check."""
    return connection.execute("PRAGMA quick_check").fetchone()[0] == "ok"


def sqlite_file_tables(connection) -> set[str]:
    """The names of the tables of the SQLite file behind ``connection``."""
    return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def sqlite_file_self_contained(connection) -> None:
    """Make the SQLite file behind ``connection`` one file, with no write-ahead log beside it."""
    connection.execute("PRAGMA journal_mode=DELETE")
