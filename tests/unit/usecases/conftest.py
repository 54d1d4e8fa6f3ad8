"""The use cases' fixtures: a sistema-2d6 combat in the in-memory store, and its tokens."""

from __future__ import annotations

import pytest

from service.rules.engine import create_combat
from service.rules.registry import get_ruleset
from service.store.memory import MemoryCombats
from service.usecases.access import mint_creation_tokens

COMBAT_ID = "c1"


@pytest.fixture
def combats():
    return MemoryCombats()


@pytest.fixture
def shown(combats):
    """The tokens shown at creation: the GM's and each player's."""
    state, entry = create_combat(get_ruleset("sistema-2d6").example()["combat"], combat_id=COMBAT_ID)
    shown, grants = mint_creation_tokens([c["id"] for c in state["combatants"]])
    combats.create(state, entry, grants)
    return shown
