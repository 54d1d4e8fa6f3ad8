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

from ..rules.events import narration_names
from ..rules.ruleset import Resolution

RECORDED = Path(__file__).resolve().parent / "recorded.json"
# Distinct parameter sets kept per event code: enough variety, a small file.
PER_CODE = 4

_seen: dict[tuple[str, str], list[dict]] = {}
_original_emit = Resolution.emit


def _recording_emit(self, code: str, **params) -> None:
    _original_emit(self, code, **params)
    kept = _seen.setdefault((self.state.get("ruleset", ""), code), [])
    names = narration_names(self.state)
    sample = json.loads(json.dumps({"params": params, "names": names}, default=str))
    shape = _shape(params)
    # Two samples of each code, then only new shapes (a None, a list...).
    new_shape = all(_shape(s["params"]) != shape for s in kept)
    if len(kept) < PER_CODE and sample not in kept and (len(kept) < 2 or new_shape):
        kept.append(sample)


def _shape(params: dict) -> list:
    return sorted((key, type(value).__name__) for key, value in params.items())


def pytest_configure(config) -> None:
    Resolution.emit = _recording_emit


def pytest_unconfigure(config) -> None:
    Resolution.emit = _original_emit
    recorded = [
        {"ruleset": ruleset, "code": code, "params": sample["params"], "names": sample["names"]}
        for (ruleset, code), samples in sorted(_seen.items())
        for sample in samples
    ]
    RECORDED.write_text(json.dumps(recorded, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
