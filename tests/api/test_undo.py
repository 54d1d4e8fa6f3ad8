"""Undo and redo: the exact earlier state comes back, for every ruleset."""

import pytest

from service.rules.registry import RULESETS

from ..helpers import act, codes, create, log, play

# dice_commitments grows by one stream per undo (checked where it matters).
BOOKKEEPING = ("version", "expires_at", "parent", "redo", "dice_commitments")


def comparable(combat: dict) -> dict:
    return {key: value for key, value in combat.items() if key not in BOOKKEEPING}


def example(client, ruleset):
    return client.get(f"/rulesets/{ruleset}").get_json()["example"]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_undo_restores_the_exact_earlier_state_and_redo_replays_the_same_result(client, ruleset):
    body = example(client, ruleset)
    location, _ = create(client, body["combat"])
    for action in body["actions"][:-1]:
        play(client, location, action)
    before = client.get(location).get_json()
    last = play(client, location, body["actions"][-1])
    after = last["combat"]

    undone = client.post(f"{location}/undo")
    assert undone.status_code == 200, undone.get_json()
    assert codes(undone.get_json()) == ["action_undone"]
    restored = client.get(location).get_json()
    assert comparable(restored) == comparable(before)
    assert restored["version"] == after["version"] + 1
    # The restored state draws its server dice from a new stream, committed in the undo entry.
    new_stream = undone.get_json()["combat"]["dice_commitments"][-1]
    assert restored["dice_commitments"] == [*before["dice_commitments"], new_stream]
    assert new_stream["stream"] == len(before["dice_commitments"])
    assert log(client, location)[-1]["action"]["dice_commitment"] == new_stream

    redone = client.post(f"{location}/redo")
    assert redone.status_code == 200, redone.get_json()
    result = redone.get_json()
    assert codes(result)[0] == "action_redone"
    assert result["rolls"] == last["rolls"], "the same dice come out again"
    assert [e for e in result["events"][1:]] == last["events"]
    assert comparable(result["combat"]) == comparable(after)


def test_undo_twice_goes_back_two_actions_and_a_new_action_branches(client):
    body = example(client, "sistema-2d6")
    location, created = create(client, body["combat"])
    act(client, location, {"type": "pass", "actor": "ana"})
    act(client, location, {"type": "pass", "actor": "capanga"})
    assert client.post(f"{location}/undo").status_code == 200
    assert client.post(f"{location}/undo").status_code == 200
    state = client.get(location).get_json()
    assert comparable(state) == comparable(created)
    assert [c["stream"] for c in state["dice_commitments"]] == [0, 1, 2]
    assert state["redo"] == [3, 2]
    # A different action is a branch: nothing is left to redo.
    act(client, location, body["actions"][0])
    assert client.post(f"{location}/redo").status_code == 409
    kinds = [entry["action"]["type"] for entry in log(client, location)]
    assert kinds == ["start", "pass", "pass", "undo", "undo", "attack"]


def test_the_log_replays_through_undos_and_redos(client, store):
    from service.rules.engine import replay

    body = example(client, "sistema-2d6")
    location, combat = create(client, body["combat"])
    act(client, location, body["actions"][0])
    client.post(f"{location}/undo")
    client.post(f"{location}/redo")
    act(client, location, body["actions"][1])
    snapshot, entries = store.snapshot_before(combat["id"], 1)
    stored = store.load(combat["id"])
    rebuilt = replay(snapshot, store.log(combat["id"], 1, 50)[0])
    assert {k: v for k, v in rebuilt.items() if k != "expires_at"} == {
        k: v for k, v in stored.items() if k != "expires_at"
    }


def test_nothing_to_undo_or_redo_is_409(client):
    location, _ = create(client, example(client, "sistema-2d6")["combat"])
    assert client.post(f"{location}/undo").status_code == 409
    assert client.post(f"{location}/redo").status_code == 409


def test_only_the_gm_undoes(client):
    location, combat = create(client, example(client, "sistema-2d6")["combat"])
    act(client, location, {"type": "pass", "actor": "ana"})
    ana = {"Authorization": f"Bearer {client.tokens[combat['id']]['combatants']['ana']}"}
    assert client.post(f"{location}/undo", headers=ana).status_code == 403
    assert client.get(location).get_json()["version"] == 2


def test_undo_entries_never_show_the_restored_state(client):
    location, _ = create(client, example(client, "sistema-2d6")["combat"])
    act(client, location, {"type": "pass", "actor": "ana"})
    undone = client.post(f"{location}/undo").get_json()
    entry = log(client, location)[-1]
    assert "restored_state" not in entry and "rng" not in str(entry) and "restored_state" not in str(undone)


def test_if_match_guards_undo(client):
    location, _ = create(client, example(client, "sistema-2d6")["combat"])
    act(client, location, {"type": "pass", "actor": "ana"})
    assert client.post(f"{location}/undo", headers={"If-Match": '"1"'}).status_code == 412
    assert client.post(f"{location}/undo", headers={"If-Match": '"2"'}).status_code == 200
