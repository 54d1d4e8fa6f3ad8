"""Test support shipped with Melee, for its own suite and for ruleset plugin authors (docs/rulesets.md).

Needs the ``dev`` extra (pytest, hypothesis): ``pip install "melee[dev]"``.
"""

import pytest

# The kit's assertions explain themselves as a test module's do.
pytest.register_assert_rewrite("service.testing.listing", "service.testing.ruleset_kit")
