"""What the use cases' results show a viewer (service/usecases/views.py), with no HTTP in sight:
the dice keys never before the end, hidden sheets to the GM and their own player only, the
narration in the language the reader prefers when the service speaks it."""

from __future__ import annotations

from service.rules.engine import create_combat
from service.rules.registry import get_ruleset
from service.store.memory import MemoryCombats
from service.usecases import actions, reads
from service.usecases.access import mint_creation_tokens

from .conftest import COMBAT_ID

ATTACK = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "dice": [5, 4]}


def Prefers(*names: str) -> list[tuple[str, float]]:  # noqa: N802 - reads as the reader it builds
    """A reader's languages, as an Accept-Language parsed gives them: each with its quality, best first."""
    return [(name, 1.0) for name in names]


def hiding_capanga():
    combats = MemoryCombats()
    body = {**get_ruleset("sistema-2d6").example()["combat"], "hidden_sheets": ["capanga"]}
    state, entry = create_combat(body, combat_id=COMBAT_ID)
    shown, grants = mint_creation_tokens([c["id"] for c in state["combatants"]])
    combats.create(state, entry, grants)
    return combats, shown


def sheets(seen) -> dict[str, bool]:
    return {c["id"]: "sheet" in c for c in seen.combat["combatants"]}


def test_a_read_shows_no_dice_key_before_the_end(combats, shown):
    seen = reads.read_combat(combats, COMBAT_ID, shown["combatants"]["ana"])
    assert seen.state["dice_keys"] and "rng" in seen.state  # stored, and kept
    assert not {"dice_keys", "rng", "dice_secrets"} & set(seen.combat)
    assert seen.combat["dice_commitments"] == seen.state["dice_commitments"]


def test_hidden_sheets_reach_the_gm_and_their_own_player_only():
    combats, shown = hiding_capanga()
    assert sheets(reads.read_combat(combats, COMBAT_ID, shown["gm"])) == {"ana": True, "capanga": True}
    assert sheets(reads.read_combat(combats, COMBAT_ID, shown["combatants"]["capanga"])) == {
        "ana": True,
        "capanga": True,
    }
    assert sheets(reads.read_combat(combats, COMBAT_ID, shown["combatants"]["ana"])) == {"ana": True, "capanga": False}


def test_an_applied_action_is_narrated_in_the_language_the_reader_prefers(combats, shown):
    applied = actions.act(combats, COMBAT_ID, ATTACK, shown["combatants"]["ana"])
    combat_lang = applied.state["lang"]
    other = "fr" if combat_lang != "fr" else "en"
    own = applied.shown()["events"][0]["text"]
    assert applied.shown(Prefers("xx"))["events"][0]["text"] == own  # a language the service does not speak
    assert applied.shown(Prefers(other))["events"][0]["text"] != own
    assert "dice_keys" not in applied.shown()["combat"]


def test_a_page_of_the_log_is_narrated_as_asked(combats, shown):
    actions.act(combats, COMBAT_ID, ATTACK, shown["combatants"]["ana"])
    page = reads.read_events(combats, COMBAT_ID, shown["gm"], after=1, limit=10)
    in_french = reads.read_events(combats, COMBAT_ID, shown["gm"], after=1, limit=10, languages=Prefers("fr"))
    assert page.lang == page.state["lang"] and in_french.lang == "fr"
    assert [e["seq"] for e in in_french.items] == [2]
    assert in_french.items[0]["events"][0]["text"] != page.items[0]["events"][0]["text"]
    assert all("text" in event for event in in_french.items[0]["events"])
