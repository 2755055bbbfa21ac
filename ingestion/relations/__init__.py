"""The regulation graph in the database: relations found in each regulation, their links
to the regulations in the corpus, and the in-force status derived from both.

The reading of the text is pure (:mod:`ingestion.legal.relations`); this package stores,
links and recomputes. Either ingestion order gives the same graph: a relation links to
its target when the relation is found and again when the target arrives.
"""
