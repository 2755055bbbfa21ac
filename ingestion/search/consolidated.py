"""Search answers in the wording in force (the consolidation's Pasal versions).

Applied to the hits after fusion (:func:`wording_in_force`), on the stored versions of the
Pasal the hits cite, in one query:

- a Pasal an amending law restates is cited as the unit of the regulation it amends
  (``UU 31/1999 Pasal 5 ayat (1)``, ``citationFull`` "… sebagaimana telah diubah dengan
  UU 20/2001", ``consolidated``, ``changedBy``, ``validFrom``);
- a wording not in force on ``as_of`` (today by default) — the original's replaced or
  deleted Pasal, a restatement a later amendment replaced, one not yet in force — is not
  returned as current law: it gives way to the wording in force (the amending law's
  restated unit), or is left out; ``include_history`` keeps it, marked ``inForce: false``;
- a Penjelasan follows the wordings of its Pasal, and also the instructions that changed
  only the Penjelasan; one not in force gives way to the Penjelasan at the same address in
  the text in force, or is left out;
- a Pasal's body comes before its own Penjelasan (:func:`body_before_its_penjelasan`).

Regulations without amendments in the corpus cost one indexed look-up and change nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from django.db import connection

from ingestion import visibility
from ingestion.legal.amendments.model import Operation
from ingestion.legal.references import UnitRef
from ingestion.legal.search import UnitRow, named_units
from ingestion.legal.units import PENJELASAN_PREFIX
from ingestion.models import InstructionState, PasalVersionState
from ingestion.relations.consolidated import ChangedBy, full_citation, today, version_in_force
from ingestion.search.query import SearchHit, SearchQuery

# Builds the hit of the unit an amending regulation restates: (superseded hit, amending
# document id) → that hit, or None when the amending text holds no such unit.
Restate = Callable[[SearchHit, str], SearchHit | None]
# The service's hit builder: (chunk id, score) pairs, and the units they must cite.
Build = Callable[[Sequence[tuple[int, float]], dict[int, UnitRow]], list[SearchHit]]
_MAX_ROUNDS = 3
_AYAT_RE = re.compile(r"ayat\s*\((\w{1,4})")
_WORD_RE = re.compile(r"\w+")
# Word triples shared by a hit and a restated wording: the same text read twice (chunk
# and version, with their own line breaks and headings) shares nearly all; two laws'
# definitions of different things share their formulas ("yang selanjutnya disebut").
_SHINGLE = 3
_HOLDS = 0.6

_VERSIONS_SQL = """
    WITH c AS (
        SELECT id FROM ingestion_consolidation WHERE document_id = ANY(%(docs)s::uuid[])
        UNION
        SELECT consolidation_id FROM ingestion_amendment
        WHERE amending_document_id = ANY(%(docs)s::uuid[])
    )
    SELECT v.consolidation_id, v.document_id, t.citation, v.amending_document_id, a.citation,
           v.number, v.sort_order, v.state, v.valid_from, v.valid_to, coalesce(i.source, ''),
           v.seq, '',
           CASE WHEN v.amending_document_id IS NULL THEN '' ELSE v.text END
    FROM ingestion_pasalversion v
    JOIN c ON c.id = v.consolidation_id
    JOIN documents t ON t.id = v.document_id
    LEFT JOIN documents a ON a.id = v.amending_document_id
    LEFT JOIN ingestion_amendmentinstruction i ON i.id = v.instruction_id
    WHERE v.number = ANY(%(numbers)s) AND {visible_t} AND (a.id IS NULL OR {visible_a})
    UNION ALL
    SELECT m.consolidation_id, m.amended_document_id, t.citation, m.amending_document_id,
           a.citation, n.found[1], NULL, '{explained}', coalesce(m.date, m.enacted), NULL,
           i.source, i.ordinal, i.target, ''
    FROM ingestion_amendmentinstruction i
    JOIN ingestion_amendment m ON m.id = i.amendment_id
    JOIN c ON c.id = m.consolidation_id
    JOIN documents t ON t.id = m.amended_document_id
    JOIN documents a ON a.id = m.amending_document_id
    CROSS JOIN LATERAL regexp_matches(i.target, 'Pasal[[:space:]]+([0-9]+[A-Z]?)', 'g') n(found)
    WHERE i.operation = '{explained}' AND i.state = '{applied}'
      AND n.found[1] = ANY(%(numbers)s) AND {visible_t} AND {visible_a}
    ORDER BY 1, 7, 12
"""


@dataclass(frozen=True, slots=True)
class _Version:
    target_id: str
    target_citation: str
    amending_id: str | None
    amending_citation: str
    number: str
    state: str
    valid_from: date | None
    valid_to: date | None
    source: str
    # The restated wording (empty for an original; "Dihapus." for a deletion): read for
    # every amending version, since a wording in force replaces a hit from a text not
    # among the hits.
    text: str = ""

    def changed_by(self) -> ChangedBy | None:
        if self.amending_id is None:
            return None
        return ChangedBy(self.amending_citation, self.amending_id, self.source)


_History = list[_Version]


@dataclass(frozen=True, slots=True)
class _Explained:
    """An instruction that changed only a Penjelasan, as one more wording of its Pasal;
    ``ayat`` the ayat whose explanation it replaces (empty: the whole Pasal's)."""

    version: _Version
    ayat: frozenset[str]

    def covers(self, ayat: str | None) -> bool:
        return not self.ayat or ayat is None or ayat in self.ayat


@dataclass(slots=True)
class _Index:
    on: date
    of_target: dict[tuple[str, str], _History]
    # (amending document, Pasal) → each wording it restates under that number: an omnibus
    # restates "Pasal 1" of many laws.
    restated: dict[tuple[str, str], list[tuple[_History, int]]]
    # Penjelasan-only changes ("Pasal 2 ayat (2) substansi tetap, penjelasan pasal diubah")
    # of each (amended document, Pasal), and the amended document of each (amending, Pasal).
    explained: dict[tuple[str, str], list[_Explained]] = field(default_factory=dict)
    explained_by: dict[tuple[str, str], str] = field(default_factory=dict)

    def in_force(self, history: _History) -> int | None:
        return version_in_force([(v.state, v.valid_from, v.valid_to) for v in history], self.on)

    def of_penjelasan(self, hit: SearchHit) -> tuple[_History, int | None] | None:
        """The wordings a Penjelasan hit explains, with its Penjelasan-only changes, and
        its position among them (None: the amended regulation's own); None when no such
        change touches it (the Pasal's wordings then answer, as for the body)."""
        pasal = str(hit.unit["pasal"]) if hit.unit else ""
        ayat = hit.unit.get("ayat") if hit.unit else None
        target = self.explained_by.get((hit.document_id, pasal))
        if target is None:
            restated = self.restated_by(hit, pasal)
            target = restated[0][0].target_id if restated else hit.document_id
        changes = [c.version for c in self.explained.get((target, pasal), []) if c.covers(ayat)]
        history = self.of_target.get((target, pasal))
        if not changes or history is None:
            return None
        merged = _with_explanations(history, changes)
        if hit.document_id == target:
            return merged, None
        mine = [i for i, v in enumerate(merged) if v.amending_id == hit.document_id]
        return (merged, mine[-1]) if mine else None

    def restated_by(self, hit: SearchHit, pasal: str) -> tuple[_History, int] | None:
        """The wording of another regulation's Pasal that ``hit`` (a unit of an amending
        text) restates. The number alone does not say which: an omnibus restates Pasal 1 of
        a dozen laws, and the corpus may hold the consolidation of only one of them. So a
        body hit must hold that wording's words; a Penjelasan (other words) or a deleted
        Pasal (none) is taken only when the number is unambiguous."""
        found = self.restated.get((hit.document_id, pasal), [])
        if _is_penjelasan(hit):
            return found[0] if len(found) == 1 else None
        # One wording per law: an amending text that changes a Pasal twice (ayat (2)
        # replaced, ayat (4) deleted) restates it last in its final form.
        found = list({id(history): (history, p) for history, p in found}.values())
        if len(found) == 1:
            only = found[0][0][found[0][1]]
            if only.state == PasalVersionState.DELETED or not only.text:
                return found[0]  # "Dihapus." or no wording: nothing to compare, no namesake
        words = _shingles(hit.unit_text or hit.text)
        shares = [_share(words, _shingles(history[p].text)) for history, p in found]
        best = max(shares, default=0.0)
        if best < _HOLDS or shares.count(best) > 1:
            return None  # no wording holds the hit's words, or two hold them equally
        return found[shares.index(best)]


def current_hits(
    q: SearchQuery, fused: Sequence[tuple[int, float]], build: Build, quoted: int = 0
) -> list[SearchHit]:
    """The first ``q.limit`` hits of ``fused`` in the wording in force: a candidate left
    out (a superseded wording) makes room for the next one, for a few rounds at most.
    The first ``quoted`` hold the query word for word (search.phrase): they keep their
    place even before a body, since the person pasted that very text."""
    restate = _restater(build)
    hits: list[SearchHit] = []
    taken = 0
    for _ in range(_MAX_ROUNDS):
        batch = fused[taken : taken + q.limit - len(hits)]
        if not batch:
            break
        taken += len(batch)
        hits = _unique([*hits, *wording_in_force(build(batch, {}), q, restate)])
        if len(hits) >= q.limit:
            break
    return [*hits[:quoted], *body_before_its_penjelasan(hits[quoted : q.limit])]


def body_before_its_penjelasan(hits: Sequence[SearchHit]) -> list[SearchHit]:
    """A Penjelasan never comes before the body it explains: when the hits hold both (the
    same Pasal of the same regulation as cited, so an amending law's restated Pasal and its
    own Penjelasan count as the amended regulation's), the body takes the Penjelasan's
    place and the Penjelasan follows it. The body is the rule; the Penjelasan is its
    official reading and restates much of its wording, so a query made of that wording
    matches both about equally, and the person asked for the rule."""
    out = list(hits)
    position = 0
    while position < len(out):
        hit = out[position]
        if _is_penjelasan(hit):
            key = _explained(hit)
            body = next(
                (
                    later
                    for later in range(position + 1, len(out))
                    if not _is_penjelasan(out[later])
                    and out[later].in_force == hit.in_force
                    and _explained(out[later]) == key
                ),
                None,
            )
            if key is not None and body is not None:
                out.insert(position, out.pop(body))
                position += 1
        position += 1
    return out


def _is_penjelasan(hit: SearchHit) -> bool:
    return (hit.unit_label or "").startswith(PENJELASAN_PREFIX)


def _explained(hit: SearchHit) -> tuple[str, str] | None:
    """(regulation as cited, Pasal) of the unit a hit cites: what a Penjelasan explains."""
    if not hit.unit or not hit.unit.get("pasal") or not hit.citation or not hit.unit_label:
        return None
    regulation = hit.citation.removesuffix(hit.unit_label).strip()
    return (regulation or hit.document_id, str(hit.unit["pasal"]))


def _restater(build: Build) -> Restate:
    def restate(hit: SearchHit, amending_id: str) -> SearchHit | None:
        unit = hit.unit or {}
        ref = UnitRef(
            str(unit.get("pasal")), unit.get("ayat"), unit.get("huruf"), unit.get("angka")
        )
        found = _same_unit(ref, amending_id, _is_penjelasan(hit))
        if not found:
            return None
        built = build([(found[0].chunk_id, hit.score)], {found[0].chunk_id: found[0]})
        return built[0] if built else None

    return restate


def _same_unit(ref: UnitRef, document_id: str, penjelasan: bool) -> list[UnitRow]:
    """The unit ``ref`` names in another text of its Pasal. A body unit falls back to the
    whole Pasal (a restatement may number its ayat anew); a Penjelasan only has its
    counterpart at the same address: an explanation of another part, or of the whole
    Pasal, would not be what the query matched."""
    if penjelasan:
        return named_units(ref, [document_id], penjelasan=True)
    return named_units(ref, [document_id]) or named_units(UnitRef(ref.pasal), [document_id])


def _unique(hits: Sequence[SearchHit]) -> list[SearchHit]:
    """Each chunk once, and each cited unit once: two chunks of one long Pasal, or a Pasal
    and the overlap chunk that repeats its angka, name one unit, and a list naming it twice
    says the same thing twice (issue #35: at 1,550 regulations 10 of 306 GALQA lists did)."""
    seen: set[tuple[object, bool | None]] = set()
    unique = []
    for hit in hits:
        keys: list[tuple[object, bool | None]] = [(hit.chunk_id, hit.in_force)]
        if hit.citation and hit.unit:  # a bare regulation citation names no unit
            keys.append((hit.citation, hit.in_force))
        if not any(key in seen for key in keys):
            seen.update(keys)
            unique.append(hit)
    return unique


def wording_in_force(
    hits: Sequence[SearchHit], q: SearchQuery, restate: Restate
) -> list[SearchHit]:
    """The hits as current law on ``q.as_of`` (see the module docstring), in their order."""
    index = _index(hits, q.as_of or today())
    if index is None:
        return list(hits)
    out: list[SearchHit] = []
    for hit in hits:
        out += _answer(hit, index, q.include_history, restate)
    return _unique(out)


def _index(hits: Sequence[SearchHit], on: date) -> _Index | None:
    numbers = sorted({str(h.unit["pasal"]) for h in hits if h.unit and h.unit.get("pasal")})
    if not numbers:
        return None
    docs = sorted({h.document_id for h in hits})
    with connection.cursor() as cursor:
        # A wording from an amending regulation the caller may not see is never quoted.
        visible_t, params = visibility.named_predicate("t")
        visible_a, _same = visibility.named_predicate("a")
        sql = _VERSIONS_SQL.format(
            visible_t=visible_t,
            visible_a=visible_a,
            explained=Operation.PENJELASAN.value,
            applied=InstructionState.APPLIED.value,
        )
        cursor.execute(sql, {"docs": docs, "numbers": numbers, **params})
        rows = cursor.fetchall()
    if not rows:
        return None
    grouped: dict[tuple[Any, Any], _History] = defaultdict(list)
    index = _Index(on, {}, {})
    for r in rows:
        version = _Version(
            target_id=str(r[1]),
            target_citation=r[2] or "",
            amending_id=str(r[3]) if r[3] else None,
            amending_citation=r[4] or "",
            number=r[5],
            state=r[7],
            valid_from=r[8],
            valid_to=r[9],
            source=r[10],
            text=r[13],
        )
        if r[6] is None:
            _add_explained(index, version, str(r[12]))
        else:
            grouped[(r[0], r[6])].append(version)
    for history in grouped.values():
        first = history[0]
        index.of_target[(first.target_id, first.number)] = history
        for position, version in enumerate(history):
            if version.amending_id is not None:
                key = (version.amending_id, version.number)
                index.restated.setdefault(key, []).append((history, position))
    return index


def _add_explained(index: _Index, version: _Version, target: str) -> None:
    """One Penjelasan-only change of ``version.number``: of the ayat its target names
    ("Pasal 47, Pasal 47 ayat (2), Pasal 47 ayat (3)"), else of the whole Pasal."""
    mentions = re.findall(rf"Pasal\s+{re.escape(version.number)}\b([^P]*)", target)
    ayat = frozenset(a for rest in mentions for a in _AYAT_RE.findall(rest))
    changes = index.explained.setdefault((version.target_id, version.number), [])
    change = _Explained(replace(version, state=PasalVersionState.AMENDED), ayat)
    if change not in changes:
        changes.append(change)
    if version.amending_id is not None:
        index.explained_by[(version.amending_id, version.number)] = version.target_id


def _with_explanations(history: _History, changes: _History) -> _History:
    """The wordings of a Pasal as its Penjelasan sees them: each instruction that changed
    only the Penjelasan is one more wording (of the same text) from its date, which ends
    the one before; a later restatement ends it in turn."""
    if not changes:
        return history
    merged = sorted(
        [*history, *changes],
        key=lambda v: (v.valid_from is not None, v.valid_from or date.min),
    )
    ends = [v.valid_from for v in merged[1:]] + [history[-1].valid_to]
    return [
        v if v.state == PasalVersionState.DELETED else replace(v, valid_to=end)
        for v, end in zip(merged, ends, strict=True)
    ]


def _answer(
    hit: SearchHit, index: _Index, include_history: bool, restate: Restate
) -> list[SearchHit]:
    pasal = str(hit.unit["pasal"]) if hit.unit else ""
    explained = index.of_penjelasan(hit) if _is_penjelasan(hit) else None
    if explained is not None and explained[1] is not None:
        return _restated(hit, index, include_history, restate, explained[0], explained[1])
    restated = index.restated_by(hit, pasal) if explained is None else None
    if restated is not None:
        return _restated(hit, index, include_history, restate, *restated)
    history = explained[0] if explained else index.of_target.get((hit.document_id, pasal))
    if history is None:
        return [hit]
    if index.in_force(history) == 0 and history[0].state == PasalVersionState.ORIGINAL:
        return [replace(hit, valid_from=_iso(history[0].valid_from))]
    answers = _in_force_instead(hit, index, history, restate)
    if include_history:
        answers.append(replace(hit, in_force=False, valid_from=_iso(history[0].valid_from)))
    return answers


def _restated(
    hit: SearchHit,
    index: _Index,
    include_history: bool,
    restate: Restate,
    history: _History,
    position: int,
) -> list[SearchHit]:
    version = history[position]
    changed = [c for c in (v.changed_by() for v in history[: position + 1]) if c is not None]
    label = hit.unit_label or f"Pasal {version.number}"
    citation = f"{version.target_citation} {label}".strip()
    cited = replace(
        hit,
        citation=citation,
        citation_full=full_citation(citation, changed),
        consolidated=True,
        changed_by=[c.to_json() for c in changed],
        valid_from=_iso(version.valid_from),
    )
    if index.in_force(history) == position:
        return [cited]
    answers = _in_force_instead(hit, index, history, restate)
    return [*answers, replace(cited, in_force=False)] if include_history else answers


def _in_force_instead(
    hit: SearchHit, index: _Index, history: _History, restate: Restate
) -> list[SearchHit]:
    """What a wording not in force gives way to: the same unit in the text that holds the
    wording in force (the amending law that restates it, or the original itself), cited as
    current law; nothing when the Pasal is deleted or not yet in force. A Penjelasan gives
    way too, to the Penjelasan of the same unit in the text in force (:func:`_same_unit`)."""
    current = index.in_force(history)
    if current is None:
        return []  # not yet in force on that date
    if history[current].state == PasalVersionState.DELETED:
        # No wording is in force: the hit stays, said to be out of force, never as law.
        return [replace(hit, in_force=False, valid_from=_iso(history[0].valid_from))]
    source = history[current].amending_id or history[current].target_id
    substitute = restate(hit, source) if source != hit.document_id else None
    if substitute is None:
        return []
    return _answer(substitute, index, False, restate)


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = _WORD_RE.findall(text.lower())
    if not words:
        return set()
    return {tuple(words[i : i + _SHINGLE]) for i in range(max(1, len(words) - _SHINGLE + 1))}


def _share(a: set[tuple[str, ...]], b: set[tuple[str, ...]]) -> float:
    """How much of the shorter of two texts is inside the longer: a chunk inside a long
    restated Pasal, or a restated Pasal inside a chunk that also holds its instruction."""
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value else None
