"""The fight engine: fights in rounds, once, for every game that fights in turns.

A game's fights are a ``Conflict`` subclass (its ruleset's ``conflict()``) that overrides a
few hooks (who may act, the check, damage, the options it offers, its referee's policy) and
registers its actions in an ``ActionTable`` it owns. Everything else lives here, once:

- ``state``: the fight as a typed value of the campaign state (``CampaignState.fight``)
- ``events``: the fight's events and their journal lines; each change of the fight is one,
  applied by the encounter's pure functions (a turn advanced, a budget spent, an effect
  added...)
- ``dice``: what a step rolls with, the exceptions that pause it for a die or a choice, and
  the ``Rolled`` event of a fight's roll (``fight_roll``)
- ``foes``: sides, who is left standing, foes from stat blocks
- ``actions``: an action's rule and the table a conflict keeps them in
- ``step``: the context one step of a fight runs in (``Step``)
- ``conflict``: the ``Conflict`` base: start, join, declare, resolve, the turn loop,
  end of turn, the tracker's skeleton
"""
