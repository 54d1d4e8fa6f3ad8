"""GET / leads somewhere useful, and there is a favicon (issue 25)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.web import STATIC


def test_the_root_is_a_page_that_leads_to_play_the_docs_and_the_contract(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    links = set(re.findall(r'<a href="([^"]+)"', response.get_data(as_text=True)))
    assert {"/play", "/docs", "/openapi.json"} <= links
    for link in links:  # each one it offers answers
        assert client.get(link).status_code == 200, link
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert '<link rel="icon" href="/favicon.ico">' in response.get_data(as_text=True)


def test_the_favicon_is_served_as_an_icon_and_cached(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/vnd.microsoft.icon"
    body = response.get_data()
    assert body[:4] == b"\x00\x00\x01\x00" and int.from_bytes(body[4:6], "little") == 1  # ICO, one image
    assert body[22:30] == b"\x89PNG\r\n\x1a\n"  # a 32x32 PNG inside
    assert "max-age=86400" in response.headers["Cache-Control"]


@pytest.mark.parametrize("page", ["index.html", "play.html"])
def test_the_pages_name_the_favicon(page):
    assert '<link rel="icon" href="/favicon.ico">' in (Path(STATIC) / page).read_text()


def test_the_package_ships_the_favicon():
    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text()
    assert '"**/*.ico"' in pyproject
