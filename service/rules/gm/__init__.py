"""Game-master controls shared by every ruleset: adjust, modify, override,
condition, join, leave, end_combat; the end-of-fight summary; legal actions.

Declared once here; a ruleset may extend a schema (keeping older fields) and
answers the hooks of :class:`service.rules.ruleset.Ruleset` for what its
rules add (the consequences of a new PV value, how a newcomer enters).
"""
