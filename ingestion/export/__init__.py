"""A portable export of the knowledge base and its import (``export_corpus``,
``import_corpus_export``, ``verify_export``). ``tables`` says what is exported and why."""
