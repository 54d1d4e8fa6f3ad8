"""The rules core: pure Python, no web framework and no storage below here."""
