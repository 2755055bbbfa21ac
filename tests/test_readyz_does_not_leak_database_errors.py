"""/readyz is public: a database outage is reported without the driver's message."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client


@pytest.mark.django_db
def test_an_unreachable_database_is_reported_without_host_or_driver_text(client: Client) -> None:
    connection.close()
    original = connection.settings_dict.copy()
    connection.settings_dict.update({"HOST": "127.0.0.1", "PORT": "1"})
    try:
        response = client.get("/readyz")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unavailable"}
