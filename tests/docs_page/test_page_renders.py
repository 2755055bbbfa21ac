"""The partner contract page is public and generated from the active configuration."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from partner_events.contract.fields import SOURCE_METADATA_KEYS
from partner_events.status import ROUTES

URL = "/docs/api/partner-events"


def page(client: Client) -> str:
    response = client.get(URL)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_page_renders_for_an_anonymous_visitor_in_indonesian(client: Client) -> None:
    html = page(client)
    assert '<html lang="id">' in html
    assert "Checklist producer untuk doc.uploaded" in html
    assert "Checklist consumer untuk StageStatusEvent" in html


@pytest.mark.django_db
def test_the_page_lists_every_routing_key_and_metadata_key(client: Client) -> None:
    html = page(client)
    for key in ROUTES:
        assert f"<code>{key.value}</code>" in html
    for name in SOURCE_METADATA_KEYS:
        assert f"<code>{name}</code>" in html


@pytest.mark.django_db
def test_overridden_stage_topics_are_the_topics_shown(client: Client) -> None:
    topics = {key.value: f"dms.{key.value}.v2" for key in ROUTES}
    with override_settings(KAFKA_STAGE_TOPICS=topics):
        html = page(client)
    assert "<code>dms.ocr_pending.v2</code>" in html
    assert "<code>doc.ocr.pending</code>" not in html


@pytest.mark.django_db
def test_an_invalid_stage_topic_map_is_reported_on_the_page(client: Client) -> None:
    with override_settings(KAFKA_STAGE_TOPICS={"fetched": "doc.extracted"}):
        html = page(client)
    assert "tidak valid" in html


@pytest.mark.django_db
def test_the_active_settings_are_shown(client: Client) -> None:
    with override_settings(
        KAFKA_CONSUMER_GROUP="grup-uji-aceh",
        KAFKA_DOC_UPLOADED_TOPIC="mitra.doc.uploaded",
        PARTNER_FILENAME_FIELD="originalName",
        KAFKA_MAX_RETRIES=7,
    ):
        html = page(client)
    assert "<code>grup-uji-aceh</code>" in html
    assert "<code>mitra.doc.uploaded</code>" in html
    assert "<code>originalName</code>" in html
    assert "<code>7</code>" in html


@pytest.mark.django_db
def test_the_page_explains_held_deferred_offsets_and_worker_exit_codes(client: Client) -> None:
    with override_settings(KAFKA_DRAIN_SECONDS=123, JOB_STALE_SECONDS=77):
        html = page(client)
    assert "tidak pernah melewati record yang masih berjalan atau deferred" in html
    assert "= 123 detik" in html
    assert "lebih lama dari 77 detik" in html
    for code in ("kode 0", "1 bila", "2 bila", "130"):
        assert code in html
