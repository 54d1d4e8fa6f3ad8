"""Adapters of the use cases' ports that are neither the store nor HTTP, with no flask nor werkzeug.

``sealing.py``: the server secret and the ``Sealer`` / ``SnapshotSealer`` built
on it (the crypto itself: service/crypto/); ``secret_file.py``: the embedded
default's generated secret, kept in a local file across restarts (read by the
app factory at start); ``fanout.py``: the process's one reader of the live
streams, through the ``EventStreams`` port. service/api/ builds the others and
hands them to the use cases (docs/architecture.md).
"""
