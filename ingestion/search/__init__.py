"""Search: hybrid retrieval for the API, the UI and RAG answers.

``service`` fuses the ranked lists; ``sql`` and ``lexical`` fetch candidates; ``terms``
turns a query into searchable words; ``query`` holds the request and response types.
"""
