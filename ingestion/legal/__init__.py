"""Legal-domain logic for Indonesian regulations: citations, units, references.

The parsers (citation, units, references) are pure Python; ``store`` writes units to
Postgres. The pipeline, search and the relations extractor build on them.
"""
