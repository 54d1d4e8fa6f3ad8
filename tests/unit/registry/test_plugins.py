"""The registry finds rulesets through the melee.rulesets entry points, and refuses a broken plugin at start-up."""

from __future__ import annotations

import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from melee_testing.install import installed
from service.rules.registry import GROUP, RULESETS, RulesetPluginError, load_rulesets

PLUGIN = Path(__file__).resolve().parents[2] / "plugin_ruleset"


def _project(root: Path, name: str, entry: str, module: str, code: str) -> Path:
    """A distribution ``name`` whose entry point ``entry`` is ``module:RULESET``, ``code`` its module."""
    project = root / name
    project.mkdir()
    (project / "pyproject.toml").write_text(
        textwrap.dedent(f"""
        [project]
        name = "{name}"
        version = "1.0"
        [project.entry-points."melee.rulesets"]
        {entry} = "{module}:RULESET"
    """),
        encoding="utf-8",
    )
    (project / f"{module}.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return project


def test_the_five_built_in_rulesets_are_entry_points_of_melee_itself():
    own = sorted(entry.name for entry in entry_points(group=GROUP) if entry.dist.metadata["Name"] == "melee")
    assert own == ["age-du-silicium", "dark-earth", "duel-2d6", "sistema-2d6", "space-opera-d100"]
    assert set(own) <= set(RULESETS)


def test_an_installed_plugin_is_offered_and_gone_once_uninstalled():
    with installed(PLUGIN):
        assert RULESETS["coin-duel"].name == "Coin duel"
    assert "coin-duel" not in RULESETS


def test_a_plugin_that_does_not_import_stops_the_start_naming_it(tmp_path):
    project = _project(tmp_path, "broken-plugin", "broken", "broken_ruleset", "import no_such_module\n")
    with pytest.raises(RulesetPluginError) as error:
        with installed(project):
            pass
    message = str(error.value)
    assert "broken = 'broken_ruleset:RULESET'" in message and "broken-plugin 1.0" in message
    assert "No module named 'no_such_module'" in message
    assert sorted(RULESETS) == sorted(load_rulesets())  # the registry is back to what is installed


def test_a_plugin_that_is_not_a_ruleset_is_refused(tmp_path):
    project = _project(tmp_path, "not-a-ruleset", "thing", "thing_ruleset", "RULESET = {'id': 'thing'}\n")
    with pytest.raises(
        RulesetPluginError, match=r"thing = .* is a dict, not an instance of service.rules.ruleset.Ruleset"
    ):
        with installed(project):
            pass


def test_a_plugin_lacking_part_of_the_contract_is_refused_with_what_it_lacks(tmp_path):
    code = """
        from service.rules.ruleset import Ruleset

        class Half(Ruleset):
            id = "half"
            name = "Half"

        RULESET = Half()
    """
    project = _project(tmp_path, "half-plugin", "half", "half_ruleset", code)
    with pytest.raises(RulesetPluginError) as error:
        with installed(project):
            pass
    assert (
        "lacks: language, seed, summary, sheet_schema, options_schema, action_schemas, catalog, messages, tactic, "
        "new_combatant(), start(), resolve(), prompts(), is_standing(), example(), on_join()" in str(error.value)
    )


def test_a_plugin_whose_schemas_are_not_marshmallow_schema_classes_is_refused(tmp_path):
    # A schema instance, or a dict of fields, would otherwise fail at the first request (docs/rulesets.md).
    code = """
        from marshmallow import Schema, fields
        from service.rules.sistema_2d6 import Sistema2d6

        class Sheet(Schema):
            id = fields.String(required=True)

        class Old(Sistema2d6):
            id = "old"
            sheet_schema = Sheet()
            action_schemas = {**Sistema2d6.action_schemas, "wave": {"id": fields.String()}}

        RULESET = Old()
    """
    project = _project(tmp_path, "old-plugin", "old", "old_ruleset", code)
    with pytest.raises(RulesetPluginError) as error:
        with installed(project):
            pass
    assert (
        "lacks: sheet_schema as a marshmallow Schema subclass, "
        "action_schemas['wave'] as a marshmallow Schema subclass (docs/rulesets.md)" in str(error.value)
    )


def test_a_second_plugin_taking_an_id_already_taken_is_refused(tmp_path):
    code = "from service.rules.sistema_2d6 import RULESET\n"
    project = _project(tmp_path, "sistema-fork", "sistema-2d6", "sistema_fork", code)
    with pytest.raises(RulesetPluginError, match=r"two ruleset plugins take the id 'sistema-2d6': ") as error:
        with installed(project):
            pass
    assert "from melee 0.1.0" in str(error.value) and "from sistema-fork 1.0" in str(error.value)


def test_the_entry_points_name_must_be_the_rulesets_id(tmp_path):
    code = "from service.rules.sistema_2d6 import RULESET\n"
    project = _project(tmp_path, "misnamed", "sistema", "misnamed_ruleset", code)
    with pytest.raises(RulesetPluginError, match=r"has the id 'sistema-2d6': the entry point's name must be its id"):
        with installed(project):
            pass
