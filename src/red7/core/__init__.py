"""The rules engine: cards, rules, decisions, the game and what each seat sees.

No I/O and no global random state. It imports the standard library and, in one module,
the compiled engine: :mod:`red7.core.compiled` bridges :class:`~red7.core.game.Game` to
:mod:`red7.native` (used when it is built; everything else here is pure Python and runs
without it). Import-linter contracts (``make lint``) check both: nothing outside the
standard library, and ``red7.native`` from ``red7.core.compiled`` alone. The constants
the compiled engine shares with this one are defined here and generated into its C
header (:mod:`red7.core.native_defs`, whose command is the one place that writes a file).
Everything above it (bots, tables, analysis, interfaces, environments) asks this
package and never re-implements a rule.
"""
