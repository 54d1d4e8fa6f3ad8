"""Use cases: what a request does, whatever carries it (docs/architecture.md).

Each use case takes the store through its ports (``ports.py``), authorizes
the caller, and owns the compare-and-set and its retries (``conflicts.py``);
it returns domain results and raises domain errors. The HTTP views in
``service/api/`` only parse the request, call one use case and serialize
what it returns. Nothing here imports flask.
"""
