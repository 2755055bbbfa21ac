"""The core's error vocabulary: what a stage, the storage or a review raises.

``permanent`` is the whole retry policy: permanent errors (a corrupt file, a 4xx verdict
from the gateway) are never retried, transient ones (a storage timeout, a 5xx) are retried
with a bound by the caller. ``reason`` is what a person reads, in Indonesian; it ends up on
the job, the document and the failed stage event. The platform's gateway errors stand
alone and are mapped here by :func:`stage_error`.
"""

from __future__ import annotations

from aceh_rag.platform.gateway.errors import GatewayError

# The reason a person reads when our own code failed (never a traceback).
INTERNAL_ERROR = "Kesalahan internal saat memproses dokumen"


class StageError(Exception):
    permanent: bool = True

    def __init__(self, reason: str, *, code: str = "error", detail: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.detail = detail


class PermanentError(StageError):
    """The input can never succeed as sent: do not retry."""

    permanent = True


class TransientError(StageError):
    """A passing fault (timeout, 5xx, storage hiccup): retry with a bound.

    ``retry_after_s``: how long the upstream asked us to wait (backpressure), when it said.
    """

    permanent = False
    retry_after_s: float | None = None


def stage_error(exc: GatewayError) -> StageError:
    """The pipeline's error for what the model gateway raised: same reason, code, verdict."""
    if exc.permanent:
        return PermanentError(exc.reason, code=exc.code, detail=exc.detail)
    error = TransientError(exc.reason, code=exc.code, detail=exc.detail)
    error.retry_after_s = getattr(exc, "retry_after_s", None)
    return error
