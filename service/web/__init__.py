"""/play: a small page that plays a fight from the browser, served from the package (no CDN).

The page a game master opens first, and the proof, for VTT authors, of how to
use the API from a browser: create a combat from a ruleset's example (without
its seed: fresh dice) or from the GM's own characters (sheet forms built from the
ruleset's JSON Schema, their numbers checked against it as typed, a roster in
local storage), save it to a file and resume it (the snapshot), share a link per
player (kept in local storage so a reload shows them again, or minted anew with
``POST /combats/{id}/tokens``), undo the last action (``POST /combats/{id}/undo``),
read ``awaiting``, build each viewer's forms from
``GET /combats/{id}/options`` (choices named from the ruleset's ``labels``),
post actions, and follow the log live from the event stream, in English,
French or Portuguese. Plain HTML, CSS and JavaScript modules (static/), nothing
to build; play-i18n.js holds the interface's words. Every call to the API goes
through the TypeScript SDK (clients/typescript), whose built ES modules are
checked in under sdk/ and served at ``/play/sdk/<file>`` (``npm run
publish-to-service`` in clients/typescript refreshes them): actions carry its
Idempotency-Key and retries, and the live log reads the stream with fetch, the
token in the Authorization header, never in a URL.

``/`` is a small page that leads to /play, /docs and the OpenAPI document;
``/favicon.ico`` the icon of both (browsers ask for it on every page).
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory
from werkzeug.exceptions import NotFound

STATIC = Path(__file__).parent / "static"
SDK = Path(__file__).parent / "sdk"

blp = Blueprint("web", __name__)


@blp.get("/")
def landing():
    return send_from_directory(STATIC, "index.html")


@blp.get("/favicon.ico")
def favicon():
    return send_from_directory(STATIC, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=86400)


@blp.get("/play")
def play():
    return send_from_directory(STATIC, "play.html")


@blp.get("/play/<path:filename>")
def play_static(filename):
    return send_from_directory(STATIC, filename)


@blp.get("/play/sdk/<path:filename>")
def play_sdk(filename):
    """The TypeScript SDK's built modules, as text/javascript whatever the host's /etc/mime.types
    says (a browser runs a module script only with a JavaScript type); anything else is not found."""
    if not filename.endswith(".js"):
        raise NotFound()
    return send_from_directory(SDK, filename, mimetype="text/javascript")
