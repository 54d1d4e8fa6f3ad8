"""Issue 27 item 17: bare hands, the catalog's one weapon, read in the combat's language;
a sheet's weapon is shown by the name the sheet gives it."""

from ..rules_helpers import sentences, step
from .fixtures import ana, attack_entry, bob, declare, duel


def _attack_sentences(weapon, ana_sheet=None):
    """Bob (40) does something else; Ana (60) attacks him: a 30 on the d100."""
    state, _ = duel(ana=ana_sheet or ana(), bob=bob())
    state, _ = declare(state, "bob", {"kind": "other"})
    state, _ = declare(state, "ana", attack_entry("bob", weapon=weapon))
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "bob", "weapon": weapon, "dice": [30]})
    return sentences(state, entry, "attack")


def test_bare_hands_read_in_the_combat_language():
    assert _attack_sentences("unarmed") == [
        "Ana attacks Bob bare-handed: Bagarre 45, chance 45 % (a single attack).",
        "Ana attaque Bob à mains nues : Bagarre 45, chance 45 % (attaque unique).",
        "Ana ataca Bob de mãos nuas: Bagarre 45, chance de 45 % (ataque único).",
    ]


def test_a_name_typed_on_the_sheet_is_shown_as_typed():
    weapons = [{"id": "lame", "name": "Lame d'Ana", "kind": "melee", "skill": "Armes tranchantes", "damage": 6}]
    assert _attack_sentences("lame", ana(weapons=weapons)) == [
        "Ana attacks Bob with Lame d'Ana: Armes tranchantes 50, chance 50 % (a single attack).",
        "Ana attaque Bob avec Lame d'Ana : Armes tranchantes 50, chance 50 % (attaque unique).",
        "Ana ataca Bob com Lame d'Ana: Armes tranchantes 50, chance de 50 % (ataque único).",
    ]
