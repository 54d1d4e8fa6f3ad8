"""Redis stops in the middle of a run: 503 problems, never a 500; it comes
back: the service answers again without a restart, and every combat loads.

This test starts its own redis-server on a free port (with an append-only
file, so a restart keeps the data) and never touches the shared one.
"""

import pytest

from service.app import create_app
from service.settings import Settings

from ..conftest import GameMasterClient
from ..helpers import act, create, log
from ..redis_server import AVAILABLE

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="needs redis-server")


def test_outage_gives_503s_then_the_service_recovers(own_redis):
    settings = Settings(redis_url=f"redis://127.0.0.1:{own_redis.port}/0", redis_timeout_seconds=0.5, rate_limit="")
    app = create_app(settings)
    app.test_client_class = GameMasterClient
    client = app.test_client()
    example = client.get("/rulesets/sistema-2d6").get_json()["example"]
    combats = []
    for _ in range(3):
        location, _ = create(client, example["combat"])
        act(client, location, example["actions"][0])
        combats.append(location)
    before = {location: log(client, location) for location in combats}

    own_redis.stop()
    statuses = set()
    for location in combats:
        for response in (
            client.get(location),
            client.post(f"{location}/actions", json=example["actions"][1]),
            client.get(f"{location}/events"),
            client.post("/combats", json=example["combat"]),
            client.get("/readyz"),
        ):
            statuses.add(response.status_code)
            assert response.content_type == "application/problem+json"
            assert response.headers["Retry-After"]
    assert statuses == {503}
    assert client.get("/healthz").status_code == 200

    own_redis.start()
    assert client.get("/readyz").status_code == 200
    for location in combats:
        assert log(client, location) == before[location], "no combat was half-written"
        result = act(client, location, example["actions"][1])
        assert result["combat"]["version"] == 3
