"""The rules engine: cards, rules, decisions, the game and what each seat sees.

Standard library only, no I/O and no global random state (an import-linter contract,
``make lint``, checks that nothing outside the standard library is imported here).
Everything above it (bots, tables, analysis, interfaces, environments) asks this
package and never re-implements a rule.
"""
