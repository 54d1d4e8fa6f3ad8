"""Response headers that keep browsers and caches from misusing the answers.

- Every response: ``X-Content-Type-Options: nosniff`` (a JSON answer is never
  run as a script or a page).
- Under ``/combats``: the body depends on the caller's token and language
  (``Vary: Authorization, Accept-Language``) and may carry tokens: writes
  and the log (``/events``) are ``no-store``; other reads ``private,
  no-cache`` (never in a shared cache, revalidated with their ETag). A
  response that set its own Cache-Control (the event stream) keeps it.
- The pages (``/``, ``/play``, ``/docs``): a Content-Security-Policy that runs only
  the service's own scripts, and no framing by another site
  (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``), unless the
  deployment names the origins that may frame them (``FRAME_ANCESTORS``: a
  VTT embedding /play): then ``frame-ancestors`` lists them, and no
  ``X-Frame-Options`` is sent (it can name no origin). The Swagger UI
  page's one inline script is allowed by its hash, computed from the page
  itself; its styles may be inline (Swagger UI sets some).
"""

from __future__ import annotations

import base64
import hashlib
import re

from flask import Flask, current_app

from ..proxied import current_request

NO_STORE, PRIVATE = "no-store", "private, no-cache"
VARY_COMBATS = ("Authorization", "Accept-Language")
PAGES = ("/play", "/docs")
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def inline_script_hashes(page_html: str) -> list[str]:
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(page_html)
    ]


def content_security_policy(hashes: list[str], inline_styles: bool, frame_ancestors: tuple[str, ...] = ()) -> str:
    return "; ".join(
        [
            "default-src 'self'",
            "script-src " + " ".join(["'self'", *hashes]),
            "style-src 'self'" + (" 'unsafe-inline'" if inline_styles else ""),
            "img-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors " + (" ".join(frame_ancestors) if frame_ancestors else "'none'"),
        ]
    )


def _is_page(path: str) -> bool:
    if path == "/":  # the landing page
        return True
    return any(path == page or path.startswith(page + "/") for page in PAGES)


FRAME_ANCESTORS = "melee.frame_ancestors"


def secure(response):
    req = current_request()  # once, not through the proxy each time (proxied.py)
    headers = response.headers
    # The names present, read once: werkzeug's ``name in headers`` raises and
    # catches a KeyError for every name absent. One absent is added, as
    # setting it would. Kept for 5 % of an action (docs/performance.md,
    # "Framework patches: what each buys"); tests/api/test_secure_headers.py
    # fails if werkzeug's Headers stop behaving as assumed here.
    present = {name.lower() for name, _ in headers}
    if "x-content-type-options" in present:
        headers["X-Content-Type-Options"] = "nosniff"
    else:
        headers.add("X-Content-Type-Options", "nosniff")
    path = req.path
    if path.startswith("/combats"):
        if "vary" in present:
            for name in VARY_COMBATS:
                response.vary.add(name)
        else:  # what the two adds above write, without parsing the header twice
            headers.add("Vary", ", ".join(VARY_COMBATS))
        if "cache-control" not in present:
            writes_or_log = req.method != "GET" or path.endswith("/events")
            headers.add("Cache-Control", NO_STORE if writes_or_log else PRIVATE)
    elif _is_page(path) and response.mimetype == "text/html":
        # /play is a static file (streamed: not read here) with no inline script.
        docs = path.startswith("/docs")
        hashes = inline_script_hashes(response.get_data(as_text=True)) if docs else []
        framing = current_app.extensions.get(FRAME_ANCESTORS, ())
        response.headers["Content-Security-Policy"] = content_security_policy(hashes, docs, framing)
        if not framing:
            response.headers["X-Frame-Options"] = "DENY"
    return response


def init_app(app: Flask, frame_ancestors: tuple[str, ...] = ()) -> None:
    app.extensions[FRAME_ANCESTORS] = frame_ancestors
    app.after_request(secure)
