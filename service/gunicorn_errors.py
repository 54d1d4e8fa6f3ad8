"""gunicorn's own error answers, as problem+json like every other error.

gunicorn answers some requests before the app sees them: a malformed request
line or header (400), a request line over ``limit_request_line`` (414), too
many or too long headers (431). It writes those with ``gunicorn.util.write_error``
as an HTML page; ``install`` (called by deploy/gunicorn.conf.py, in the master,
before the workers fork) replaces that function. The detail never echoes the
request: it could be kilobytes of whatever the client sent.

This module imports nothing of the service: it runs in gunicorn's master,
where importing the app's modules would create the Prometheus metrics
before PROMETHEUS_MULTIPROC_DIR exists (on_starting creates it).
"""

from __future__ import annotations

import json

# As in service/api/problems.py (a test checks they agree).
PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "/problems/"

KINDS = {400: "malformed-request", 414: "uri-too-long", 431: "headers-too-large"}


def problem_bytes(status: int, reason: str, limits: dict[str, int]) -> bytes:
    details = {
        400: "the request line or a header is not valid HTTP/1.1",
        414: f"the request line (method, path and query) is longer than {limits['limit_request_line']} bytes",
        431: (
            f"more than {limits['limit_request_fields']} headers, or one longer than "
            f"{limits['limit_request_field_size']} bytes"
        ),
    }
    kind = KINDS.get(status, "http-error")
    body = json.dumps(
        {"type": TYPE_BASE + kind, "title": reason, "status": status, "detail": details.get(status, reason)}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM_JSON}\r\n"
        f"X-Content-Type-Options: nosniff\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def install(limits: dict[str, int]) -> None:
    from gunicorn import util

    def write_problem(sock, status_int, reason, mesg):
        util.write_nonblock(sock, problem_bytes(int(status_int), reason, limits))

    util.write_error = write_problem
