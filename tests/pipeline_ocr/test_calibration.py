from hypothesis import given, settings
from hypothesis import strategies as st

from ingestion.pipeline.ocr.confidence import line_confidence

from .helpers import gibberish_line

REVIEW_THRESHOLD = 0.75  # settings.OCR_REVIEW_THRESHOLD default

LEGAL = [
    "(1) Pemerintah Aceh menyelenggarakan urusan pemerintahan",
    "Pasal 12",
    "BAB IV",
    "a. menetapkan kebijakan umum penyelenggaraan administrasi pemerintahan;",
    "sebagaimana dimaksud dalam Pasal 2 ayat (2) UU Nomor 11 Tahun 2006.",
    "ketenagakerjaan dan kesejahteraan masyarakat kabupaten/kota",
]


def test_gibberish_scores_low_even_when_the_engine_is_certain() -> None:
    for seed in range(20):
        assert line_confidence(gibberish_line(seed), 1.0) < 0.2


def test_ocr_debris_scores_low_even_when_the_engine_is_certain() -> None:
    debris = ["nuorn a e e us rs yn e Sa n n n", "Pemer1ntah Ac3h rnenye|engg@rakan", "~~ ;;: ^^"]
    for text in debris:
        assert line_confidence(text, 1.0) < REVIEW_THRESHOLD


def test_real_legal_lines_score_above_the_review_threshold() -> None:
    for text in LEGAL:
        assert line_confidence(text, 0.98) >= REVIEW_THRESHOLD, text


def test_a_low_engine_score_lowers_confidence() -> None:
    text = LEGAL[0]
    assert line_confidence(text, 0.3) < line_confidence(text, 0.99)


def test_a_box_far_wider_than_the_text_read_lowers_confidence() -> None:
    text = "Pasal 12"
    assert line_confidence(text, 0.99, box_aspect=40.0) < line_confidence(
        text, 0.99, box_aspect=len(text) / 1.9
    )


def test_empty_text_has_zero_confidence() -> None:
    assert line_confidence("   ", 1.0) == 0.0


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(max_size=80),
    raw=st.one_of(st.none(), st.floats(min_value=0.0, max_value=1.0)),
    aspect=st.one_of(st.none(), st.floats(min_value=0.0, max_value=200.0)),
)
def test_calibration_is_deterministic_and_between_zero_and_one(
    text: str, raw: float | None, aspect: float | None
) -> None:
    first = line_confidence(text, raw, box_aspect=aspect)
    assert 0.0 <= first <= 1.0
    assert line_confidence(text, raw, box_aspect=aspect) == first
