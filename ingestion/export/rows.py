"""Rows as JSON lines: one object per row, keyed by column (``attname``), values in JSON."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.db import models

from ingestion.export.tables import Table, stored_fields


def _default(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "tolist"):  # a pgvector embedding read back as a numpy array
        return value.tolist()
    raise TypeError(f"not exportable: {type(value).__name__}")


def dumps(row: dict[str, Any]) -> str:
    return json.dumps(row, default=_default, ensure_ascii=False, separators=(",", ":"))


def columns(table: Table) -> list[models.Field]:  # type: ignore[type-arg]
    fields = stored_fields(table.model)
    if not table.fields:
        return fields
    return [f for f in fields if f.name in table.fields]


def queryset(table: Table) -> models.QuerySet[Any]:
    manager = table.model._default_manager
    query = manager.filter(table.only) if table.only is not None else manager.all()
    return query.order_by("pk")


def read(table: Table) -> Iterator[dict[str, Any]]:
    """The table's rows from the database, in primary-key order."""
    names = [f.attname for f in columns(table)]
    extra = list(table.extra)
    lookups = names + list(table.extra.values())
    for values in queryset(table).values_list(*lookups).iterator(chunk_size=1000):
        yield dict(zip(names + extra, values, strict=True))
