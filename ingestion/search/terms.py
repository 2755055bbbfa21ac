"""Turning a person's question into lexical search text.

Postgres' ``indonesian`` configuration stems but has no stop-word list, so "yang", "dan",
"apa" would match nearly every chunk once terms are OR-ed. Questions are long and an AND
of all their words almost never matches, so the lexical side ORs the content words and lets
the ranking reward chunks that hold more of them; this module drops the function words
first. Postgres still does the tokenizing and stemming (``plainto_tsquery``), so query and
index agree on tokens such as ``34/2021``.
"""

from __future__ import annotations

import re

# Function words and question words common in Indonesian queries. Content words that are
# frequent in legal text ("pasal", "ayat", "nomor", "tahun") stay: they carry citations.
STOPWORDS: frozenset[str] = frozenset(
    """
    ada adalah agar akan antara apa apabila apakah atas atau bagaimana bagaimanakah
    bagi bahwa banyak beberapa belum berapa berapakah bila boleh bukan dalam dan dapat
    dari demikian dengan di dia hal hanya harus ia ialah ini itu jika juga kah kami kapan
    karena ke kecuali kepada ketika kita lain lagi maka manakah mana masih mengapa
    mereka namun oleh pada para saat sampai saja sangat saya se sebagai sebelum
    secara sedang sehingga sejak selain seperti serta setelah siapa siapakah suatu sudah
    supaya tanpa telah tentang tersebut tetapi untuk walaupun yaitu yakni yang
    """.split()
)

_WORD_RE = re.compile(r"[\w/.-]+", re.UNICODE)
_EDGE_PUNCT = ".-/"


def content_words(text: str) -> list[str]:
    """The query's words without function words, lower-cased, in order."""
    words: list[str] = []
    for raw in _WORD_RE.findall(text.lower()):
        word = raw.strip(_EDGE_PUNCT)
        if word and word not in STOPWORDS:
            words.append(word)
    return words


def lexical_text(text: str) -> str:
    """The text handed to ``plainto_tsquery``; empty when nothing searchable is left."""
    return " ".join(content_words(text))
