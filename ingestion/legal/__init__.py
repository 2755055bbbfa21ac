"""Legal-domain logic for Indonesian regulations: citations, units, references.

Pure Python, no Django: the pipeline, search and the relations extractor build on it.
"""
