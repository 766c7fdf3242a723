"""Rows of a few models joined by one hand-written statement, made into model instances as the ORM would.

For the statements run at every request of a busy room, where compiling a ``select_related`` query costs more
than running it: the columns are the models' own, and each value goes through the converters the ORM applies.
"""

from __future__ import annotations

import weakref

from django.db import DEFAULT_DB_ALIAS, connections


def table_sql(model) -> str:
    """The model's table name, quoted for the default database."""
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(model._meta.db_table)


def column_sql(model, name: str) -> str:
    """The column of the model's field ``name``, quoted for the default database."""
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(model._meta.get_field(name).column)


class Joined:
    """The columns of ``models`` (each under its alias) and how to read their values back."""

    def __init__(self, *models: tuple[type, str]):
        self.models = models
        self._columns: dict[str, str] = {}
        self._converters: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def columns(self) -> str:
        """The select list, for the default database (the same text every time, so made once per kind)."""
        db = connections[DEFAULT_DB_ALIAS]
        if db.vendor not in self._columns:
            quote = db.ops.quote_name
            self._columns[db.vendor] = ", ".join(
                f"{alias}.{quote(field.column)}"
                for model, alias in self.models
                for field in model._meta.concrete_fields
            )
        return self._columns[db.vendor]

    def converters(self, db) -> list[tuple]:
        """For each column: its field's expression and the converters the ORM would apply to its value (worked
        out once per connection)."""
        found = self._converters.get(db)
        if found is None:
            found = self._converters[db] = [
                (col, db.ops.get_db_converters(col) + field.get_db_converters(db))
                for model, alias in self.models
                for field in model._meta.concrete_fields
                for col in [field.get_col(alias)]
            ]
        return found

    def instances(self, rows) -> list[list]:
        """For each row of ``columns()``, one instance of each model."""
        db = connections[DEFAULT_DB_ALIAS]
        converters = self.converters(db)
        made = []
        for row in rows:
            values = []
            for value, (col, functions) in zip(row, converters, strict=True):
                for function in functions:
                    value = function(value, col, db)
                values.append(value)
            start, instances = 0, []
            for model, _alias in self.models:
                fields = model._meta.concrete_fields
                instances.append(
                    model.from_db(db.alias, [field.attname for field in fields], values[start : start + len(fields)])
                )
                start += len(fields)
            made.append(instances)
        return made
