"""Where documents come from: the one ``SourceType`` of the core, the API and the contract."""

from __future__ import annotations

from django.db import models


class SourceType(models.TextChoices):
    JDIH = "JDIH", "JDIH"
    OPENDATA = "OpenData", "OpenData"
    PPID = "PPID", "PPID"
    SATUDATA = "SatuData", "SatuData"
    UPLOAD = "upload", "Unggahan"
