"""What narrating costs: every event of the narration corpus rendered in en, fr and pt.

    python -m bench.narration

Sentences are rendered on every read (GET /events, the stream), so this is
paid per event shown. The corpus is the narration test's (service/i18n/corpus.py).
"""

from __future__ import annotations

import timeit

from service.i18n import SOURCE_LANGUAGE, TRANSLATED, catalogues, labels
from service.i18n.corpus import samples
from service.rules.events import render
from service.rules.registry import RULESETS

LANGUAGES = (SOURCE_LANGUAGE, *TRANSLATED)


def main() -> None:
    corpus = [(ruleset_id, event, names) for ruleset_id in sorted(RULESETS) for event, names in samples(ruleset_id)]

    def read_all() -> None:
        for ruleset_id, event, names in corpus:
            for lang in LANGUAGES:
                render(event, lang, catalogues(ruleset_id), names, labels(ruleset_id)[lang])

    read_all()  # the catalogues are parsed once per process: not part of a read
    renders = len(corpus) * len(LANGUAGES)
    best = min(timeit.repeat(read_all, number=3, repeat=5)) / 3
    print(f"{renders} sentences in {best * 1e3:.1f} ms: {best / renders * 1e6:.2f} µs each")


if __name__ == "__main__":
    main()
