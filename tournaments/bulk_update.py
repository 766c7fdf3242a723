"""Many rows changed at once, each to its own values, in one UPDATE a batch.

Django's ``bulk_update`` builds a ``CASE WHEN`` per row and column in Python, which costs more than the rest of a
save or the standings' whole ranking; this joins the rows' new values as a ``VALUES`` list instead (``UPDATE ...
FROM``, which both PostgreSQL and SQLite 3.33+ understand). Every value is cast to its column's type, so a column
of NULLs or of mixed numbers reads the same on both.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db import connections, router

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
    """Set ``fields`` of each row given as ``(pk, *values)``; returns how many rows were given."""
    if not rows:
        return 0
    connection = connections[router.db_for_write(model)]
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
