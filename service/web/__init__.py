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
to build; play-i18n.js holds the interface's words.

``/`` is a small page that leads to /play, /docs and the OpenAPI document;
``/favicon.ico`` the icon of both (browsers ask for it on every page).
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory

STATIC = Path(__file__).parent / "static"

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
