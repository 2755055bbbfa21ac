"""When a regulation takes effect: the Pasal that says so, and the question that asks it.

A regulation's body closes with the Pasal "<Jenis> ini mulai berlaku pada tanggal
diundangkan" ("… setelah 90 (sembilan puluh) hari …", "… sejak …"); an amending regulation
says it in its Pasal II. "Pada saat <Jenis> ini mulai berlaku, …" opens a transitional rule
instead (a comma follows, not a time), and is not it.

A question asks for that Pasal when, its regulation's name aside, all its words say "when in
force": "Kapan PP Nomor 5 Tahun 2021 mulai berlaku?", "Sejak kapan UU 27/2022 berlaku?".
"Kapan Upah minimum provinsi mulai berlaku?" asks about a thing a regulation governs, not the
regulation, and names none; "Kapan ketentuan peralihan PP 35/2021 berlaku?" asks more.
"""

from __future__ import annotations

# One pattern for Python and Postgres (``~*``): OCR prints the l of "berlaku" as I or 1.
FORMULA = r"ini\s+mulai\s+ber[lI1]aku\s+(?:pada|sejak|setelah|terhitung)"

# The question's content words (stop words such as "kapan" already dropped) beyond the name.
_WHEN_IN_FORCE = frozenset(
    {"mulai", "berlaku", "berlakunya", "diberlakukan", "efektif", "tanggal", "sejak", "kapan"}
)
_IN_FORCE = frozenset({"berlaku", "berlakunya", "diberlakukan", "efektif"})


def asks_entry_into_force(words: str) -> bool:
    """``words``: the question's content words other than the regulation's name."""
    found = words.lower().split()
    return bool(found) and set(found) <= _WHEN_IN_FORCE and bool(_IN_FORCE & set(found))
