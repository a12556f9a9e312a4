"""Rap Godz's event log: each transition told in plain English, as each seat may see it, and what a
legal action does (`explain`).

`events(game, before, action, after)` applies the action to a copy of `before` that has a sink
(`State.tell`): the rules themselves tell what happens, as it happens (facts.py), and the sink puts the
facts into words, reading the names it mentions from the copy as it stands at that moment. The action
comes first: a chance outcome (a card drawn or dealt, a die, a Pick Upz, Goal, City or Come Upz laid
out), or a decision named as the game names the action ("player_0: play X"), where a card played says
what it earned: the plaque points and the resources told after it, to the end of the transition. What
followed by itself comes after, in a fixed order: the Pick Upz collected (once for each seat and type
whose count went up in the transition), the Goalz won, the Beef settled, a new Album or Track, the
Medallion changing hands, the final plaques and the result. The words are all this module holds; what
happens is said once, by rules.py.

Why a copy of `before` rather than the caller's state: `events` keeps its meaning for every caller
(core.events.Log, the web table, the tests), who never holds a state with a sink on it, and only a log
pays for the narration (the action applied a second time); without a sink, the rules pay one test of
`s.tell` at each point where something happens. `after` is what the rules make of `before` and the
action, so the narration does not need it.

Who sees what follows encode.py: everything lies face up but the hands, the draft offers and the decks.
A draw is told to the drawer by name and to the others as "draws a card from Album N" (RG-TURN-5); a
draft deal likewise; the card returned in the draft is named to its owner only (RG-SETUP-2). Spent
cards, played cards, Come Upz, dice, payments and Pick Upz are public.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core.events import Event, public, result_events, secret
from d2r_envs.core.game import CHANCE
from d2r_envs.core.words import plural
from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import facts as F
from d2r_envs.games.rap_godz.state import Phase, State

_DICE = ("starter", "red", "target")


def who(p: int) -> str:
    return f"player_{p}"


def resources(res) -> str:
    """A seat's resources in words: "Streetz 3, Skillz 2, Swag 1"."""
    return ", ".join(f"{name} {v}" for name, v in zip(C.RESOURCES, res))


def events(game: Any, before: State, action: int, after: State) -> list[Event]:
    told = game.clone(before)
    teller = told.tell = _Teller(game, told)
    game.apply_legal(told, action)
    return teller.done()


class _Teller:
    """The sink of a narrated copy: each fact is put into words as it is told, into its part of the
    transition's log (the action, then what followed, in the order the module docstring gives)."""

    def __init__(self, game: Any, s: State) -> None:
        self.game, self.s = game, s
        self.action: list[Event] = []
        self.chooser, self.line = -1, ""  # a decision: who took it, and its name
        self.returned: tuple[int, ...] | None = None  # a draft card kept: the others offered
        self.played = False  # a card played into the timeline: its line says what it earned
        self.earned = 0  # the chooser's plaque points gained
        self.moved: dict[int, list[int]] = {}  # the chooser's resources gained: first old, last new
        self.pickups: dict[tuple[int, int], int] = {}  # (seat, type): tokens collected less those used
        self.goals: list[tuple[int, int]] = []  # (goal, seat)
        self.later: list[Event] = []  # the Beef, an Album or Track, the Medallion, the final plaques

    def __call__(self, fact: tuple) -> None:
        s = self.s
        match fact:
            case F.Chose(p, a):
                self.chooser, self.line = p, f"{who(p)}: {self.game.action_to_string(s, a)}"
            case F.Kept(_, _, returned):
                self.returned = returned
            case F.Played(_, kind):
                self.played = not C.CARDS[kind].beef
            case F.PickupUsed(p, kind):
                self.pickups[p, kind] = self.pickups.get((p, kind), 0) - 1
            case F.Gained(p, r, old, new) if p == self.chooser:
                self.moved.setdefault(r, [old, new])[1] = new
            case F.PlaquesGained(p, amount) if p == self.chooser:
                self.earned += amount
            case F.PickupCollected(p, kind):
                self.pickups[p, kind] = self.pickups.get((p, kind), 0) + 1
            case F.GoalWon(goal, p):
                self.goals.append((goal, p))
            case F.Gained() | F.PlaquesGained():
                pass
            case F.BeefSettled(starter, target, (a, b), winner, card):
                loser = target if winner == starter else starter
                self.later.append(public(f"Beef: {who(starter)} {a} vs {who(target)} {b}: {who(winner)} wins the Beef, "
                                         f"{who(loser)} takes {C.KIND_NAMES[card]} and pays"))
            case F.AlbumBegan(album):
                self.later.append(public(f"Album {album + 1}: abilities refreshed, Come Upz replaced, hands drawn up"))
            case F.TrackBegan(track):
                self.later.append(public(f"Track {track + 1} of Album {s.album + 1}"))
            case F.MedallionTaken(p, holder):
                if p != holder:
                    self.later.append(public(f"{who(p)} takes the Medallion"))
            case F.GameOver():
                self.later.append(public("final plaques: " + ", ".join(f"{who(p)} {v}" for p, v in enumerate(s.final))))
            case _:
                self.action.append(_revealed(s, fact))

    def done(self) -> list[Event]:
        out = self.action
        if self.line:
            out.append(self._decision())
        for (p, kind), got in sorted(self.pickups.items()):
            if got > 0:
                out.append(public(f"{who(p)} collects a {C.PICKUP_TYPES[kind]} Pick Upz"))
        for goal, p in sorted(self.goals):
            out.append(public(f"{who(p)} collects the Goalz {C.GOALZ[goal][0]}"))
        return out + self.later + result_events(self.game, self.s)

    def _decision(self) -> Event:
        line = self.line
        if self.returned is not None:
            back = ", ".join(C.KIND_NAMES[k] for k in self.returned) or "nothing"
            mine = line + f" ({back} goes back to the deck)"
            return Event(line + " (the other goes back to the deck)", {self.chooser: mine})
        if self.played:
            moved = ", ".join(f"{C.RESOURCES[r]} {old} -> {new}" for r, (old, new) in sorted(self.moved.items())
                              if new != old) or "resources unchanged"
            return public(f"{line}: +{plural(self.earned, 'plaque')}, {moved}")
        return public(line)


def _revealed(s: State, fact: tuple) -> Event:
    """A chance outcome: a draw and a draft deal named to their owner only."""
    match fact:
        case F.Drawn(p, kind):
            return secret(p, f"{who(p)} draws {C.KIND_NAMES[kind]} ({C.card_text(kind)})",
                          f"{who(p)} draws a card from Album {s.album + 1}")
        case F.Dealt(p, kind):
            what = "Rapper" if kind < C.CITY_FIRST else "City"
            return secret(p, f"{who(p)} is dealt {C.KIND_NAMES[kind]}", f"{who(p)} is dealt a {what}")
        case F.Rolled(die, value):
            return public(f"{_DICE[die]} die: {value}")
        case F.MedallionRolled(p):
            return public(f"Medallion: {who(p)}")
        case F.PickupPlaced(space, kind):
            return public(f"Pick Upz {C.PICKUP_TYPES[kind]} on {C.RESOURCES[space // 3]} {C.PICKUP_SPACES[space % 3]}")
        case F.GoalDrawn(goal):
            return public(f"Goalz: {C.GOALZ[goal][0]}")
        case F.ComeUpzDealt(slot, kind):
            return public(f"Come Upz slot {slot}: {C.KIND_NAMES[kind]}")
        case F.ExtraCity(kind):
            return public(f"{C.KIND_NAMES[kind]} on the board")
    raise ValueError(f"no words for {fact!r}")


def explain(game, s: State, action: int) -> str:
    if game.current_player(s) == CHANCE:
        return ""
    seg, index = A.ACTIONS.decode(action)
    i = index[0] if index else 0
    p = s.actor
    if seg == "play" or seg == "spend":
        return C.card_text(i)
    if seg == "rapper":
        r = C.RAPPERZ[i]
        return (f"{C.DIFFICULTY[r.difficulty]}; bonus {C.COLOUR_NAMES[r.colour]}; {r.text}; goal: "
                f"{plural(r.goal_cards, C.COLOUR_NAMES[r.colour] + ' card')} for {plural(r.goal_plaques, 'plaque')}")
    if seg == "city":
        c = C.CITIEZ[i]
        return f"starts at {resources(c.start)}; most {C.COLOUR_NAMES[c.colour]} icons: {plural(c.plaques, 'plaque')}"
    if seg == "draw":
        return f"{plural(s.decks[s.album].n, 'card')} left in the Album {s.album + 1} deck"
    if seg == "come_upz":
        return f"{C.card_text(s.slots[i])}; costs {plural(game.come_cost(s, p), 'card')} from the hand"
    if seg == "target":
        q = (p + 1 + i) % game.n
        return f"{who(q)}: {plural(game.points(s, q), 'plaque')}, {resources(s.res[q])}"
    if seg == "pass":
        if s.phase == Phase.BEEF:
            a, b = game.beef_values(s)
            return f"keep the dice as they are ({a} vs {b})"
        return "no card can be played: the turn ends"
    if seg == "res_pickup":
        return f"{C.RESOURCES[i]} {s.res[p][i]} -> {min(s.res[p][i] + 3, game._cap(s, p, i))}"
    if seg == "boost":
        a, b = game.beef_values(s)
        return f"add 2 to your Beef value ({a} vs {b} now)"
    if seg == "ability":
        return "reroll your Beef dice" if s.phase == Phase.BEEF else "draw a card (once per Album)"
    return "draw a card"
