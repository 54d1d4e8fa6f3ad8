"""docs/vtt.md shows the very client that tests/browser/vtt-snippet.test.mjs runs."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_guide_quotes_the_tested_client_verbatim():
    guide = (ROOT / "docs" / "vtt.md").read_text()
    client = (ROOT / "docs" / "vtt" / "melee-client.mjs").read_text()
    assert f"```js\n{client}```" in guide
