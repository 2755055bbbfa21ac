"""A Pasal an amendment deleted has no wording in force: a search that finds its old text
returns it marked not in force (``inForce: false``), never as current law."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.consolidation.helpers import amending_tipikor, ingest, search_fresh

pytestmark = pytest.mark.django_db

DELETES_PASAL_15 = "1. Pasal 15 dihapus.\n"


def test_the_deleted_pasals_old_text_is_marked_not_in_force(store_dir: Path) -> None:
    original = str(ingest(store_dir, "uu_31_1999_tipikor.md"))
    ingest(store_dir, "uu_5_2003_perubahan_kedua_tipikor.md", amending_tipikor(DELETES_PASAL_15))
    hits = search_fresh(
        "Setiap orang yang melakukan percobaan, pembantuan, atau pemufakatan jahat untuk "
        "melakukan tindak pidana korupsi"
    )
    old = [h for h in hits if h.document_id == original and h.unit and h.unit["pasal"] == "15"]
    assert old, "the deleted Pasal's text is still found"
    assert all(h.in_force is False for h in old)
    assert all(h.to_json()["inForce"] is False for h in old)
