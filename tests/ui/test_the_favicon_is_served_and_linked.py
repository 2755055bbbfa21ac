"""/favicon.ico no longer answers 404: it leads to a real icon from static/, which every
page built on the base template also links."""

from __future__ import annotations

from django.test import Client


def _body(response: object) -> bytes:
    streaming = getattr(response, "streaming_content", None)
    return b"".join(streaming) if streaming is not None else bytes(response.content)  # type: ignore[attr-defined]


def test_favicon_ico_leads_to_an_icon(client: Client) -> None:
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert _body(response)[:4] == b"\x00\x00\x01\x00"  # the ICO header


def test_pages_link_the_icon(admin_client: Client) -> None:
    page = admin_client.get("/").content.decode()
    assert 'rel="icon"' in page and "favicon.ico" in page
    login = Client().get("/login/").content.decode()
    assert 'rel="icon"' in login
