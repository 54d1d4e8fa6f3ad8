"""The package's version: the one place it is written (pyproject.toml reads it; it equals Melee's own)."""

__version__ = "0.1.0"
