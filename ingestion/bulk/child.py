"""What a spawned import worker runs. A spawned child unpickles its initializer before
Django is set up, so this module imports no model at its top: the initializer sets Django
up with the parent's settings, and only then is the import code loaded."""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING, Any

import django
from django.conf import settings
from django.db import connections

if TYPE_CHECKING:
    from ingestion.bulk.items import ImportItem
    from ingestion.bulk.one import ImportSettings, ItemResult


def child_started(snapshot: dict[str, Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    for name, value in snapshot.items():
        setattr(settings, name, value)
    django.setup()


def child_import(item: ImportItem, options: ImportSettings) -> ItemResult:
    from ingestion.bulk.one import import_item

    try:
        return import_item(item, options)
    finally:
        connections.close_all()  # between files: a child may sit idle for long
