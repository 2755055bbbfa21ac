"""Links built from partner-supplied metadata.

sourceMetadata URLs are free text from the partner; only http(s) URLs with a host may become
link targets anywhere (UI, API citations), so a ``javascript:`` value can never be clicked.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def safe_url(value: object) -> str | None:
    """``value`` stripped when it is an http(s) URL with a host, else None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() in {"http", "https"} and parts.netloc:
        return text
    return None
