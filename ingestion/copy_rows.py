"""New rows of a model written with one binary COPY, for the index stage's chunks and units.

A regulation's index stage writes hundreds of chunks and legal units, most with a vector of
384 floats. ``bulk_create`` builds an INSERT's SQL in Python and spells each vector out as
decimal text, which the server then parses back: together about a tenth of a corpus
import's time (docs/decisions.md, "The index stage writes its rows by binary COPY"). A
binary COPY sends the same rows as they are, the vectors as float32.

Like ``bulk_create``: no ``save()``, no signals, and the objects get their primary keys.
Generated columns are left to the database and not read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connections, models
from pgvector import Vector
from pgvector.django import VectorField
from pgvector.psycopg.vector import VectorBinaryDumper

M = TypeVar("M", bound=models.Model)

_COLUMN_TYPES = """
    SELECT a.attname, a.atttypid, t.typname
      FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
     WHERE a.attrelid = %s::regclass AND a.attnum > 0 AND NOT a.attisdropped
"""
_NEW_IDS = "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)"


def copy_insert(model: type[M], objs: Sequence[M], using: str = "default") -> list[M]:
    """Insert ``objs`` (new rows) with one COPY and give each its primary key."""
    if not objs:
        return list(objs)
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.generated]
    names = [str(f.column) for f in fields]
    connection = connections[using]
    quote = connection.ops.quote_name
    table = quote(meta.db_table)  # also for regclass: a mixed-case name stays itself
    for obj in objs:  # as bulk_create: an unsaved related object is an error, not a NULL
        # Django's own check, which bulk_create calls; the stubs omit private methods.
        obj._prepare_related_fields_for_save(operation_name="copy_insert")  # type: ignore[attr-defined]
    # Django's error wrapper, as for its own queries: callers catch django.db's errors.
    with connection.cursor() as cursor, connection.wrap_database_errors:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        _assign_ids(raw, table, meta, objs)
        types = column_types(raw, table)
        columns = ", ".join(quote(name) for name in names)
        sql = f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)"
        with raw.copy(sql) as copy:
            copy.set_types([types[name] for name in names])
            for obj in objs:
                copy.write_row([_value(f, obj, connection) for f in fields])
    for obj in objs:
        obj._state.adding = False
        obj._state.db = using
    return list(objs)


def _assign_ids(raw: Any, table: str, meta: Any, objs: Sequence[models.Model]) -> None:
    """Ids from the table's own sequence, so concurrent writers never collide."""
    missing = [obj for obj in objs if obj.pk is None]
    if not missing:
        return
    raw.execute(_NEW_IDS, [table, meta.pk.column, len(missing)])
    new_ids = [new_id for (new_id,) in raw.fetchall()]
    if None in new_ids:
        raise ValueError(f"{table}.{meta.pk.column} has no sequence: give every row its key")
    # Ascending, as bulk_create would number them: readers that order by id see the
    # document order.
    for obj, new_id in zip(missing, sorted(new_ids), strict=True):
        obj.pk = new_id


def column_types(raw: Any, table: str) -> dict[str, int]:
    """Each column's type oid. The vector type's oid differs between databases (it is an
    extension's), so its binary dumper is registered on this cursor under that oid."""
    raw.execute(_COLUMN_TYPES, [table])
    types = {}
    for name, oid, type_name in raw.fetchall():
        types[name] = oid
        if type_name == "vector":
            dumper = type("VectorBinaryDumper", (VectorBinaryDumper,), {"oid": oid})
            raw.adapters.register_dumper(Vector, dumper)
    return types


def _value(field: models.Field[Any, Any], obj: models.Model, connection: Any) -> Any:
    value = field.pre_save(obj, add=True)  # auto_now_add and the like, as bulk_create
    if isinstance(field, VectorField):
        # As float32, not as the decimal text get_db_prep_save would spell out.
        if value is None or isinstance(value, Vector):
            return value
        return Vector(value if isinstance(value, list) else list(value))
    return field.get_db_prep_save(value, connection)
