"""The service on a real three-node Redis Cluster (``redis+cluster://``).

The test starts its own cluster: three redis-server processes in cluster
mode on free loopback ports, in a temporary directory, joined with
``redis-cli --cluster create``; it stops them at the end. It never touches
the shared Redis.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time

import pytest
import redis
from redis.cluster import RedisCluster

from service.app import create_app
from service.settings import Settings
from service.store import connect
from service.store.keys import combat_keys

from ..conftest import GameMasterClient
from ..helpers import act, create, log

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None or shutil.which("redis-cli") is None, reason="needs redis-server and redis-cli"
)
NODES = 3


def free_ports(count: int) -> list[int]:
    """Ports free for a node and for its cluster bus (port + 10000)."""
    ports: list[int] = []
    while len(ports) < count:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port + 10000 > 65535 or port in ports:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        ports.append(port)
    return ports


def wait_until(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except (redis.RedisError, OSError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{what} within {seconds} s")


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory):
    directory = tmp_path_factory.mktemp("redis-cluster")
    ports = free_ports(NODES)
    processes = []
    try:
        for port in ports:
            node_dir = directory / str(port)
            node_dir.mkdir()
            processes.append(
                subprocess.Popen(
                    [
                        "redis-server",
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes.conf",
                        "--cluster-node-timeout",
                        "2000",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        str(node_dir),
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
        for port in ports:
            wait_until(lambda: redis.Redis(port=port).ping(), 10, f"redis-server on {port} did not start")
        subprocess.run(
            [
                "redis-cli",
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=30,
        )
        for port in ports:
            wait_until(
                lambda: redis.Redis(port=port).cluster("info")["cluster_state"] == "ok", 15, "the cluster is not ok"
            )
        yield f"redis+cluster://127.0.0.1:{ports[0]}"
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)


@pytest.fixture
def client(cluster_url):
    app = create_app(Settings(redis_url=cluster_url, rate_limit="", combat_ttl_seconds=600))
    app.test_client_class = GameMasterClient
    return app.test_client()


def sistema_example(client) -> dict:
    return client.get("/rulesets/sistema-2d6").get_json()["example"]


def test_the_store_uses_the_cluster_client_and_keeps_a_combat_in_one_slot(client, cluster_url):
    store = client.application.extensions["melee.store"]
    assert isinstance(store.client, RedisCluster)
    assert len(store.client.get_primaries()) == NODES
    assert client.get("/readyz").status_code == 200
    _, combat = create(client, sistema_example(client)["combat"])
    slots = {store.client.keyslot(key) for key in combat_keys(combat["id"])}
    assert len(slots) == 1


def test_create_act_read_the_log_and_delete(client):
    example = sistema_example(client)
    ids = set()
    for _ in range(6):  # several combats: their slots spread over the nodes
        location, combat = create(client, example["combat"])
        ids.add(combat["id"])
        for action in example["actions"]:
            act(client, location, action)
        entries = log(client, location)
        assert [e["seq"] for e in entries] == [1, 2, 3]
        assert client.get(location).get_json()["version"] == 3
    store = client.application.extensions["melee.store"]
    nodes = {store.client.get_node_from_key(combat_keys(i)[0]).port for i in ids}
    assert len(nodes) > 1
    assert client.delete(location).status_code == 204
    assert client.get(location).status_code == 404


def test_a_snapshot_saved_and_restored_on_the_cluster(client):
    example = sistema_example(client)
    for _ in range(3):  # combats on several nodes
        location, _ = create(client, example["combat"])
        act(client, location, example["actions"][0])
        saved, entries = client.get(location).get_json(), log(client, location)
        snapshot = client.get(f"{location}/snapshot").get_json()["snapshot"]
        assert client.delete(location).status_code == 204
        assert client.post("/combats", json={"snapshot": snapshot}).status_code == 201
        assert client.get(location).get_json()["version"] == saved["version"] + 1  # its `restored` entry
        assert log(client, location)[:-1] == entries
        assert client.post("/combats", json={"snapshot": snapshot}).status_code == 409
        act(client, location, example["actions"][1])


def test_concurrent_actions_commit_one_at_a_time(client):
    example = sistema_example(client)
    location, _ = create(client, example["combat"])
    gm = {"Authorization": f"Bearer {client.tokens[location.rsplit('/', 1)[1]]['gm']}"}
    app = client.application
    statuses, barrier = [], threading.Barrier(8)

    def post():
        own = app.test_client()
        barrier.wait()
        response = own.post(
            f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers={**gm, "If-Match": '"1"'}
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=post) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [412] * 7
    assert client.get(location).get_json()["version"] == 2


def test_a_combat_expires_on_the_cluster(cluster_url):
    store = connect(cluster_url, ttl_seconds=1)
    app = create_app(Settings(redis_url=cluster_url, rate_limit=""), store=store)
    app.test_client_class = GameMasterClient
    client = app.test_client()
    location, combat = create(client, sistema_example(client)["combat"])
    assert all(store.client.ttl(key) in (0, 1) for key in combat_keys(combat["id"]) if store.client.exists(key))
    wait_until(lambda: client.get(location).status_code == 404, 5, "the combat did not expire")


def test_rate_limits_and_simulation_jobs_share_the_cluster(cluster_url):
    app = create_app(Settings(redis_url=cluster_url, rate_limit="2 per minute"))
    client = app.test_client()
    statuses = [client.get("/rulesets").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    # One limit covers every endpoint: the example comes from an app without one.
    unlimited = create_app(Settings(redis_url=cluster_url, rate_limit="")).test_client()
    template = {k: v for k, v in sistema_example(unlimited)["combat"].items() if k != "dice"}
    response = unlimited.post("/simulations", json={"template": template, "fights": 30, "seed": 1, "background": True})
    assert response.status_code == 202
    wait_until(
        lambda: unlimited.get(response.headers["Location"]).get_json()["status"] == "done", 20, "the job did not finish"
    )


def test_listeners_of_combats_on_different_nodes_get_their_entries(client):
    """The stream reader polls each followed stream on its own node (one XREAD cannot span slots)."""
    from ..api.test_stream import open_stream

    example = sistema_example(client)
    locations = [create(client, example["combat"])[0] for _ in range(4)]
    streams = [open_stream(client, location) for location in locations]
    for stream in streams:
        stream.next()
    for location in locations:
        act(client, location, example["actions"][0])
    for stream in streams:
        assert stream.next_event()["id"].split(":")[0] == "2"  # <seq>:<tag>
    assert client.delete(locations[0]).status_code == 204
    assert streams[0].next_event()["event"] == "gone"
    for stream in streams:
        stream.close()
