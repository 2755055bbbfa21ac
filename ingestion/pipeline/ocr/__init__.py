"""The OCR stage: page images in, lines with a calibrated confidence, then blocks, out.

``step`` is what the runner calls; ``factory`` picks the engine (``gateway`` or ``local``)
behind the ``engine`` protocol; ``images`` decodes pages and marks unread ones; ``layout``
groups lines into blocks; ``confidence`` calibrates line scores.
"""
