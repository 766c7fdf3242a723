"""Rows of a few models joined by one hand-written statement, made into model instances as the ORM would.

For the statements run at every request of a busy room, where compiling a ``select_related`` query costs more
than running it: the columns are the models' own, and each value goes through the converters the ORM applies.
"""

from __future__ import annotations

from django.db import connection


class Joined:
    """The columns of ``models`` (each under its alias) and how to read their values back."""

    def __init__(self, *models: tuple[type, str]):
        self.models = models

    def columns(self) -> str:
        quote = connection.ops.quote_name
        return ", ".join(
            f"{alias}.{quote(field.column)}" for model, alias in self.models for field in model._meta.concrete_fields
        )

    def converters(self) -> list[tuple]:
        """For each column: its field's expression and the converters the ORM would apply to its value."""
        return [
            (col, connection.ops.get_db_converters(col) + field.get_db_converters(connection))
            for model, alias in self.models
            for field in model._meta.concrete_fields
            for col in [field.get_col(alias)]
        ]

    def instances(self, rows) -> list[list]:
        """For each row of ``columns()``, one instance of each model."""
        converters = self.converters()
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
                attnames = [field.attname for field in fields]
                instances.append(model.from_db(connection.alias, attnames, values[start : start + len(fields)]))
                start += len(fields)
            made.append(instances)
        return made
