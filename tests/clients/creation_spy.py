"""Run by test_python_sdk.py: ``python creation_spy.py SCRIPT ARGS...`` runs SCRIPT (the SDK's example)
with httpx's sends watched, writing each creation body (POST /combats) to stderr: the example sends no seed."""

import runpy
import sys

import httpx

send = httpx.Client.send


def watched(self: httpx.Client, request: httpx.Request, **options: object) -> httpx.Response:
    if request.method == "POST" and request.url.path == "/combats":
        print(f"creation body: {request.read().decode()}", file=sys.stderr)
    return send(self, request, **options)  # type: ignore[arg-type]


httpx.Client.send = watched  # type: ignore[method-assign]
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
