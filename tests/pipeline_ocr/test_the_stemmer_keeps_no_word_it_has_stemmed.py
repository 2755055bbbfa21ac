"""The OCR confidence's stemmer remembers no word: a worker reading scans for months must not
grow with every distinct misreading it has seen (the bounded cache of
``is_indonesian_word`` is the only memory), and the stems are the library's own."""

from __future__ import annotations

import gc

from Sastrawi.Stemmer.StemmerFactory import StemmerFactory

from ingestion.pipeline.ocr import confidence

WORDS = [
    "ketenagakerjaan",
    "diundangkan",
    "pemberitahuannya",
    "perizinan",
    "mempertanggungjawabkan",
]


def _reachable_dict_entries(root: object) -> int:
    """Entries of every dict reachable from ``root`` (the stemmer's whole object graph)."""
    seen: set[int] = set()
    todo, total = [root], 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (str, int, float, type)):
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            total += len(obj)
        todo.extend(gc.get_referents(obj))
    return total


def test_stemming_new_words_grows_nothing_the_stemmer_holds() -> None:
    stemmer = confidence._stemmer()
    stemmer.stem("awal")  # type: ignore[attr-defined]
    before = _reachable_dict_entries(stemmer)
    for n in range(2000):
        stemmer.stem(f"dipermainkan{n}x")  # type: ignore[attr-defined]
    assert _reachable_dict_entries(stemmer) == before


def test_its_stems_are_sastrawis_own() -> None:
    library = StemmerFactory().create_stemmer()
    assert [confidence._stem(w) for w in WORDS] == [library.stem(w) for w in WORDS]
