"""``manage.py relink_regulations [--progress|--no-progress]``: rebuild the regulation graph.

After an extractor change (or to repair a graph an interrupted run left stale), every
document's relations are read again from its stored chunks, linked to the regulations in
the corpus, every in-force status recomputed and every consolidated text rebuilt — one
document per transaction, in
arrival order, through the same :func:`ingestion.relations.graph.refresh_document` the
pipeline uses. Either order gives the same graph, so the result does not depend on it.
A progress bar shows on a terminal (``--progress`` forces it, ``--no-progress`` hides it).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from ingestion.models import Consolidation, ConsolidationState, Document, RegulationRelation
from ingestion.relations.graph import refresh_document


class Command(BaseCommand):
    help = "Membangun ulang relasi perubahan/pencabutan dan status berlaku seluruh korpus."

    def add_arguments(self, parser: CommandParser) -> None:
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--progress", dest="progress", action="store_true", default=None)
        group.add_argument("--no-progress", dest="progress", action="store_false")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        stream = getattr(self.stderr, "_out", sys.stderr)
        show = options["progress"] if options["progress"] is not None else stream.isatty()
        ids = list(Document.objects.order_by("created_at", "id").values_list("id", flat=True))
        bar = tqdm(ids, desc="relasi", unit="dok", file=stream, disable=not show)
        for pk in bar:
            document = Document.objects.filter(pk=pk).first()
            if document is not None:  # deleted meanwhile
                refresh_document(document)
        bar.close()
        self.stdout.write(self._summary(len(ids), time.monotonic() - started))

    def _summary(self, documents: int, elapsed: float) -> str:
        relations = RegulationRelation.objects.count()
        linked = RegulationRelation.objects.filter(target_document__isnull=False).count()
        repealed = Document.objects.filter(in_force=False).count()
        consolidated = Consolidation.objects.filter(state=ConsolidationState.BUILT).count()
        return (
            f"relink_regulations: {documents} dokumen, {relations} relasi ({linked} tertaut),"
            f" {repealed} dokumen tidak berlaku, {consolidated} naskah konsolidasi,"
            f" dalam {elapsed:.1f} dtk"
        )
