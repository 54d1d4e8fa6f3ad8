"""Install this folder's distribution for the tests below, as pip would make it found (service/testing/install.py).

A plugin author whose package is pip-installed needs none of this: their tests
subclass the kit directly (tests/test_coin_duel.py).
"""

from pathlib import Path

import pytest

from service.testing.install import installed


@pytest.fixture(scope="package", autouse=True)
def coin_duel_installed():
    with installed(Path(__file__).parent):
        yield
