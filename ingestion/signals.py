"""Signals the core sends so that apps above it can act without the core knowing them.

``job_settled_by_review``: a reviewer settled the last parked chunk of a document, and
``job`` went from ``needs_review`` to ``done``. Sent inside the review's transaction, so a
receiver's writes commit iff the status change does (``partner_events`` records the
partner's terminal stage event here).
"""

from __future__ import annotations

from django.dispatch import Signal

job_settled_by_review = Signal()  # kwargs: job (IngestionJob)
