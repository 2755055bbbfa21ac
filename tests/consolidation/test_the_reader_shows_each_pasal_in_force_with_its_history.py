"""The regulation reader: the outline with each Pasal in force, badges, the Riwayat panel
with a word-level diff, the as_of date picker (page and htmx partial from one view), and
the instructions reviewers must look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.consolidation.helpers import TIPIKOR, amending_tipikor, ingest
from tests.ui.helpers import client_for, make_user

pytestmark = pytest.mark.django_db

CONFLICTING = (
    "1. Ketentuan Pasal 99 diubah sehingga berbunyi sebagai berikut:\n"
    "\u201cPasal 99\nKetentuan yang tidak pernah ada.\u201d\n"
)


@pytest.fixture
def reader() -> Client:
    return client_for(make_user("pembaca"))


@pytest.fixture
def original(store_dir: Path) -> str:
    original = str(ingest(store_dir, TIPIKOR[0]))
    ingest(store_dir, TIPIKOR[1])
    return original


def test_the_page_shows_the_amended_pasal_with_its_badge_and_history(
    reader: Client, original: str
) -> None:
    html = reader.get(reverse("regulation_reader", args=[original])).content.decode()
    assert "BAB II" in html
    assert 'data-testid="pasal-5"' in html
    assert "diubah dengan" in html and "UU 20/2001" in html
    assert 'data-testid="riwayat-5"' in html
    # The word-level diff: the KUHP reference went, the restated elements came.
    assert "<del>" in html and "<ins>" in html
    assert "tidak memiliki kekuatan hukum" in html


def test_the_date_picker_swaps_in_the_wording_in_force_on_that_date(
    reader: Client, original: str
) -> None:
    url = reverse("regulation_reader", args=[original])
    partial = reader.get(url, {"as_of": "2000-01-01"}, headers={"HX-Request": "true"})
    html = partial.content.decode()
    assert html.lstrip().startswith('<div id="konsolidasi"')
    assert "<html" not in html
    assert 'data-as-of="2000-01-01"' in html
    pasal_5 = html.split('data-testid="pasal-5"')[1].split("</article>")[0]
    assert "Pasal 209" in pasal_5
    assert "diubah dengan" not in pasal_5


def test_a_date_that_is_not_a_date_is_said_in_indonesian(reader: Client, original: str) -> None:
    html = reader.get(reverse("regulation_reader", args=[original]), {"as_of": "kemarin"})
    assert "tidak dikenali" in html.content.decode()


def test_conflicting_instructions_are_listed_for_reviewers(reader: Client, store_dir: Path) -> None:
    original = str(ingest(store_dir, TIPIKOR[0]))
    ingest(store_dir, "uu_5_2003_perubahan_kedua_tipikor.md", amending_tipikor(CONFLICTING))
    html = reader.get(reverse("regulation_reader", args=[original])).content.decode()
    review = html.split('data-testid="review-instructions"')[1].split("</section>")[0]
    assert "bertentangan" in review and "Pasal 99" in review


def test_the_document_page_links_to_the_reader(reader: Client, original: str) -> None:
    html = reader.get(reverse("document_detail", args=[original])).content.decode()
    assert reverse("regulation_reader", args=[original]) in html
