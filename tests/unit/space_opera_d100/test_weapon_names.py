"""Issue 27 item 17: a catalog weapon the sheet does not name is called by the
catalog's name in the combat's language; a name typed on the sheet is shown as typed."""

from service.i18n import catalogues, labels
from service.rules.events import narration_names, render

from .fixtures import exchange, fight, kira

RULESET = "space-opera-d100"


def _sentences(state, entry, code):
    event = next(e for e in entry["events"] if e["code"] == code)
    names = narration_names(state)
    return [render(event, lang, catalogues(RULESET), names, labels(RULESET)[lang]) for lang in ("en", "fr", "pt")]


def test_an_unnamed_catalog_weapon_is_named_in_the_combat_language():
    # Stun baton (matraque paralysante), Armes contondantes 55: 30 <= 55, a success; 1d6 4 - armour 4 = 0.
    state, entry = exchange(fight(), {"weapon": "para"}, dice=[30, 4])
    assert _sentences(state, entry, "attack_rolled") == [
        "Kira attacks Garde with stun baton: 30 against 55 (success).",
        "Kira attaque Garde avec matraque paralysante : 30 contre 55 (réussite).",
        "Kira ataca Garde com bastão atordoante: 30 contra 55 (sucesso).",
    ]


def test_bare_hands_read_in_the_combat_language():
    # Bare hands (Corps à corps 50): 30 <= 50; 1d3 2 - armour 4 = 0.
    state, entry = exchange(fight(), {"weapon": "unarmed"}, dice=[30, 2])
    assert _sentences(state, entry, "attack_rolled") == [
        "Kira attacks Garde with bare hands: 30 against 50 (success).",
        "Kira attaque Garde avec mains nues : 30 contre 50 (réussite).",
        "Kira ataca Garde com mãos nuas: 30 contra 50 (sucesso).",
    ]


def test_a_name_typed_on_the_sheet_is_shown_as_typed():
    weapons = [{"id": "para", "catalog": "matraque_paralysante", "name": "Matraque de Kira"}]
    state, entry = exchange(fight(kira_sheet=kira(weapons=weapons)), {"weapon": "para"}, dice=[30, 4])
    assert [s.split(":")[0].rstrip() for s in _sentences(state, entry, "attack_rolled")] == [
        "Kira attacks Garde with Matraque de Kira",
        "Kira attaque Garde avec Matraque de Kira",
        "Kira ataca Garde com Matraque de Kira",
    ]
