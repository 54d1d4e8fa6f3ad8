"""/play: a small page that plays a fight from the browser, served from the package (no CDN).

The proof, for VTT authors, of how to use the API from a browser: create a
combat from a ruleset's example, read ``awaiting``, build a form per action
type from the ruleset's JSON Schemas, post actions, and follow the log live
from the event stream. Plain HTML and JavaScript (static/), nothing to build.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory

STATIC = Path(__file__).parent / "static"

blp = Blueprint("web", __name__)


@blp.get("/play")
def play():
    return send_from_directory(STATIC, "play.html")


@blp.get("/play/<path:filename>")
def play_static(filename):
    return send_from_directory(STATIC, filename)
