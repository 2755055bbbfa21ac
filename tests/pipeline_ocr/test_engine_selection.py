from django.test import override_settings

from ingestion.pipeline.ocr.factory import get_ocr_engine
from ingestion.pipeline.ocr.gateway import GatewayOcrEngine
from ingestion.pipeline.ocr.local import LocalOcrEngine


def test_without_a_gateway_the_local_engine_is_used_and_built_once() -> None:
    with override_settings(MODEL_GATEWAY_URL=None):
        first = get_ocr_engine()
        assert isinstance(first, LocalOcrEngine)
        assert get_ocr_engine() is first


def test_with_a_gateway_url_the_gateway_engine_is_used() -> None:
    with override_settings(MODEL_GATEWAY_URL="http://gateway.test"):
        assert isinstance(get_ocr_engine(), GatewayOcrEngine)
