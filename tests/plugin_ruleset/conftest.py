"""Install this folder's distribution for the tests below, as pip would make it found (melee_testing/install.py).

A plugin author whose package is pip-installed needs none of this: their tests
subclass the kit directly (tests/test_coin_duel.py).
"""

from pathlib import Path

import pytest

from melee_testing.install import installed


@pytest.fixture(scope="package", autouse=True)
def coin_duel_installed():
    with installed(Path(__file__).parent):
        yield
