"""Authenticated encryption under the server secret: an adapter of the use
cases' ports (``Sealer``, ``SnapshotSealer``), with no flask nor store.

``aead.py`` derives one AES-256-GCM key per purpose from a secret (HKDF-SHA256,
the ``cryptography`` library); ``snapshots.py`` seals a combat's snapshot.
"""
