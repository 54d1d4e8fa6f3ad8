"""Inside a VTT: FRAME_ANCESTORS (who may frame /play) and CORS_PRIVATE_NETWORK
(Private Network Access preflights), at the header level."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.settings import Settings, SettingsError

VTTS = ("https://www.owlbear.rodeo", "https://foundry.example:30000", "https://*.forge-vtt.com")
PREFLIGHT = {
    "Origin": "https://www.owlbear.rodeo",
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type, authorization",
    "Access-Control-Request-Private-Network": "true",
}


def client_with(store, **settings):
    return create_app(Settings(rate_limit="", **settings), store=store).test_client()


def frame_ancestors(response) -> str:
    [directive] = [d.strip() for d in response.headers["Content-Security-Policy"].split(";") if "frame-ancestors" in d]
    return directive


@pytest.mark.parametrize("page", ["/play", "/docs"])
def test_without_frame_ancestors_no_site_may_frame_the_pages(store, page):
    response = client_with(store).get(page)
    assert response.status_code == 200
    assert frame_ancestors(response) == "frame-ancestors 'none'"
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("page", ["/play", "/docs"])
def test_frame_ancestors_names_the_vtts_that_may_frame_the_pages_and_drops_x_frame_options(store, page):
    response = client_with(store, frame_ancestors=VTTS).get(page)
    assert response.status_code == 200
    assert frame_ancestors(response) == "frame-ancestors " + " ".join(VTTS)
    assert "X-Frame-Options" not in response.headers
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]  # the rest of the policy stays


def test_frame_ancestors_is_read_space_separated_and_checked_at_start():
    env = {"FRAME_ANCESTORS": "  https://www.owlbear.rodeo   http://localhost:30000 "}
    assert Settings.from_env(env).frame_ancestors == ("https://www.owlbear.rodeo", "http://localhost:30000")
    assert Settings.from_env({}).frame_ancestors == ()
    for wrong in ("https://vtt.example/play", "*", "'none'", "vtt.example", "https://vtt.example,https://b.example"):
        with pytest.raises(SettingsError, match="FRAME_ANCESTORS") as refused:
            Settings.from_env({"FRAME_ANCESTORS": f"https://fine.example {wrong}"})
        assert repr(wrong) in str(refused.value)


def test_cors_private_network_allows_the_private_network_preflight(store):
    allowed = client_with(store, cors_private_network=True).options("/combats", headers=PREFLIGHT)
    assert allowed.status_code == 200
    assert allowed.headers["Access-Control-Allow-Private-Network"] == "true"
    assert allowed.headers["Access-Control-Allow-Origin"] in ("*", PREFLIGHT["Origin"])
    refused = client_with(store).options("/combats", headers=PREFLIGHT)
    assert refused.headers["Access-Control-Allow-Private-Network"] == "false"
    # A preflight that does not ask gets no such header either way.
    plain = {k: v for k, v in PREFLIGHT.items() if k != "Access-Control-Request-Private-Network"}
    assert (
        "Access-Control-Allow-Private-Network"
        not in client_with(store, cors_private_network=True).options("/combats", headers=plain).headers
    )


def test_cors_private_network_is_a_flag():
    assert Settings.from_env({"CORS_PRIVATE_NETWORK": "1"}).cors_private_network is True
    assert Settings.from_env({}).cors_private_network is False
    with pytest.raises(SettingsError, match="CORS_PRIVATE_NETWORK"):
        Settings.from_env({"CORS_PRIVATE_NETWORK": "maybe"})
