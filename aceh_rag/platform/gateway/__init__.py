"""Client for the AHU model gateway.

``client`` sends calls with the retry policy; ``jobs`` runs OCR batch jobs; ``errors`` are
what both raise; ``config`` and ``wire`` hold the settings and what every call carries.
"""
