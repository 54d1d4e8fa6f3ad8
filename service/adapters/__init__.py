"""Adapters of the use cases' ports that are neither the store nor HTTP, with no flask nor werkzeug.

``sealing.py``: the server secret and the ``Sealer`` / ``SnapshotSealer`` built
on it (the crypto itself: service/crypto/); ``fanout.py``: the process's one
reader of the live streams, through the ``EventStreams`` port. service/api/
builds them and hands them to the use cases (docs/architecture.md).
"""
