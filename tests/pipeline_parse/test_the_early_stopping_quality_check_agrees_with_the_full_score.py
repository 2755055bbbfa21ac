"""The parse stage's hidden-layer check stops scoring early; it must give the full answer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ingestion.pipeline.ocr.confidence import page_quality, page_quality_reaches

WORDS = ["Pasal", "pemerintah", "(1)", "a.", "12.", "Aceh", "xq7", "lJ(o", "!o", "ketentuan"]
texts = st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=40).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(text=texts, threshold=st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]))
def test_the_early_stopping_check_agrees_with_the_full_score(text: str, threshold: float) -> None:
    assert page_quality_reaches([text], threshold) == (page_quality([text]) >= threshold)


PUNCTUATION = st.sampled_from([".", ",", "...", "(", ")", "Pasal"])


@given(text=st.lists(PUNCTUATION, max_size=6).map(" ".join))
def test_samples_of_bare_punctuation_get_the_full_answer_too(text: str) -> None:
    assert page_quality_reaches([text], 0.5) == (page_quality([text]) >= 0.5)
    assert page_quality_reaches([text], 0.0)


def test_a_clean_sample_reaches_and_a_garbled_one_does_not() -> None:
    assert page_quality_reaches(["Pemerintah Aceh menetapkan ketentuan pelayanan"], 0.5)
    assert not page_quality_reaches(["lJ(o !o xq7 0)fr b0oL0 tJ)NoN"], 0.5)
