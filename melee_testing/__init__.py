"""Test support shipped with Melee, for its own suite and for ruleset plugin authors
(docs/rulesets.md): outside the runtime package ``service/``, which imports no test framework.

Needs the ``dev`` extra (pytest, hypothesis): ``pip install "melee[dev]"``.
"""

import pytest

# The kit's assertions explain themselves as a test module's do.
pytest.register_assert_rewrite("melee_testing.listing", "melee_testing.ruleset_kit")
