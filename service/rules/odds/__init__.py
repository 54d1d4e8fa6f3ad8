"""Odds before you roll: every outcome of a proposed action and its probability.

- ``tree.py``: the exact enumerator (a dice box exploring every outcome of the dice);
- ``profile.py``: ``OddsProfile``, the per-ruleset hook naming outcomes and default answers;
- ``compute.py``: ``odds(state, action, viewer, ...)``, exact or seeded Monte Carlo.

Nothing is imported here: ``ruleset.py`` imports ``profile`` while the
rulesets, which ``compute`` needs, are still being defined.
"""
