"""Print every GALQA reference query whose first result is not the exact gold unit.

``.venv/bin/python bench/reference_failures.py --database-url URL [--query-cache F]``: the
same queries as ``evaluate_references`` in ``bench/retrieval.py``, with the top result's
document and unit beside the gold, to classify the misses.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import retrieval


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url")
    parser.add_argument("--galqa", type=Path, default=retrieval.GALQA)
    parser.add_argument("--query-cache", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-reffail-") as tmp:
        retrieval.setup_django(args.database_url, Path(tmp))
        files = retrieval.ingest_corpus(args.galqa / "docs")
        questions = retrieval.load_questions(args.galqa / "dev_questions.csv")
        retrieval.EMBEDDER = retrieval.TimedEmbedder(args.query_cache)
        from ingestion.search.service import SearchTuning

        run = retrieval.hybrid_runner("hybrid", files, SearchTuning.from_settings())
        misses = 0
        divided = retrieval.divided_pasals()
        for index, question in enumerate(questions):
            text = retrieval.reference_query(question, index)
            if text is None:
                continue
            results = run(text)
            top = results[0] if results else None
            if retrieval.reference_exact(question, top, divided):
                continue
            misses += 1
            gold = (question.article, question.ayat, question.letter)
            got = (top.file_name, top.unit) if top else None
            print(f"{question.document} gold={gold} query={text!r}\n    top={got}")
        retrieval.EMBEDDER.save()
        print(f"{misses} misses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
