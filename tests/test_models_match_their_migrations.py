"""Every model change comes with its migration: ``makemigrations --check`` finds nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_makemigrations_finds_no_model_change_without_a_migration() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
