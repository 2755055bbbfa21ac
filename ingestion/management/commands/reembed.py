"""``manage.py reembed [--model ID] [--batch N]``: bring every chunk to the current model.

Chunks whose ``embedding_model`` differs from the active embedder's id are re-embedded in
batches (through the embedding cache). Search compares only vectors of the current model,
so chunks not yet migrated are simply absent from dense results meanwhile, never mixed in.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from ingestion.models import Chunk
from ingestion.pipeline.embed import embed_passages_cached, get_embedder, passage_text


class Command(BaseCommand):
    help = "Menghitung ulang embedding chunk yang dibuat dengan model lain."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--model", default=None, help="id model yang diharapkan (harus model aktif)"
        )
        parser.add_argument("--batch", type=int, default=256)

    def handle(self, *args: Any, **options: Any) -> None:
        embedder = get_embedder()
        if options["model"] and options["model"] != embedder.model_id:
            raise CommandError(
                f"Model aktif adalah {embedder.model_id!r}, bukan {options['model']!r}; "
                "ubah konfigurasi model lalu jalankan lagi"
            )
        started = time.monotonic()
        done = 0
        last_id = 0
        while True:
            batch = list(
                Chunk.objects.exclude(embedding_model=embedder.model_id)
                .filter(id__gt=last_id)
                .order_by("id")
                .only("id", "text", "heading_path")[: options["batch"]]
            )
            if not batch:
                break
            texts = [passage_text(c.heading_path, c.text) for c in batch]
            vectors = embed_passages_cached(texts, embedder)
            done += _store(batch, vectors, embedder.model_id)
            last_id = batch[-1].id
        elapsed = time.monotonic() - started
        self.stdout.write(f"reembed: {done} chunk → {embedder.model_id} dalam {elapsed:.1f} dtk")


def _store(batch: list[Chunk], vectors: list[list[float]], model_id: str) -> int:
    """Write the vectors of chunks whose text is still the one embedded.

    A reviewer may correct and approve a chunk while its batch is being embedded; that
    approval stores the right vector, which a vector of the old text must not overwrite.
    """
    with transaction.atomic():
        current = {
            pk: (text, heading)
            for pk, text, heading in Chunk.objects.select_for_update()
            .filter(id__in=[c.id for c in batch])
            .exclude(embedding_model=model_id)
            .values_list("id", "text", "heading_path")
        }
        fresh = []
        for chunk, vector in zip(batch, vectors, strict=True):
            if current.get(chunk.id) == (chunk.text, chunk.heading_path):
                chunk.embedding = vector
                chunk.embedding_model = model_id
                fresh.append(chunk)
        Chunk.objects.bulk_update(fresh, ["embedding", "embedding_model"])
    return len(fresh)
