#!/usr/bin/env python3
"""Audit the server's dice of a finished Melee combat (docs/dice-audit.md).

    python3 audit_dice.py combat.json log.json [more-log-pages.json ...]

``combat.json``: the answer of GET /combats/{id} once the fight is over (it
shows ``dice_commitments`` and ``dice_secrets``). Each log file: a page of
GET /combats/{id}/events (``{"items": [...]}``) or a JSON list of entries;
give every page, from ``after=0`` on.

It checks that each revealed key has the SHA-256 the combat published (and,
for a seeded combat, that it derives from the seed), recomputes every server
die of the log from its key and draw number, checks that each stream's draws
follow each other (a skipped draw must be one the rejection sampling threw
away) and that each redo played the undone action's dice again. An undo or
a restore of a snapshot opens a new stream, committed in its entry. It prints a
verdict and exits 0 when everything matches, 1 on any mismatch, 2 when the
input cannot be audited. Standard library only: it does not use Melee's code.
"""

from __future__ import annotations

import hashlib
import json
import sys

SEEDED = b"melee-seeded"


def bits(key: bytes, draw: int) -> int:
    """The 64 bits of draw ``draw``: BLAKE2b-64 of the draw number (8 bytes, big-endian), keyed."""
    return int.from_bytes(hashlib.blake2b(draw.to_bytes(8, "big"), key=key, digest_size=8).digest(), "big")


def face(key: bytes, draw: int, sides: int) -> int | None:
    """The die a draw gives, or None when rejection sampling throws it away (no modulo bias)."""
    value = bits(key, draw)
    limit = (1 << 64) - ((1 << 64) % sides)
    return value % sides + 1 if value < limit else None


def load(path: str):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def entries_of(pages) -> list[dict]:
    entries: dict[int, dict] = {}
    for page in pages:
        for entry in page["items"] if isinstance(page, dict) else page:
            entries[entry["seq"]] = entry
    return [entries[seq] for seq in sorted(entries)]


def audit(combat: dict, entries: list[dict]) -> list[str]:
    """Every mismatch found, as sentences (none: the dice are what the keys give)."""
    problems: list[str] = []
    if "dice_secrets" not in combat:
        raise ValueError("the combat shows no dice_secrets: the keys are revealed only once the fight is over")
    committed = {c["stream"]: c["sha256"] for c in combat["dice_commitments"]}
    keys = {s["stream"]: bytes.fromhex(s["key"]) for s in combat["dice_secrets"]}
    if set(keys) != set(committed):
        problems.append(f"streams committed {sorted(committed)} but keys revealed for {sorted(keys)}")
    for stream, key in sorted(keys.items()):
        if hashlib.sha256(key).hexdigest() != committed.get(stream):
            problems.append(f"the key of stream {stream} does not have the SHA-256 published for it")
        if combat.get("seed") is not None:
            derived = hashlib.blake2b(
                stream.to_bytes(8, "big"), key=combat["seed"].to_bytes(8, "big"), person=SEEDED, digest_size=32
            ).digest()
            if derived != key:
                problems.append(f"the key of stream {stream} is not the one the seed {combat['seed']} gives")

    by_seq = {entry["seq"]: entry for entry in entries}
    next_draw: dict[int, int] = {}
    for entry in entries:
        action = entry["action"]
        if (
            action.get("dice_commitment")
            and committed.get(action["dice_commitment"]["stream"]) != action["dice_commitment"]["sha256"]
        ):
            problems.append(
                f"entry {entry['seq']}: its {action['type']} published a commitment the combat does not list"
            )
        if action["type"] == "redo":
            # A redo plays the undone action's logged dice again: no new draw.
            undone = by_seq.get(action["redoes"])
            if undone is None:
                problems.append(f"entry {entry['seq']}: the log lacks entry {action['redoes']}, which it replays")
            elif undone["rolls"] != entry["rolls"]:
                problems.append(f"entry {entry['seq']}: the redo's dice are not those of entry {action['redoes']}")
            continue
        for index, roll in enumerate(entry["rolls"]):
            if roll["source"] != "server":
                continue
            where = f"entry {entry['seq']}, roll {index} ({roll['purpose']})"
            stream, draw, sides = roll.get("stream"), roll.get("draw"), roll["sides"]
            key = keys.get(stream)
            if key is None or not isinstance(draw, int):
                problems.append(f"{where}: a server die without a revealed stream key or a draw number")
                continue
            expected = next_draw.get(stream, 0)
            if draw < expected:
                problems.append(f"{where}: draw {draw} of stream {stream} was already used (next was {expected})")
            for skipped in range(expected, draw):
                if face(key, skipped, sides) is not None:
                    problems.append(
                        f"{where}: draw {skipped} of stream {stream} was skipped but gives a valid d{sides}"
                    )
            value = face(key, draw, sides)
            if value != roll["value"]:
                problems.append(
                    f"{where}: the d{sides} shows {roll['value']}, but the key gives {value} at draw {draw}"
                )
            next_draw[stream] = max(expected, draw + 1)
    return problems


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        combat = load(argv[1])
        entries = entries_of(load(path) for path in argv[2:])
        problems = audit(combat, entries)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"cannot audit: {error}", file=sys.stderr)
        return 2
    server_dice = sum(
        1 for e in entries if e["action"]["type"] != "redo" for r in e["rolls"] if r["source"] == "server"
    )
    if problems:
        for problem in problems:
            print(f"MISMATCH {problem}")
        print(f"FAILED: {len(problems)} mismatch(es) in combat {combat.get('id')}")
        return 1
    print(
        f"OK: combat {combat.get('id')}: {len(combat['dice_secrets'])} key(s) match their commitments; "
        f"{server_dice} server dice recomputed from {len(entries)} log entries, every one as logged"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
