"""Bulk import of a corpus (``manage.py import_corpus``): the files to import, one file
through the upload path, the run over many files and its summary."""
