"""CORS: Melee's answers carry exactly the headers a plain ``flask_cors.CORS(app, ...)``
sets with the same options (service/api/cors.py keeps flask-cors's decision per
Origin): the test that fails if flask-cors starts deciding from anything else."""

from __future__ import annotations

import flask
import flask_cors
import pytest

from service.api import cors
from service.app import create_app
from service.settings import Settings

ORIGINS = {
    "any": ("*",),
    "listed": ("https://www.owlbear.rodeo", "https://foundry.example:30000"),
    "pattern": ("https://.*\\.forge-vtt\\.com",),
}
VTT = "https://www.owlbear.rodeo"
REQUESTS = [
    ("GET", "/rulesets", {}),
    ("GET", "/rulesets", {"Origin": VTT}),
    ("GET", "/rulesets", {"Origin": "https://elsewhere.example"}),
    ("GET", "/rulesets", {"Origin": "https://game.forge-vtt.com"}),
    ("GET", "/no/such/path", {"Origin": VTT}),  # a 404 problem: CORS headers all the same
    ("POST", "/combats", {"Origin": VTT, "Content-Type": "text/plain"}),  # refused (415)
    ("POST", "/combats", {"Origin": VTT, "Access-Control-Request-Private-Network": "true"}),
    (
        "OPTIONS",
        "/combats",
        {
            "Origin": VTT,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, authorization, x-unknown",
            "Access-Control-Request-Private-Network": "true",
        },
    ),
    ("OPTIONS", "/combats", {"Origin": VTT, "Access-Control-Request-Method": "DELETE"}),
    ("OPTIONS", "/combats/abc/actions", {"Origin": "https://x.example", "Access-Control-Request-Method": "POST"}),
]


def cors_headers(response) -> tuple[list[tuple[str, str]], bool]:
    """The Access-Control-* headers, and whether the answer varies by Origin (Melee's views vary by more)."""
    varies = {part.strip() for value in response.headers.get_all("Vary") for part in value.split(",")}
    allowed = sorted((n, v) for n, v in response.headers.items() if n.lower().startswith("access-control-"))
    return allowed, "Origin" in varies


def reference_client(origins: tuple[str, ...], private_network: bool):
    """flask-cors as its documentation applies it, on an app answering every path."""
    app = flask.Flask("reference")
    flask_cors.CORS(app, **cors.options(origins, private_network))

    @app.route("/<path:path>", methods=["GET", "POST"])
    def anything(path):
        return {}

    return app.test_client()


@pytest.mark.parametrize("private_network", [False, True])
@pytest.mark.parametrize("origins", sorted(ORIGINS))
def test_the_headers_are_flask_cors_own_every_time(store, origins, private_network):
    settings = Settings(rate_limit="", cors_origins=ORIGINS[origins], cors_private_network=private_network)
    melee = create_app(settings, store=store).test_client()
    reference = reference_client(ORIGINS[origins], private_network)
    for _ in range(2):  # the second time from what Melee kept
        for method, path, headers in REQUESTS:
            expected = cors_headers(reference.open(path, method=method, headers=headers))
            assert cors_headers(melee.open(path, method=method, headers=headers)) == expected, (method, path, headers)


def test_a_listed_origin_is_echoed_and_varies(store):
    melee = create_app(Settings(rate_limit="", cors_origins=ORIGINS["listed"]), store=store).test_client()
    answer = melee.get("/rulesets", headers={"Origin": VTT})
    assert answer.headers["Access-Control-Allow-Origin"] == VTT
    assert "Origin" in answer.headers.get_all("Vary")
    assert "Access-Control-Allow-Origin" not in melee.get("/rulesets", headers={"Origin": "https://x.example"}).headers


def test_what_is_kept_is_bounded(store, monkeypatch):
    decisions = []
    decide = cors.cross_origin

    def counted(**options):
        decorate = decide(**options)
        return lambda answer: decorate(lambda: decisions.append(1) or answer())

    monkeypatch.setattr(cors, "REMEMBERED", 2)
    monkeypatch.setattr(cors, "cross_origin", counted)
    melee = create_app(Settings(rate_limit="", cors_origins=ORIGINS["pattern"]), store=store).test_client()
    for _ in range(2):
        for index in range(5):
            origin = f"https://t{index}.forge-vtt.com"
            assert melee.get("/rulesets", headers={"Origin": origin}).headers["Access-Control-Allow-Origin"] == origin
    # The first two origins are decided once and kept; the other three, beyond the bound, every time.
    assert len(decisions) == 2 + 3 * 2
