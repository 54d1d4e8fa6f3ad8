"""docs/vtt.md is built around the SDKs: the examples first, then five lines in each language,
the same as each SDK's README shows (the suite runs those: tests/clients/), and what each VTT
can do. The hand-copied client it used to quote (docs/vtt/melee-client.mjs) is gone."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "vtt.md").read_text()


def first_block(text: str, language: str, after: str = "") -> str:
    text = text[text.index(after) :] if after else text
    return text[text.index(f"```{language}\n") + len(language) + 4 :].split("```", 1)[0]


def test_the_guide_shows_the_examples_first():
    first = GUIDE[GUIDE.index("```") :].split("```")[1]
    assert first.startswith("sh\n"), first
    assert "node clients/typescript/examples/fight.mjs http://localhost:8000 sistema-2d6" in first
    assert "python clients/python/examples/fight.py http://localhost:8000 sistema-2d6" in first
    assert (ROOT / "clients" / "python" / "examples" / "fight.py").exists()


def test_the_five_lines_are_the_sdks_own():
    python = first_block(GUIDE, "python", "### The Python SDK")
    assert python == first_block((ROOT / "clients" / "python" / "README.md").read_text(), "python")
    typescript = first_block(GUIDE, "js", "### The TypeScript SDK")
    assert len(typescript.strip().splitlines()) == 5 and 'from "@melee/client"' in typescript
    readme = ROOT / "clients" / "typescript" / "README.md"
    if readme.exists():  # the TypeScript SDK's branch (helper sdk-ts) merged
        assert typescript == first_block(readme.read_text(), "js")
    recipe = GUIDE[GUIDE.index("### The TypeScript SDK") : GUIDE.index("```js")]
    assert "ESM project" in recipe and '"type": "module"' in recipe


def test_the_guide_says_what_each_vtt_can_do():
    section = GUIDE[GUIDE.index("## Which VTT can do what") :].split("\n## ", 1)[0]
    assert "integrations/foundry-vtt" in section and "integrations/owlbear-rodeo" in section
    assert "Mod (API) scripts cannot make HTTP requests" in section and "browser extension" in section


def test_the_old_hand_copied_client_is_gone():
    assert not (ROOT / "docs" / "vtt" / "melee-client.mjs").exists()
    assert "melee-client.mjs" not in GUIDE.replace("docs/vtt/melee-client.mjs`, the 76-line client", "")
