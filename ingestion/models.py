"""Documents, their chunks, the jobs that ingest them and each job's timeline.

The contract's identity rules live in the database, not only in code:
``unique(sourceType, source_version, source_key)`` and ``unique(checksum, source_version)``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import Case, F, Func, Q, Value, When
from django.db.models.fields.json import KT, KeyTextTransform
from django.db.models.functions import Concat
from django.db.models.lookups import Exact
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from ingestion.legal.units import UnitKind
from ingestion.sources import SourceType


def digest_of(*cases: When, default: models.Expression) -> Func:
    """sha256 of the passage a row's vector was made from, as the passage is built in
    ``cases``; equal to ``ingestion.pipeline.embed.passage_digest`` of the same text.
    ``passage_sha256`` is migration 0018's immutable wrapper of ``convert_to`` (only stable,
    and a generated column needs immutable)."""
    passage = Case(*cases, default=default)
    return Func(passage, function="passage_sha256", output_field=models.BinaryField())


NEWLINE = Value("\n", output_field=models.TextField())


class DocumentStatus(models.TextChoices):
    """Allowed transitions.

    queued → processing → indexed | needs_review | failed
    queued → skipped                  (structured-source no-op, duplicate content)
    failed → queued                   (reprocess / partner retry)
    indexed | needs_review → processing   (reprocess, corrected in place)
    needs_review → indexed            (the last parked chunk was reviewed)
    indexed | needs_review | failed → archived
    archived → queued                 (reprocess)
    """

    QUEUED = "queued", "Dalam antrean"
    PROCESSING = "processing", "Diproses"
    INDEXED = "indexed", "Terindeks"
    NEEDS_REVIEW = "needs_review", "Perlu ditinjau"
    FAILED = "failed", "Gagal"
    SKIPPED = "skipped", "Dilewati"
    ARCHIVED = "archived", "Diarsipkan"


# Documents in these states are invisible: never searched, never a relation's target.
HIDDEN_STATUSES = (DocumentStatus.ARCHIVED.value, DocumentStatus.FAILED.value)

COMPLETED_STATUSES = (
    DocumentStatus.INDEXED,
    DocumentStatus.NEEDS_REVIEW,
    DocumentStatus.ARCHIVED,
)
# Never found by search, never the edition a relation or a newer edition counts on.
HIDDEN_STATUSES = (DocumentStatus.ARCHIVED, DocumentStatus.FAILED)


class Document(models.Model):
    """One edition of a source document. Its UUID is the ``aiDocumentId`` of stage events.

    ``metadata`` holds ``source_key``, ``source_version`` and ``source`` (partner
    provenance and the kept sourceMetadata keys). Editions of one source share
    ``source_key``; there is no supersede link.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    source_type = models.CharField(
        max_length=16, choices=SourceType.choices, db_column="sourceType"
    )
    metadata = models.JSONField(default=dict, blank=True)
    registry_id = models.CharField(max_length=64, blank=True, default="")
    collection_id = models.CharField(max_length=64, blank=True, default="")
    collection_name = models.CharField(max_length=200, blank=True, default="")
    uploaded_by = models.CharField(max_length=150, blank=True, default="")

    title = models.CharField(max_length=500)
    title_labels = models.TextField(blank=True, default="")
    # The regulation's short citation ("PP 34/2021"), from sourceMetadata, the title or the
    # document's own heading (ingestion.legal.citation); blank when it is not a regulation.
    citation = models.CharField(max_length=200, blank=True, default="")
    title_search = models.GeneratedField(
        expression=SearchVector("title", "title_labels", config="indonesian"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    file_name = models.CharField(max_length=300)
    mime_type = models.CharField(max_length=150)
    format = models.CharField(max_length=16)
    storage_key = models.CharField(max_length=1024)
    checksum = models.CharField(max_length=64, db_index=True)
    size_bytes = models.BigIntegerField(default=0)
    page_count = models.PositiveIntegerField(null=True, blank=True)
    ocr_confidence = models.FloatField(null=True, blank=True)

    status = models.CharField(
        max_length=16, choices=DocumentStatus.choices, default=DocumentStatus.QUEUED
    )
    failure_reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    indexed_at = models.DateTimeField(null=True, blank=True)
    # The regulation this document is (ingestion.legal.relations): a match key such as
    # "uu|13|2003" and the normalised region, for linking relations found elsewhere.
    regulation_key = models.CharField(max_length=120, blank=True, default="", db_index=True)
    regulation_region = models.CharField(max_length=100, blank=True, default="")
    # True / False / None (unknown: not a regulation). Shared by every edition of a source
    # key; recomputed by ingestion.legal.inforce whenever a relation or status_berlaku moves.
    in_force = models.BooleanField(null=True, blank=True)

    class Meta:
        db_table = "documents"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                models.F("source_type"),
                KeyTextTransform("source_version", "metadata"),
                KeyTextTransform("source_key", "metadata"),
                name="documents_unique_type_version_key",
            ),
            models.UniqueConstraint(
                models.F("checksum"),
                KeyTextTransform("source_version", "metadata"),
                name="documents_unique_checksum_version",
            ),
        ]
        indexes = [
            models.Index(
                models.F("source_type"),
                KeyTextTransform("source_key", "metadata"),
                name="documents_type_source_key",
            ),
            models.Index(fields=["status", "-created_at"], name="documents_status_created"),
            GinIndex(fields=["title_search"], name="documents_title_search"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def source_key(self) -> str:
        return str(self.metadata.get("source_key", ""))

    @staticmethod
    def of_source(source_type: str, source_key: str) -> Q:
        """The documents of one source (every edition). It compares the key as text, as the
        index on both does: a JSON equality on ``metadata`` reads every document (8 ms of a
        search's notes at 5,879 documents)."""
        return Q(source_type=source_type) & Q(Exact(KT("metadata__source_key"), source_key))

    @property
    def source_version(self) -> str:
        return str(self.metadata.get("source_version", ""))

    @property
    def source(self) -> dict[str, Any]:
        value = self.metadata.get("source")
        return value if isinstance(value, dict) else {}


class ReviewState(models.TextChoices):
    """Only parked chunks (``indexed=False``) move: pending → approved | rejected."""

    NONE = "", "—"
    PENDING = "pending", "Menunggu tinjauan"
    APPROVED = "approved", "Disetujui"
    REJECTED = "rejected", "Ditolak"


class Chunk(models.Model):
    """A searchable passage. ``indexed=False`` means parked for review: never searchable."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    ordinal = models.PositiveIntegerField()
    text = models.TextField()
    heading_path = models.TextField(blank=True, default="")
    page_from = models.PositiveIntegerField(default=1)
    page_to = models.PositiveIntegerField(default=1)
    token_count = models.PositiveIntegerField(default=0)
    ocr_confidence = models.FloatField(null=True, blank=True)
    indexed = models.BooleanField(default=True)
    review_state = models.CharField(
        max_length=16, choices=ReviewState.choices, default=ReviewState.NONE, blank=True
    )
    embedding = VectorField(dimensions=settings.EMBEDDING_DIM, null=True, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True, default="")
    # Where the chunk sits on its pages (see ingestion/pipeline/regions.py); None when not
    # recorded (formats without pages, or ingested before boxes were kept).
    regions = models.JSONField(null=True, blank=True)
    search_vector = models.GeneratedField(
        expression=SearchVector("heading_path", "text", config="indonesian"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    # sha256 of the passage the vector was made from (ingestion.pipeline.embed.passage_text):
    # a passage met again takes this row's vector instead of the model's.
    passage_digest = models.GeneratedField(
        expression=digest_of(
            When(heading_path="", then=F("text")),
            default=Concat(F("heading_path"), NEWLINE, F("text")),
        ),
        output_field=models.BinaryField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["document", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["document", "ordinal"], name="chunk_unique_ordinal"),
        ]
        indexes = [
            HnswIndex(
                name="chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            GinIndex(fields=["search_vector"], name="chunk_search_vector_gin"),
            models.Index(
                fields=["passage_digest"],
                condition=models.Q(embedding__isnull=False),
                name="chunk_passage_digest",
            ),
            models.Index(
                fields=["document"],
                condition=models.Q(indexed=False),
                name="chunk_parked",
            ),
            # The dashboard's "last 500 OCR'd chunks": an index-only backward scan.
            models.Index(
                fields=["-id"],
                condition=models.Q(ocr_confidence__isnull=False),
                include=["ocr_confidence"],
                name="chunk_ocr_recent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.document_id}#{self.ordinal}"


class LegalUnit(models.Model):
    """A Pasal, ayat, huruf or angka of a regulation, located inside one chunk's text.

    ``chunk.text[start:end]`` is the unit's text; ``text`` keeps a copy and ``context`` the
    heading path and the lead-in of its parents, which the lexical index reads with it.
    PENJELASAN units (``penjelasan=True``) point at the unit they explain (``explains``).
    Rows are replaced with their chunks on every (re)index; they never change in place.
    """

    # No index of their own: (document, pasal) leads with the document, and Django's index
    # on the chunk key already serves every by-chunk look-up; a second copy of either
    # only costs writes.
    document = models.ForeignKey(
        Document, on_delete=models.CASCADE, related_name="legal_units", db_index=False
    )
    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE, related_name="legal_units")
    kind = models.CharField(max_length=8, choices=[(k.value, k.value) for k in UnitKind])
    label = models.CharField(max_length=200)
    pasal = models.CharField(max_length=16)
    ayat = models.CharField(max_length=16, blank=True, default="")
    huruf = models.CharField(max_length=16, blank=True, default="")
    angka = models.CharField(max_length=16, blank=True, default="")
    depth = models.PositiveSmallIntegerField(default=0)  # 0 Pasal, 1 ayat or item, …
    penjelasan = models.BooleanField(default=False)
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    page = models.PositiveIntegerField(default=1)
    text = models.TextField()
    context = models.TextField(blank=True, default="")
    explains = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="explained_by"
    )
    # Sub-units (depth > 0) are embedded like chunks: the heading path, the parents'
    # lead-in and the unit text (ingestion.legal.units.unit_passage).
    embedding = VectorField(dimensions=settings.EMBEDDING_DIM, null=True, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True, default="")
    search_vector = models.GeneratedField(
        expression=SearchVector("context", "text", config="indonesian"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    # sha256 of its passage, as Chunk.passage_digest (``context`` holds the heading path and
    # the lead-in, so the passage is the non-empty ones of context and text, one per line).
    passage_digest = models.GeneratedField(
        expression=digest_of(
            When(context="", then=F("text")),
            When(text="", then=F("context")),
            default=Concat(F("context"), NEWLINE, F("text")),
        ),
        output_field=models.BinaryField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["chunk", "start", "-end"]
        indexes = [
            # No HNSW on the unit vectors: search reads them only through their chunk (the
            # unit re-scoring of candidate chunks), never as nearest neighbours of a query,
            # and an unread graph of 2 KB a vector slowed every import (docs/decisions.md).
            GinIndex(fields=["search_vector"], name="legal_unit_search_gin"),
            models.Index(fields=["document", "pasal"], name="legal_unit_document_pasal"),
            models.Index(
                fields=["passage_digest"],
                condition=models.Q(embedding__isnull=False),
                name="legal_unit_passage_digest",
            ),
        ]

    def __str__(self) -> str:
        return self.label


class JobOrigin(models.TextChoices):
    KAFKA = "kafka", "Kafka"
    UPLOAD = "upload", "Unggahan admin"


class JobState(models.TextChoices):
    """Allowed transitions.

    queued → processing → done | needs_review | skipped | failed
    queued | processing → deferred   (another worker holds the document lock)
    deferred → queued                (the worker re-runs it once the lock is free)
    processing → queued              (crash recovery: a stale claim is re-queued)
    failed → queued                  (partner re-publishes the jobId, or an admin re-runs it)
    needs_review → done              (a reviewer settled the last parked chunk)
    done | needs_review | skipped    are final for a jobId: redelivery emits nothing.
    """

    QUEUED = "queued", "Dalam antrean"
    PROCESSING = "processing", "Diproses"
    DEFERRED = "deferred", "Ditunda"
    DONE = "done", "Terindeks"
    NEEDS_REVIEW = "needs_review", "Perlu ditinjau"
    SKIPPED = "skipped", "Dilewati"
    FAILED = "failed", "Gagal"


FINAL_JOB_STATES = (JobState.DONE, JobState.NEEDS_REVIEW, JobState.SKIPPED)


class IngestionJob(models.Model):
    """One delivery of one document through the pipeline.

    Kafka jobs carry the partner's ``jobId`` (unique: durable dedupe across restarts); admin
    uploads have none. ``payload`` keeps the original event (or upload metadata) for replay.
    ``status_text`` is the human line shown while waiting (queue position, GPU queue).
    ``kafka_record`` names the record (``topic:partition:offset``) of the last Kafka
    delivery, so reading that same record again (its commit was lost to a crash or a
    rebalance) is told apart from the partner re-publishing a failed jobId.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    partner_job_id = models.UUIDField(null=True, blank=True, unique=True)
    origin = models.CharField(max_length=16, choices=JobOrigin.choices)
    document = models.ForeignKey(
        Document, null=True, blank=True, on_delete=models.SET_NULL, related_name="jobs"
    )
    state = models.CharField(max_length=16, choices=JobState.choices, default=JobState.QUEUED)
    stage = models.CharField(max_length=32, blank=True, default="")
    progress = models.PositiveSmallIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    status_text = models.CharField(max_length=300, blank=True, default="")
    payload = models.JSONField(default=dict, blank=True)
    lock_key = models.CharField(max_length=600, blank=True, default="")
    kafka_record = models.CharField(max_length=300, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Time the OCR spent waiting in the gateway's GPU queue (not processing); None when
    # the gateway was not used. The stage timeline draws it apart from OCR processing.
    gpu_queue_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["state", "created_at"], name="job_state_created"),
            # Dashboard charts: finished per hour/day, failure reasons of the last days.
            models.Index(fields=["finished_at"], name="job_finished_at"),
        ]

    def __str__(self) -> str:
        return str(self.partner_job_id or self.id)


class JobMilestone(models.Model):
    """One pipeline milestone of a job, in the order it happened: the job's timeline.

    Every job has one, whichever way it came in; what was published to the partner is the
    Kafka app's business (``partner_events.models.StageEvent``). Rows are only appended.
    """

    job = models.ForeignKey(IngestionJob, on_delete=models.CASCADE, related_name="milestones")
    seq = models.PositiveIntegerField()
    milestone = models.CharField(max_length=32)  # a pipeline.request.Milestone value
    error = models.TextField(blank=True, default="")
    # When the milestone happened: a held milestone is reported after the document is
    # written but keeps the moment its stage ended.
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["job", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["job", "seq"], name="job_milestone_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.job_id}#{self.seq} {self.milestone}"


class ReviewAction(models.Model):
    """Who did what to a parked chunk, with the text before and after."""

    class Action(models.TextChoices):
        EDIT = "edit", "Koreksi teks"
        APPROVE = "approve", "Setujui"
        REJECT = "reject", "Tolak"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="review_actions")
    chunk = models.ForeignKey(Chunk, null=True, on_delete=models.SET_NULL)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=16, choices=Action.choices)
    text_before = models.TextField(blank=True, default="")
    text_after = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.action} {self.chunk_id} by {self.user_id}"


class TokenScope(models.TextChoices):
    """What a token may do. ``admin`` implies the others and sees every document."""

    SEARCH = "search", "Cari dan baca"
    UPLOAD = "upload", "Unggah"
    ADMIN = "admin", "Admin"


def default_token_scopes() -> list[str]:
    # What every token could do before scopes existed.
    return [TokenScope.SEARCH.value, TokenScope.UPLOAD.value]


class ApiToken(models.Model):
    """A machine client's bearer token. Only its sha256 is stored.

    Active until ``revoked_at`` is set (never the other way). ``classifications`` and
    ``source_types`` are its clearance (ingestion.visibility): labels readable besides the
    public ones, and the source types it is limited to (empty: all).
    """

    name = models.CharField(max_length=100, unique=True)
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    scopes = models.JSONField(default=default_token_scopes, blank=True)
    classifications = models.JSONField(default=list, blank=True)
    source_types = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return self.name

    def has_scope(self, scope: TokenScope) -> bool:
        return scope.value in self.scopes or TokenScope.ADMIN.value in self.scopes


class RelationKind(models.TextChoices):
    AMENDS = "amends", "Mengubah"
    REPEALS = "repeals", "Mencabut"


class RelationPart(models.TextChoices):
    """Where in the source regulation the relation was read."""

    TITLE = "title", "Judul"
    MENETAPKAN = "menetapkan", "Menetapkan"
    BODY = "body", "Pasal perubahan"
    PENUTUP = "penutup", "Ketentuan Penutup"


class RegulationRelation(models.Model):
    """An amendment or repeal that a regulation states about another one, in its own text.

    Rows have no states: the set of a source document is replaced whenever it is
    (re)extracted, and ``target_document`` is set when the target regulation is in the
    corpus (on arrival of either side) or cleared when that target disappears.
    ``target_key``/``target_region`` are the match key (see ``Document.regulation_key``);
    ``evidence`` is the sentence read, ``evidence_start``/``evidence_end`` the target's
    mention inside it.
    """

    source_document = models.ForeignKey(
        Document, on_delete=models.CASCADE, related_name="relations_out"
    )
    kind = models.CharField(max_length=16, choices=RelationKind.choices)
    target_citation = models.CharField(max_length=200)
    target_jenis = models.CharField(max_length=100, blank=True, default="")
    target_nomor = models.CharField(max_length=40, blank=True, default="")
    target_tahun = models.CharField(max_length=4, blank=True, default="")
    target_region = models.CharField(max_length=100, blank=True, default="")
    target_title = models.TextField(blank=True, default="")
    target_key = models.CharField(max_length=120, db_index=True)
    target_document = models.ForeignKey(
        Document,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="relations_in",
    )
    part = models.CharField(max_length=16, choices=RelationPart.choices)
    evidence = models.TextField(blank=True, default="")
    evidence_start = models.PositiveIntegerField(default=0)
    evidence_end = models.PositiveIntegerField(default=0)
    page = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["source_document", "kind", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["source_document", "kind", "target_key", "target_region"],
                name="relation_unique_target",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.source_document_id} {self.kind} {self.target_citation}"


# --- consolidation (ingestion.relations.consolidation) ------------------------------------


class ConsolidationState(models.TextChoices):
    """Allowed transitions: built | failed, replaced wholesale on every rebuild."""

    BUILT = "built", "Tersusun"
    FAILED = "failed", "Gagal disusun"


class Consolidation(models.Model):
    """The consolidated text of one amended regulation, built on its current edition.

    One row per amended regulation that has amendments in the corpus; it is rebuilt (with
    its amendments and Pasal versions) whenever the regulation or one of its amending
    regulations is (re)indexed. ``missing`` lists the citations of earlier amendments the
    amending texts name but the corpus lacks (the chain is then incomplete); ``error`` the
    reason a build failed (only the consolidation fails, never the document's indexing).
    """

    document = models.OneToOneField(
        Document, on_delete=models.CASCADE, related_name="consolidation"
    )
    regulation_key = models.CharField(max_length=120, db_index=True)
    state = models.CharField(max_length=16, choices=ConsolidationState.choices)
    chain_complete = models.BooleanField(default=True)
    missing = models.JSONField(default=list, blank=True)
    dated_by_text = models.BooleanField(default=True)
    error = models.TextField(blank=True, default="")
    took_ms = models.FloatField(default=0.0)
    built_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.regulation_key} ({self.state})"


class Amendment(models.Model):
    """One amending regulation applied to one amended regulation (Indigo's Amendment).

    Ordered as applied: by ``date`` (the date it came into force, read from its text), then
    by the amending regulation's year and number in natural order (``order``).
    ``dated_by_text`` is False when no date could be read and the order is by number only.
    """

    consolidation = models.ForeignKey(
        Consolidation, on_delete=models.CASCADE, related_name="amendments"
    )
    amended_document = models.ForeignKey(
        Document, on_delete=models.CASCADE, related_name="amendments_in"
    )
    amending_document = models.ForeignKey(
        Document, on_delete=models.CASCADE, related_name="amendments_out"
    )
    citation = models.CharField(max_length=200)  # the amending regulation's, "UU 19/2016"
    enacted = models.DateField(null=True, blank=True)
    date = models.DateField(null=True, blank=True)
    dated_by_text = models.BooleanField(default=True)
    order = models.PositiveIntegerField()

    class Meta:
        ordering = ["consolidation", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["amended_document", "amending_document"], name="amendment_unique_pair"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amending_document_id} → {self.amended_document_id}"


class InstructionState(models.TextChoices):
    """Allowed transitions (one build): new → applied | conflict; unparsed is final.

    Rows are replaced on every rebuild, so a state never moves back.
    """

    NEW = "new", "Baru"
    APPLIED = "applied", "Diterapkan"
    UNPARSED = "unparsed", "Tidak terbaca"
    CONFLICT = "conflict", "Bertentangan"


class AmendmentInstruction(models.Model):
    """One numbered item of an amending regulation's Pasal I (Indigo's AmendmentInstruction).

    ``source`` is the amending provision ("UU 19/2016 Pasal I angka 9"), ``target`` the
    amended provision's label ("Pasal 26"), ``operation`` blank when it could not be read;
    ``reason`` says why it is unparsed or in conflict.
    """

    amendment = models.ForeignKey(Amendment, on_delete=models.CASCADE, related_name="instructions")
    ordinal = models.PositiveIntegerField()
    source = models.CharField(max_length=200)
    operation = models.CharField(max_length=16, blank=True, default="")
    target = models.CharField(max_length=300, blank=True, default="")
    state = models.CharField(max_length=16, choices=InstructionState.choices)
    text = models.TextField(blank=True, default="")
    reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["amendment", "ordinal", "id"]

    def __str__(self) -> str:
        return self.source


class PasalVersionState(models.TextChoices):
    """A wording's state (``ingestion.legal.amendments.apply.PasalState``):
    original → amended | deleted; inserted → amended | deleted (each a new row)."""

    ORIGINAL = "original", "Asli"
    AMENDED = "amended", "Diubah"
    INSERTED = "inserted", "Disisipkan"
    DELETED = "deleted", "Dihapus"


class PasalVersion(models.Model):
    """One wording of one Pasal of an amended regulation and when it was in force.

    Like LEGI's article versions (start, end, status); ``valid_to`` None means still in
    force, or not known to end (NeuRIS's "unknown yet"). ``valid_from`` None: the date of
    the original is not known. Every Pasal of a consolidated regulation has at least its
    original row; ``amending_document`` is the regulation whose text restates this wording.
    """

    consolidation = models.ForeignKey(
        Consolidation, on_delete=models.CASCADE, related_name="versions"
    )
    document = models.ForeignKey(
        Document, on_delete=models.CASCADE, related_name="pasal_versions", db_index=False
    )
    regulation_key = models.CharField(max_length=120)
    number = models.CharField(max_length=16)
    sort_order = models.PositiveIntegerField()
    seq = models.PositiveSmallIntegerField()  # 0 the oldest wording of this Pasal
    bab = models.CharField(max_length=200, blank=True, default="")
    state = models.CharField(max_length=16, choices=PasalVersionState.choices)
    text = models.TextField(blank=True, default="")
    valid_from = models.DateField(null=True, blank=True)
    valid_to = models.DateField(null=True, blank=True)
    instruction = models.ForeignKey(
        AmendmentInstruction, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    amending_document = models.ForeignKey(
        Document, null=True, blank=True, on_delete=models.SET_NULL, related_name="restated"
    )

    class Meta:
        ordering = ["document", "sort_order", "seq"]
        indexes = [
            models.Index(fields=["document", "number"], name="pasal_version_document"),
        ]

    def __str__(self) -> str:
        return f"{self.regulation_key} Pasal {self.number} #{self.seq}"


class CorpusExport(models.Model):
    """One successful ``export_corpus`` run; ``/metrics`` shows the newest one's time.

    Rows are only appended; they describe this instance and are not exported themselves.
    """

    finished_at = models.DateTimeField(default=timezone.now)
    path = models.CharField(max_length=1024)
    documents = models.PositiveIntegerField(default=0)
    size_bytes = models.BigIntegerField(default=0)
    with_derived = models.BooleanField(default=False)
    incremental = models.BooleanField(default=False)

    class Meta:
        ordering = ["-finished_at"]

    def __str__(self) -> str:
        return f"{self.finished_at:%Y-%m-%d %H:%M} {self.path}"
