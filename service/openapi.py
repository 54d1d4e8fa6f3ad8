"""Write the OpenAPI document the code generates: ``python -m service.openapi``.

The checked-in ``openapi/openapi.json`` must equal this output; a test fails
when they differ.
"""

import json
import sys
from pathlib import Path

import fakeredis

from .app import create_app
from .settings import Settings
from .store import CombatStore

OUTPUT = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def generate() -> dict:
    store = CombatStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), 60)
    app = create_app(Settings(), store=store)
    return app.test_client().get("/openapi.json").get_json()


def render(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    text = render(generate())
    if "--check" in sys.argv:
        if OUTPUT.read_text() != text:
            print(f"{OUTPUT} is stale: run python -m service.openapi", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
