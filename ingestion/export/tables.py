"""The one table of what an export holds: every concrete model of the project is here.

``KEPT`` rows were made by people or by time and cannot be recomputed (documents and their
source metadata, jobs and their timelines, review decisions and corrected text, tokens,
relations, users and roles); they are always exported. ``DERIVED`` rows are recomputed
from the originals by the pipeline; ``--with-derived`` exports them so an import need not
run OCR and the model again. ``NOT_EXPORTED`` rows belong to this one running instance
(sessions, login lockouts, caches) or are recreated by ``migrate``.

Order matters: a table comes after every table it points at, so an import can insert in
this order. ``tests/export/test_every_model_is_classified_for_the_export.py`` fails when a
model is in none of these lists, so a new model must be classified here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from django.apps import apps
from django.db import models
from django.db.models import Q


class Kind(StrEnum):
    KEPT = "kept"
    DERIVED = "derived"
    NOT_EXPORTED = "not_exported"


# Tables whose rows belong to one document: in a merge they are imported only with it.
DOCUMENT_FIELD = "document"


@dataclass(frozen=True)
class Table:
    """One exported set of rows: a model (or a subset of its rows and fields)."""

    name: str  # file name in the export, ``app_label.model[.part]``
    model_label: str  # ``app_label.ModelName``, or ``auth.User_groups`` for a through table
    kind: Kind
    # Rows whose values of these fields already exist locally are mapped, not inserted.
    natural_key: tuple[str, ...] = ()
    only: Q | None = None  # a subset of the rows
    fields: tuple[str, ...] = ()  # a subset of the fields (empty: every stored field)
    # Extra values read through a relation, exported under their own name.
    extra: dict[str, str] = field(default_factory=dict)
    why: str = ""

    @property
    def model(self) -> type[models.Model]:
        app_label, name = self.model_label.split(".")
        if name == "User_groups":
            user: type[models.Model] = apps.get_model("auth", "User")
            through: type[models.Model] = user.groups.through  # type: ignore[attr-defined]
            return through
        return apps.get_model(app_label, name)


REVIEWED = ~Q(review_state="")

TABLES: tuple[Table, ...] = (
    Table("auth.group", "auth.Group", Kind.KEPT, natural_key=("name",), fields=("id", "name")),
    Table("auth.user", "auth.User", Kind.KEPT, natural_key=("username",)),
    Table("auth.user_groups", "auth.User_groups", Kind.KEPT, natural_key=("user", "group")),
    Table("ingestion.document", "ingestion.Document", Kind.KEPT),
    Table(
        "ingestion.ingestionjob",
        "ingestion.IngestionJob",
        Kind.KEPT,
        natural_key=("partner_job_id",),  # the partner's jobId: one job per id
    ),
    Table("ingestion.jobmilestone", "ingestion.JobMilestone", Kind.KEPT),
    Table("partner_events.stageevent", "partner_events.StageEvent", Kind.KEPT),
    Table("ingestion.apitoken", "ingestion.ApiToken", Kind.KEPT, natural_key=("name",)),
    Table("ingestion.chunk", "ingestion.Chunk", Kind.DERIVED),
    Table("ingestion.legalunit", "ingestion.LegalUnit", Kind.DERIVED),
    Table("ingestion.regulationrelation", "ingestion.RegulationRelation", Kind.KEPT),
    # A reviewer's decision and corrected text: kept even when the chunks are not.
    Table(
        "ingestion.chunk.review",
        "ingestion.Chunk",
        Kind.KEPT,
        only=REVIEWED,
        fields=("document", "ordinal", "text", "indexed", "review_state"),
    ),
    Table(
        "ingestion.reviewaction",
        "ingestion.ReviewAction",
        Kind.KEPT,
        extra={"chunk_ordinal": "chunk__ordinal"},
    ),
)

NOT_EXPORTED: dict[str, str] = {
    "ingestion.CorpusExport": "this instance's own export history",
    "ingestion.Consolidation": "rebuilt from the imported texts and relations after import",
    "ingestion.Amendment": "rebuilt with its consolidation",
    "ingestion.AmendmentInstruction": "rebuilt with its consolidation",
    "ingestion.PasalVersion": "rebuilt with its consolidation",
    "auth.Permission": "recreated by migrate; roles are the group names",
    "auth.Group_permissions": "the app's roles are group names, not permissions",
    "auth.User_user_permissions": "the app's roles are group names, not permissions",
    "contenttypes.ContentType": "recreated by migrate",
    "sessions.Session": "logins of this instance",
    "axes.AccessAttempt": "login lockouts of this instance",
    "axes.AccessFailureLog": "login lockouts of this instance",
    "axes.AccessLog": "login history of this instance",
    "axes.AccessAttemptExpiration": "login lockouts of this instance",
}


def exported(with_derived: bool) -> list[Table]:
    """The tables an export writes, in insertion order."""
    return [t for t in TABLES if t.kind is Kind.KEPT or with_derived]


def stored_fields(model: type[models.Model]) -> list[models.Field]:  # type: ignore[type-arg]
    """The columns a row is rebuilt from (generated columns are Postgres' business)."""
    return [f for f in model._meta.concrete_fields if not getattr(f, "generated", False)]
