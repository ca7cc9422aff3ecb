"""The help screen: every key, and how to play in a few lines."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from engine.tui.screens.backdrop import BackdropScreen
from engine.tui.widgets.keybar import KeyBar

HELP = """\
# How to play

1. **Say what your hero does.** Type it at *What do you do?* and press **Enter**.
2. **Pick the move it triggers.** The engine suggests moves, best match first. Each shows the
   words of yours that led to it, the character your fiction names (→ Dusk Meridian) and the
   exact odds of each result. When what you wrote reads as plain description, *No move, just
   fiction* comes first (Enter keeps it) with the likeliest moves after it. **1-5** pick a
   suggestion, **m** opens every move, **n** keeps it as plain fiction. When the move asks for
   a target, the one your fiction named is offered first.
3. **Roll.** The roll panel shows every modifier and where it comes from. **Enter** rolls
   (or asks for the faces of your own dice), **t** takes what the rules offer before the
   roll (in Masks: spend Team for +1).
4. **Live with it.** Outcomes are applied for you; when a result says *choose*, a dialog asks
   (Space marks, Enter confirms). On a miss the GM makes a move: it is in the journal, with why.
5. **Keep going.** End the scene when the story moves on, frame the next one, and end the
   session with its move. Everything saves as you go; ^Z undoes the last action.

# Keys

## Everywhere

| Key | Does |
|---|---|
| F1 | this help |
| Ctrl+P | command palette: find any move or command by typing |
| Ctrl+Q | quit (everything is already saved) |
| Tab / Shift+Tab | next / previous field |
| Esc | close a dialog |

## Title screen

| Key | Does |
|---|---|
| ↑ ↓ | choose a campaign |
| Enter | resume it |
| N | new campaign |
| D | delete (asks first) |
| Q | quit |

## New campaign

| Key | Does |
|---|---|
| Enter on a list | open it (↑ ↓ then Enter to pick) |
| Ctrl+R | fill in the build's suggested NPCs |
| Ctrl+T | add another hero to the party (you play them all) |
| Ctrl+S | start the story |
| Esc | back |

## Play

| Key | Does |
|---|---|
| Enter | send your fiction / choose / roll |
| 1-5, m, n | in the move menu: a suggestion (1 may be "No move"), all moves, just fiction |
| Esc | in the move menu or the target list: back (nothing is rolled) |
| t, s, a | before a roll: spend Team, choose the stat, advantage |
| d, p | before a roll: declare (a belief, a secret, an offer...), set the roll (a complexity...) |
| F2 | every move, filtered as you type (a match in a move's name first; "dir som" works) |
| Ctrl+Z | undo the last action |
| Ctrl+G | ask the GM "what happens next?" |
| Ctrl+O | ask the oracle a yes/no question (exact odds shown) |
| Ctrl+N | add an NPC |
| F3 | switch heroes in a party: who acts now (or add a hero) |
| Shift+F3 | the party's next hero acts, at once |
| Tin ... | a line that starts with a hero's name ("Tin hacks the drone") is theirs |
| F5 | end the scene (and say which clearing actions you took) |
| F6 | the GM frames the next scene (r: another, w: write your own) |
| F7 | end the session (the end-of-session move) |
| F8 | start a fight, in games with fights in rounds (see Fights below) |
| Ctrl+B | show or hide the character sheet |
| F4 | fix the sheet by hand: a condition, a stat, a track, Influence, a clock (journaled) |
| Ctrl+L | the story ledger: threads, characters, facts, threats (see below) |
| Ctrl+R | "Previously...": show or hide the recap of where the story stands (Esc closes it) |
| F10 | back to the campaigns |

## Fights (Mutants & Masterminds)

A fight runs in rounds. The initiative tracker (beside the journal) shows the round and each
character in turn order: ▶ on the one acting, initiative, damage penalty (-2), conditions in
short (dz dazed, stg staggered, prn prone...), and who plays it (you / ref); those out of the
fight are struck through.

| Key | Does |
|---|---|
| F8 | start a fight: pick the foes, then who is surprised (in a fight: call it off) |
| 1-9, ↑ ↓, Enter | your turn: an action; an attack shows its best target's odds |
| Enter | on the target list: that target (hit %, critical %, each result of the resistance) |
| Enter on a maneuver | step it: power attack, all-out, accurate, defensive 0-2, and more |
| d | say what your character does: the actions it matches are offered (n: a move instead) |
| e | end the turn |
| Esc | back one step (maneuvers, then target, then the list) |
| Enter / Space | the referee's turn: one step (it says why, then acts) |
| r | let the referee play until your turn |
| t | take over the character the referee is playing (you play its turns) |
| Ctrl+Z | undo the last step, even mid-fight |

With your own dice, a dialog asks for each d20 as it comes (and for initiative when the fight
starts). The move *Start a fight* starts one too.

## Fights in panels (Panels: Halberd City)

The same keys run the panels game's fights, with no maneuvers and no surprise round. Each round
both sides roll a d6 (you for the heroes, the referee for the foes); the higher side acts first
and both get the difference in panels (a tie: 2 each, everyone in one Agility order). Every
action costs panels; unused ones are lost when the turn ends.

The panel tracker shows the round, each side's d6 and the panels it gives, then each character:
● a panel left this turn, ○ one spent or owed; Kill and Stun (bad when low enough to stun);
and the panels it owes, with when they are paid back: out of its turn this round if it has not
acted yet, else its next turn ("owes 2 · repaid next turn"). At 5 owed (the limit) it cannot
dodge or parry until its turns pay them back. Those out of the fight are struck through.

When a hero you play is hit, the menu asks for the response before the damage is rolled: take
it, dodge (18+ avoids it all, 15-17 halves it) or parry with one of your attack forms (15+),
each with its exact odds, the damage it is expected to save, and its cost (free against an
ordinary thug, a future panel against a significant foe). An attack's line shows its panels,
hit %, full-hit %, expected damage and the chance the target goes down. With your own dice you
type both sides' d6s at F8 (heroes first), then the heroes' d6 each new round.

## Story ledger (Ctrl+L)

Mythic-like lists of what the story remembers. Every change is journaled and ^Z undoes it.

| Key | Does |
|---|---|
| 1-4, ← → | Threads, Characters, Facts, Threats |
| ↑ ↓ | move |
| a | add: a thread, an NPC, a fact, a threat |
| e, Enter | edit a thread (and its note) or a fact (and whom it is about) |
| r | resolve an open thread / reopen a resolved one |
| x | remove a thread or a fact (asks first) |
| w, s, p | an NPC's whereabouts, stance toward the acting hero, in or out of the scene |
| + / - | move a threat's clock (the doom strikes when it fills) |
| Ctrl+Z | undo the last action |
| Esc | back to play |

## Dialogs

| Key | Does |
|---|---|
| ↑ ↓ | move |
| Space | mark / unmark an option |
| Enter | confirm |
| Esc | close (a pending choice waits; Enter reopens it) |
| Ctrl+Q | quit (everything is saved; Ctrl+C only says so) |
"""


class HelpScreen(BackdropScreen[None]):
    """Keys and a short how-to-play."""

    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        """The help text."""
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP)
        yield KeyBar()

    def on_mount(self) -> None:
        """Focus the scroller so arrows scroll."""
        self.query_one("#help-box").focus()

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)
