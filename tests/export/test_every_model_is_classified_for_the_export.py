"""Every concrete model of the installed apps is either exported (kept or derived) or
listed as not exported, with a reason: a model added later must be classified."""

from __future__ import annotations

from typing import Any

from django.apps import apps

from ingestion.export.tables import NOT_EXPORTED, TABLES, Kind


def _label(model: Any) -> str:
    return str(model._meta.label)


def test_every_concrete_model_is_kept_derived_or_not_exported() -> None:
    exported = {_label(t.model) for t in TABLES}
    models = [m for m in apps.get_models(include_auto_created=True) if not m._meta.abstract]
    unclassified = [
        _label(m) for m in models if _label(m) not in exported and _label(m) not in NOT_EXPORTED
    ]
    assert unclassified == [], f"classify these in ingestion/export/tables.py: {unclassified}"


def test_no_model_is_both_exported_and_not_exported() -> None:
    assert not {_label(t.model) for t in TABLES} & set(NOT_EXPORTED)


def test_each_table_comes_after_the_tables_it_points_at() -> None:
    seen: set[str] = set()
    for table in TABLES:
        for field in table.model._meta.concrete_fields:
            target = field.related_model
            if target is not None and target is not table.model:
                assert _label(target) in seen, f"{table.name} before {_label(target)}"
        seen.add(_label(table.model))


def test_the_reviewers_work_is_kept_even_without_derived_data() -> None:
    kept = {t.name for t in TABLES if t.kind is Kind.KEPT}
    assert {"ingestion.chunk.review", "ingestion.reviewaction"} <= kept
    assert {t.name for t in TABLES if t.kind is Kind.DERIVED} == {
        "ingestion.chunk",
        "ingestion.legalunit",
    }
