"""``manage.py relink_regulations`` rebuilds relations, links and in-force status for the
whole corpus, with a progress bar."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from ingestion.models import Document, RegulationRelation
from tests.relations.helpers import StoreRegulation, amending, plain, repealing

pytestmark = pytest.mark.django_db

TARGET = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"


def _graph() -> tuple[set[tuple[str, str, str, str | None]], dict[str, bool | None]]:
    relations = {
        (
            r.source_document.title,
            r.kind,
            r.target_citation,
            getattr(r.target_document, "title", None),
        )
        for r in RegulationRelation.objects.select_related("source_document", "target_document")
    }
    return relations, dict(Document.objects.values_list("title", "in_force"))


def test_a_wiped_graph_is_rebuilt_exactly(regulation: StoreRegulation) -> None:
    regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    regulation(amending(TARGET), title="Perda 1/2024", source_key="amend")
    regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    regulation("Pengumuman lelang.\n", title="Pengumuman")
    before = _graph()
    RegulationRelation.objects.all().delete()
    Document.objects.update(in_force=None, regulation_key="", regulation_region="")
    out, err = StringIO(), StringIO()
    call_command("relink_regulations", "--progress", stdout=out, stderr=err)
    assert _graph() == before
    assert before[1]["Perda 3/2010"] is False
    assert (
        "relink_regulations: 4 dokumen, 2 relasi (2 tertaut), 1 dokumen tidak berlaku"
        in out.getvalue()
    )
    assert "4/4" in err.getvalue() and "100%" in err.getvalue()


def test_without_a_terminal_no_bar_is_drawn(regulation: StoreRegulation) -> None:
    regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    err = StringIO()
    call_command("relink_regulations", stdout=StringIO(), stderr=err)
    assert err.getvalue() == ""
