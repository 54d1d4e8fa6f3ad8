"""CORS headers remembered per Origin (service/api/cors.py) are the ones flask-cors writes."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.settings import Settings

ORIGINS = ("https://foundry.example", "https://roll20.example")
ASKED = [
    {},
    {"Origin": "https://foundry.example"},
    {"Origin": "https://roll20.example"},
    {"Origin": "https://elsewhere.example"},
    {"Origin": "https://foundry.example", "Access-Control-Request-Private-Network": "true"},
]


def cors_headers(response) -> list[tuple[str, str]]:
    return [(k, v) for k, v in response.headers.items() if k.startswith("Access-Control-") or k == "Vary"]


@pytest.mark.parametrize("origins", [("*",), ORIGINS], ids=["wildcard", "listed"])
def test_remembered_headers_are_flask_cors_own_whatever_the_order(store, origins):
    app = create_app(Settings(rate_limit="", cors_origins=origins), store=store)
    plain = create_app(Settings(rate_limit="", cors_origins=origins), store=store)
    hooks = plain.after_request_funcs[None]
    [index] = [i for i, hook in enumerate(hooks) if hook.__name__ == "cors_headers"]
    hooks[index] = hooks[index].__wrapped__  # flask-cors's own hook, nothing remembered
    assert hooks[index].__name__ == "cors_after_request"
    client, reference = app.test_client(), plain.test_client()
    for headers in [*ASKED, *reversed(ASKED), *ASKED]:
        for path in ("/rulesets", "/combats/nope"):
            answer, expected = client.get(path, headers=headers), reference.get(path, headers=headers)
            assert answer.status_code == expected.status_code
            assert cors_headers(answer) == cors_headers(expected), (path, headers)
    assert cors_headers(client.get("/rulesets", headers={"Origin": ORIGINS[0]}))[0][0] == "Access-Control-Allow-Origin"
