"""Issue 27 item 17: a catalog weapon the sheet does not name is called by the catalog's
name in the combat's language, article included; a name typed on the sheet is shown as typed."""

from ..rules_helpers import sentences, step
from .fixtures import ana, bob, fight, shoot

SHOOTER = {"skills": {"Bagarre": 1, "Armes à feu": 2}}


def _jam(weapon):
    # A Maladresse (6, 6) with Dd 6 above the skill (Armes à feu 2): the 9 mm jams.
    gunfight = fight(ana(weapons=[weapon], **SHOOTER), bob())
    return step(gunfight, shoot("pistolet", 5, dice=[6, 6]))


def test_an_unnamed_catalog_weapon_is_named_in_the_combat_language_with_its_article():
    state, entry = _jam({"id": "pistolet", "catalog": "pistolet_9mm"})
    assert sentences(state, entry, "weapon_jammed") == [
        "Ana's shot jams the 9 mm pistol (Dd 6).",
        "Ana tire et le pistolet 9 mm s'enraye (Dd 6).",
        "Ana atira e a pistola 9 mm emperra (Dd 6).",
    ]


def test_a_name_typed_on_the_sheet_is_shown_as_typed():
    state, entry = _jam({"id": "pistolet", "catalog": "pistolet_9mm", "name": "Beretta d'Ana"})
    assert sentences(state, entry, "weapon_jammed") == [
        "Ana's shot jams Beretta d'Ana (Dd 6).",
        "Ana tire et Beretta d'Ana s'enraye (Dd 6).",
        "Ana atira e Beretta d'Ana emperra (Dd 6).",
    ]
