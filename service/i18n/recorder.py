"""A pytest plugin that records the events the rules tests make the engine emit.

Seeded fights never reach some events (a jammed weapon, a ricochet, a held
action); the rules tests do, with the engine and real sheets. Recording them
gives the narration test realistic parameters for those codes too:

    python -m service.i18n record

runs the rules tests with this plugin and rewrites ``recorded.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict

from ..rules.events import narration_names
from ..rules.ruleset import Resolution

RECORDED = Path(__file__).resolve().parent / "recorded.json"
# Distinct parameter sets kept per event code: enough variety, a small file.
PER_CODE = 4


class Sample(TypedDict):
    """One recorded emission, made JSON (what ``recorded.json`` keeps)."""

    params: dict[str, Any]
    names: dict[str, str]


_seen: dict[tuple[str, str], list[Sample]] = {}
_original_emit = Resolution.emit


def _recording_emit(self: Resolution[Any, Any], code: str, **params: Any) -> None:
    _original_emit(self, code, **params)
    kept = _seen.setdefault((self.state.get("ruleset", ""), code), [])
    names = narration_names(self.state)
    # The dict above, its values made JSON (str() for the rest): a Sample.
    sample: Sample = json.loads(json.dumps({"params": params, "names": names}, default=str))
    shape = _shape(params)
    # Two samples of each code, then only new shapes (a None, a list...).
    new_shape = all(_shape(s["params"]) != shape for s in kept)
    if len(kept) < PER_CODE and sample not in kept and (len(kept) < 2 or new_shape):
        kept.append(sample)


def _shape(params: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((key, type(value).__name__) for key, value in params.items())


# A deliberate patch of the rules' own class, for the recording run only (the
# pytest hooks below set it and take it back): mypy refuses any method assignment.
def pytest_configure(config: object) -> None:
    Resolution.emit = _recording_emit  # type: ignore[method-assign]


def pytest_unconfigure(config: object) -> None:
    Resolution.emit = _original_emit  # type: ignore[method-assign]
    recorded = [
        {"ruleset": ruleset, "code": code, "params": sample["params"], "names": sample["names"]}
        for (ruleset, code), samples in sorted(_seen.items())
        for sample in samples
    ]
    RECORDED.write_text(json.dumps(recorded, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
