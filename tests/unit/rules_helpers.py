"""Drive the rules engine directly (no HTTP, no store) with supplied dice."""

from __future__ import annotations

from service.i18n import catalogues, labels
from service.rules.engine import apply_action, create_combat
from service.rules.events import narration_names, render
from service.rules.viewer import GM_VIEWER, Viewer


def start(ruleset: str, combatants: list[dict], *, dice=(), options=None, seed: int = 1, lang: str = "en"):
    body = {"ruleset": ruleset, "combatants": combatants, "dice": list(dice), "lang": lang}
    if options is not None:
        body["options"] = options
    state, entry = create_combat(body, combat_id="test", seed=seed)
    return state, entry


def step(state: dict, action: dict):
    return apply_action(state, action)


def as_actor(action: dict) -> Viewer:
    """The caller a table sends ``action`` as: its actor's player, or the GM for 'gm'."""
    return GM_VIEWER if action["actor"] == "gm" else Viewer(combatant=action["actor"])


def params(entry: dict, code: str, index: int = 0) -> dict:
    found = [e["params"] for e in entry["events"] if e["code"] == code]
    assert len(found) > index, f"no {code} event in {[e['code'] for e in entry['events']]}"
    return found[index]


def codes(entry: dict) -> list[str]:
    return [e["code"] for e in entry["events"]]


def sentences(state: dict, entry: dict, code: str) -> list[str]:
    """The first ``code`` event of ``entry`` as the en, fr and pt tables of ``state``'s ruleset read it."""
    event = next(e for e in entry["events"] if e["code"] == code)
    ruleset, names = state["ruleset"], narration_names(state)
    return [render(event, lang, catalogues(ruleset), names, labels(ruleset)[lang]) for lang in ("en", "fr", "pt")]


def combatant(state: dict, combatant_id: str) -> dict:
    return next(c for c in state["combatants"] if c["id"] == combatant_id)


def replace_everywhere(monkeypatch, package: str, original, replacement) -> None:
    """Put ``replacement`` wherever the modules of ``package`` hold ``original``: one check, changed in one place.

    A ruleset whose listing restated a check instead of calling it would not follow the change.
    """
    import sys

    for name, module in list(sys.modules.items()):
        if name == package or name.startswith(package + "."):
            for attribute, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, attribute, replacement)


def refused(state: dict, action: dict, error: type):
    """Assert the engine refuses ``action`` with ``error`` and leaves ``state`` untouched; return the error."""
    import copy

    import pytest

    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        apply_action(state, action)
    assert state == before
    return caught.value
