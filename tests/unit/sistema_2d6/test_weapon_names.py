"""Issue 27 item 17: a catalog weapon the sheet does not name is called by the catalog's
name in the combat's language, article included; a name typed on the sheet is shown as typed."""

from ..rules_helpers import sentences, start, step
from .fixtures import ANA_FIRST, RULESET, ana, bruno


def _attack_sentences(weapon):
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "bruno", "weapon": weapon, "dice": [4, 3]})
    return sentences(state, entry, "attack_rolled")


def test_an_unnamed_catalog_weapon_is_named_in_the_combat_language():
    # Ana's "pistola" is the catalog's Tiro with no name: DES 3 + Armas de Fogo 2 + precision 1 + 4 + 3 = 13.
    assert _attack_sentences("pistola") == [
        "Ana attacks Bruno with a gun: 4, 3 → 13.",
        "Ana attaque Bruno avec une arme à feu : 4, 3 → 13.",
        "Ana ataca Bruno com um tiro: 4, 3 → 13.",
    ]


def test_a_catalog_weapon_off_the_sheet_is_named_in_the_combat_language():
    # Soco (punch), not on Ana's sheet: DES 3 + Briga 1 + 4 + 3 = 11.
    assert _attack_sentences("soco") == [
        "Ana attacks Bruno with a punch: 4, 3 → 11.",
        "Ana attaque Bruno avec un coup de poing : 4, 3 → 11.",
        "Ana ataca Bruno com um soco: 4, 3 → 11.",
    ]


def test_a_name_typed_on_the_sheet_is_shown_as_typed():
    # Submetralhadora: DES 3 + Armas de Fogo 2 + 4 + 3 = 12.
    assert _attack_sentences("smg") == [
        "Ana attacks Bruno with Submetralhadora: 4, 3 → 12.",
        "Ana attaque Bruno avec Submetralhadora : 4, 3 → 12.",
        "Ana ataca Bruno com Submetralhadora: 4, 3 → 12.",
    ]
