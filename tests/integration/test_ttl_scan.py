"""Every key the service writes has a TTL: play fights, then scan Redis."""

from ..helpers import act, create


def test_no_key_without_ttl_after_a_fight(client, store):
    combat_ids = []
    for _ in range(3):
        example = client.get("/rulesets/sistema-2d6").get_json()["example"]
        location, combat = create(client, example["combat"])
        combat_ids.append(combat["id"])
        for action in example["actions"]:
            act(client, location, action)
    client.delete(f"/combats/{combat_ids.pop()}")
    scanned = list(store.client.scan_iter(match="combat:*", count=1000))
    ours = [k for k in scanned if any(i in k.decode() for i in combat_ids)]
    assert len(ours) == 4 * len(combat_ids)  # state, log, access grants, stream
    # TTL -1: the key has no expiry (a bug); -2: it expired or was deleted since the scan.
    without_ttl = [k for k in scanned if store.client.ttl(k) == -1]
    assert without_ttl == []
