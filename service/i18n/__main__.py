"""``python -m service.i18n update|check|docs|record``: keep the catalogues in step with the code.

- ``update [ruleset ...]``: refresh melee.pot and the catalogues from the English
  templates: the shared folder and every ruleset's own (or only the rulesets named,
  e.g. a plugin's, whose package must then be installed editable);
- ``check [ruleset ...]``: list what is untranslated, fuzzy or names other placeholders;
- ``docs``: rewrite docs/narration/ (one fight per ruleset and language);
- ``record``: run the rules tests and record the events they make (recorded.json),
  the narration test's parameters for events seeded fights never reach.
"""

from __future__ import annotations

import re
import string
import subprocess
import sys
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from ..rules.events import SEGMENT
from ..rules.registry import RULESETS
from . import REFUSAL, TRANSLATED, catalog, locales, owner, owners, refusal_entries, source_entries, translated_text

FLAGS = ("python-brace-format",)


def template(ruleset_id: str | None = None) -> Catalog:
    """The entries of one catalogue: a ruleset's (None: the shared events')."""
    pot = Catalog(
        project="Melee", domain="melee", header_comment="# Event sentences of Melee; msgctxt is <ruleset>|<event code>."
    )
    for ctx, msgid in entries():
        if owner(ctx) == ruleset_id:
            pot.add(msgid, context=ctx, flags=FLAGS)
    return pot


def entries() -> list[tuple[str, str]]:
    """Every entry of every catalogue, (msgctxt, English msgid): events, labels and refusals."""
    return [*source_entries().items(), *refusal_entries()]


def placeholders(text: str) -> set[str]:
    """The params a template uses: its ``{fields}`` and its optional ``[param?...]`` parts."""
    optional = {match.group(2) for match in SEGMENT.finditer(text)}
    return optional | {
        name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(SEGMENT.sub(r"\3", text)) if name
    }


def problems(lang: str, chosen: tuple[str | None, ...] | None = None) -> list[str]:
    """What is wrong in the ``lang`` catalogues of ``chosen`` owners (default: all of them)."""
    chosen = owners() if chosen is None else chosen
    found = []
    for ctx, msgid in entries():
        if owner(ctx) not in chosen:
            continue
        message = catalog(lang, owner(ctx)).get(msgid, context=ctx)
        translated = translated_text(message)
        # A refusal's context is its owner's alone: its English names it.
        entry = f"{ctx} {msgid!r}" if ctx.endswith(f"|{REFUSAL}") else ctx
        if message is None or not translated:
            found.append(f"{lang}: {entry} is not translated")
        elif message.fuzzy:
            found.append(f"{lang}: {entry} is fuzzy (the English changed): review it")
        elif placeholders(translated) != placeholders(msgid):
            found.append(
                f"{lang}: {entry} uses {sorted(placeholders(translated))}, the English {sorted(placeholders(msgid))}"
            )
    return found


def update(chosen: tuple[str | None, ...] | None = None) -> None:
    for ruleset_id in owners() if chosen is None else chosen:
        folder = locales(ruleset_id)
        folder.mkdir(exist_ok=True)
        pot = template(ruleset_id)
        written = BytesIO()
        write_po(written, pot, sort_output=True, no_location=True, width=0)
        _write_if_changed(folder / "melee.pot", written.getvalue())
        for lang in TRANSLATED:
            po = catalog(lang, ruleset_id)
            po.update(pot, no_fuzzy_matching=True)
            written = BytesIO()
            write_po(written, po, sort_output=True, no_location=True, ignore_obsolete=True, width=0)
            _write_if_changed(folder / f"{lang}.po", written.getvalue())
    catalog.cache_clear()


_CREATED = re.compile(rb'^"POT-Creation-Date: .*$', re.MULTILINE)


def _write_if_changed(path: Path, content: bytes) -> None:
    """Write a catalogue unless only its POT-Creation-Date would change: an update that changes
    nothing leaves every file as it was (no churn for parallel branches to merge)."""
    if path.exists() and _CREATED.sub(b"", path.read_bytes()) == _CREATED.sub(b"", content):
        return
    path.write_bytes(content)


def _chosen(names: list[str]) -> tuple[str | None, ...] | None:
    unknown = sorted(set(names) - set(RULESETS))
    if unknown:
        raise SystemExit(f"unknown ruleset: {', '.join(unknown)}; one of: {', '.join(sorted(RULESETS))}")
    return tuple(names) or None


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update(_chosen(argv[2:]))
        return 0
    if command == "docs":
        from .narration_docs import write

        write()
        return 0
    if command == "record":
        # Melee's own rulesets' tests (a plugin's live in its own package).
        folders = ("tests/unit/" + ruleset_id.replace("-", "_") for ruleset_id in sorted(RULESETS))
        rules_tests = [folder for folder in folders if Path(folder).is_dir()]
        return subprocess.call(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "service.i18n.recorder",
                *rules_tests,
                "tests/unit/gm",
                # Hypothesis draws free texts (labels, reasons) no table would write.
                "--ignore=tests/unit/gm/test_legal_actions.py",
            ]
        )
    if command == "check":
        chosen = _chosen(argv[2:])
        found = [problem for lang in TRANSLATED for problem in problems(lang, chosen)]
        print("\n".join(found) or "every event and refusal has a reviewed translation in every language")
        return 1 if found else 0
    print("usage: python -m service.i18n update|check|docs|record", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
