"""The doc.uploaded contract: one Kafka record value in, a normalized record or a verdict out.

``validate`` reads the record; ``fields`` and ``config`` hold the field table and the
settings it is read with; ``record`` the outcome types. Formats and source types are the
core's (:mod:`ingestion.formats`, :mod:`ingestion.sources`).
"""
