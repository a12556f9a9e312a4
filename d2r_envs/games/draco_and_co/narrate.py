"""Draco & Co's event log: each transition told in plain English, as each seat may see it.

`events(game, before, action, after)` applies the action to a copy of `before` that has a sink
(`State.tell`): the rules themselves tell what happens, as it happens (facts.py), and each fact is
put into words at once, reading the names and fortunes it mentions from the copy as it stands at
that moment: the card played, the characters chosen and moved (from which place to which), the die,
the money that changed hands (and with whom, the bank included), the cup, the draws, the pile
running out, whose turn it is, and the end. The words are all this module holds; what happens is
said once, by rules.py.

Why a copy of `before` rather than the caller's state: `events` keeps its meaning for every
caller (core.events.Log, the web table, the tests), who never holds a state with a sink on it, and
only a log pays for the narration (the action applied a second time); without a sink, the rules pay
one test of `s.tell` at each point where something happens. `after` is what the rules make of
`before` and the action, so the narration does not need it.

Who sees what: a drawn card is named to its drawer only (the others read "player_N draws a
card"); the short game's removed cards are named to nobody; everything else (cards played face
up, dice, money, the circle) is public.

`explain(game, state, action)` says what a legal action would do, for a person about to choose it;
where that is a move or a toast's payments, it asks the rules too, on a copy.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core.events import Event, public, secret
from d2r_envs.core.words import plural
from d2r_envs.games.draco_and_co import actions as A
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co import facts as F
from d2r_envs.games.draco_and_co.state import Ask, Phase, State

_ORDINAL = ("first", "second", "third")


# Names --------------------------------------------------------------------------------------


def seat(p: int) -> str:
    return f"player_{p}"


def character(game: Any, s: State, c: int) -> str:
    """'green goblin (player_0)', 'Aunt Sarah (player_2)' once claimed, 'Zork'."""
    owner = game.controller(s, c)
    return C.character_name(c) + (f" ({seat(owner)})" if owner >= 0 else "")


def silver(k: int) -> str:
    return f"{k} silver"


def circle(game: Any, s: State) -> str:
    """'1 green goblin (player_0), 2 Zork, ...' from first place (Draco's preferred side) to last."""
    return ", ".join(f"{i + 1} {character(game, s, c)}" for i, c in enumerate(s.order) if c >= 0)


def _move_text(name: str, k: int, i: int, j: int, by: int = -1) -> str:
    """'green goblin (player_0) moves 2 places forward, from place 5 to place 3', or with `by`,
    'player_1 moves green goblin (player_0) 2 places forward, ...'."""
    if i == j:
        stay = f"stays in {'first' if k > 0 else 'last'} place (nobody passes Draco)"
        return f"{seat(by)} chooses {name}, who {stay}" if by >= 0 else f"{name} {stay}"
    text = f"{plural(abs(k), 'place')} {'forward' if k > 0 else 'backward'}, from place {i + 1} to place {j + 1}"
    if abs(j - i) < abs(k):
        text += " (nobody passes Draco)"
    return f"{seat(by)} moves {name} {text}" if by >= 0 else f"{name} moves {text}"


# Facts into words ---------------------------------------------------------------------------


def events(game: Any, before: State, action: int, after: State) -> list[Event]:
    told = game.clone(before)
    teller = told.tell = _Teller(game, told)
    game.apply_legal(told, action)
    return teller.done()


def _facts(game: Any, s: State, action: int) -> list[tuple]:
    """What the rules tell as they apply `action` to a copy of `s`."""
    told = game.clone(s)
    facts: list[tuple] = []
    told.tell = facts.append
    game.apply_legal(told, action)
    return facts


class _Teller:
    """The sink of a narrated copy: each fact becomes events as it is told. A toast's shares and
    charges, place by place, make one line."""

    def __init__(self, game: Any, s: State) -> None:
        self.game, self.s = game, s
        self.out: list[Event] = []
        self.shares: list[str] = []

    def __call__(self, fact: tuple) -> None:
        if isinstance(fact, (F.Share, F.Charge)):
            self.shares.append(_share(self.game, self.s, fact))
            return
        self._flush()
        self.out.extend(_words(self.game, self.s, fact))

    def _flush(self) -> None:
        if self.shares:
            self.out.append(public("; ".join(self.shares)))
            self.shares = []

    def done(self) -> list[Event]:
        self._flush()
        return self.out


def _words(game: Any, s: State, fact: tuple) -> list[Event]:
    """What each seat reads of `fact`, told by the rules of `s` just after it changed `s`."""
    def name(c: int) -> str:
        return character(game, s, c)

    match fact:
        case F.Began(first, cup):
            cfg, n = game.config, game.n
            variants = []
            if cfg.short_game:
                variants.append(f"short game: {cfg.short_game} cards are removed")
            if cfg.long_game:
                variants.append("long game: the end comes after the draw pile runs out twice")
            intro = (
                f"Draco & Co, {n} players: "
                + ", ".join(f"{seat(p)} {C.COLOURS[p]}" for p in range(n))
                + f"; everyone starts with {silver(C.START_MONEY)} (1 gold)"
                + ("; " + "; ".join(variants) if variants else "")
            )
            return [public(intro), public(f"{seat(first)} plays first; {seat(cup)}, the last player, takes the cup")]
        case F.LaidOut():
            if s.phase == Phase.CIRCLE:
                return [public("the circle is laid out after Draco: " + circle(game, s))]
            if C.CATALOGUE[s.card].steps[s.step].op == C.Op.MONTE:
                places = sorted(s.order.index(c) for c in s.picked[-3:])
                laid = ", ".join(f"place {i + 1} {name(s.order[i])}" for i in places)
                return [public("the three are laid back: " + laid)]
            return [public("the characters are shuffled and laid out again: " + circle(game, s))]
        case F.Drawn(p, kind):
            if p < 0:  # face down: nobody sees it; told once the last is set aside
                if -1 in s.draws:
                    return []
                return [public(f"{sum(s.removed)} cards are removed from the draw pile face down, unseen (short game); "
                               f"{s.draw_pile.n} remain")]
            if s.phase == Phase.DEAL:  # told once a seat has its whole hand
                if p in s.draws:
                    return []
                hand, size = C.hand_to_string(s.hands[p]), sum(s.hands[p])
                return [secret(p, f"{seat(p)} is dealt {hand}", f"{seat(p)} is dealt {size} cards")]
            return [secret(p, f"{seat(p)} draws {C.CATALOGUE[kind].name}", f"{seat(p)} draws a card")]
        case F.PileRanOut(exhausted):
            pile = s.draw_pile
            text = f"the draw pile has run out ({exhausted} of {game.ends_after})"
            if pile.n:
                text += f": the discards ({plural(pile.n, 'card')}) are shuffled into a new draw pile"
            else:
                text += ", and there are no discards to shuffle into a new one"
            if exhausted >= game.ends_after:
                text += "; the next toast ends the game"
            return [public(text)]
        case F.PileRefilled():
            n = s.draw_pile.n
            return [public(f"the draw pile is empty: the discards ({plural(n, 'card')}) are shuffled into a new one")]
        case F.NoCardToDraw(p):
            if p < 0:
                return []
            return [public(f"{seat(p)} cannot draw: the draw pile and the discard pile are both empty")]
        case F.TurnBegan(p, turn):
            return [public(f"turn {turn}: {seat(p)}")]
        case F.NothingToPlay(p):
            return [public(f"{seat(p)} has no card to play")]
        case F.CupReturned(p, setup):
            return [public(f"{seat(p)} puts the {'set-up cup' if setup else 'cup'} back in the centre")]
        case F.CupHeld(p, holder):
            if holder == p:
                return [public(f"{seat(p)} holds the set-up cup, so proposes no toast this turn")]
            return [public(f"{seat(holder)} holds the cup, so {seat(p)} cannot propose a toast")]
        case F.Declined(p):
            return [public(f"{seat(p)} does not propose a toast")]
        case F.Played(p, kind):
            card = C.CATALOGUE[kind]
            return [public(f"{seat(p)} plays {card.name}" + (" (dragon)" if card.dragon else "") + f": {card.text}")]
        case F.Moved(c, k, i, j, by):
            return [public(_move_text(name(c), k, i, j, by))]
        case F.OnlyOne(c):
            return [public(f"{name(c)} is the only character to move")]
        case F.ChosenToMove(p, c, place, forward):
            way = "forward" if forward else "backward"
            return [public(f"{seat(p)} chooses {name(c)} in place {place + 1} to move {way} as far as the die says")]
        case F.ChosenToSwap(p, c, place):
            return [public(f"{seat(p)} chooses {name(c)} in place {place + 1} to exchange places")]
        case F.Swapped(p, first, second, i, j):
            x, y = name(first), name(second)
            return [public(f"{seat(p)} swaps {x} and {y}: {x} goes to place {j + 1}, {y} to place {i + 1}")]
        case F.ChosenToShuffle(p, c, place, nth):
            where = f"{name(c)} in place {place + 1}"
            return [public(f"{seat(p)} chooses {where}, the {_ORDINAL[nth - 1]} of three to shuffle")]
        case F.Arranged(p, c, place):
            if p < 0:
                return [public(f"{name(c)} goes to place {place + 1}")]
            return [public(f"{seat(p)} puts {name(c)} in place {place + 1}")]
        case F.Reversed():
            return [public(f"the circle is reversed: {name(s.order[0])} is now first, {name(s.order[-1])} last")]
        case F.DracoMoved(p, k, passed, to_last):
            names = " and ".join(name(c) for c in passed)
            if to_last:
                how = "go from the first places to the last" if k > 1 else "goes from first place to last"
                return [public(f"{seat(p)} moves Draco {plural(k, 'place')}: {names} {how}; "
                               f"{name(s.order[0])} is now first")]
            how = "come from the last places to the first" if k > 1 else "comes from last place to first"
            return [public(f"{seat(p)} moves Draco {plural(k, 'place')}: {names} {how}")]
        case F.Rolled(p, value):
            return [public(f"{seat(p)} rolls a {value}")]
        case F.SarahClaimed(p):
            return [public(f"Aunt Sarah becomes {seat(p)}'s character")]
        case F.Gained(p, amount):
            return [public(f"{seat(p)} takes {silver(amount)} from the bank (now {s.money[p]})")]
        case F.Paid(p, owed, paid):
            if paid == 0:
                return [public(f"{seat(p)} owes the bank {silver(owed)} but has none to pay")]
            if paid < owed:
                text = f"{seat(p)} owes the bank {silver(owed)} and pays all they have, {silver(paid)} (now 0)"
                return [public(text)]
            return [public(f"{seat(p)} pays {silver(paid)} to the bank (now {s.money[p]})")]
        case F.Stole(p, victim, taken):
            if taken:
                return [public(f"{seat(p)} takes {silver(taken)} from {seat(victim)} "
                               f"({seat(p)} now {s.money[p]}, {seat(victim)} now {s.money[victim]})")]
            return [public(f"{seat(p)} picks {seat(victim)}'s pocket, but {seat(victim)} has no silver")]
        case F.Toasted(p, final):
            final_note = " (the final toast)" if final else ""
            return [public(f"{seat(p)} proposes a toast{final_note}: Draco shares out the loot")]
        case F.Settled(p, owed, change):
            now = s.money[p]
            if change > 0:
                return [public(f"{seat(p)} receives {silver(change)} from the bank (now {now})")]
            if change < 0:
                text = f"{seat(p)} pays {silver(-change)} to the bank (now {now})"
                return [public(text + (f", all they had of the {silver(-owed)} owed" if change != owed else ""))]
            if owed < 0:
                return [public(f"{seat(p)} owes the bank {silver(-owed)} but has none to pay")]
            return []
        case F.CupTaken(p):
            return [public(f"{seat(p)} takes the cup")]
        case F.BesideSarah(c, p):
            return [public(f"{name(c)} sits next to Aunt Sarah: {seat(p)} will draw a card")]
        case F.GameOver():
            return result_events(game, s)
    raise ValueError(f"no words for {fact!r}")


def _share(game: Any, s: State, fact: F.Share | F.Charge) -> str:
    """One place's part of a toast, said before any payment: 'place 1 green goblin (player_0) +4',
    'last place Zork: the richest player, player_2, pays double, 4'."""
    def name(c: int) -> str:
        return character(game, s, c)

    place, at, c, amount, payer = fact
    if isinstance(fact, F.Share):
        head = f"place {place + 1} {name(at)}"
        if at == C.BROTHER_JOHN:
            head += f" passes his {amount} on to {name(c)}"
            if c == C.ZORK:
                return head + ", who gets nothing"
            return head + (", which goes to nobody" if payer < 0 else "")
        if at == C.ZORK:
            return head + " gets nothing"
        return head + (f": {amount} for nobody" if payer < 0 else f" +{amount}")
    head = f"{'last' if place == len(s.order) - 1 else 'second-to-last'} place {name(at)}"
    rich = f"the richest player, {seat(payer)},"
    if at == C.BROTHER_JOHN:
        if c == C.ZORK:
            if payer < 0:
                return head + ": Zork before him, and a tie for richest, so nobody pays"
            return head + f": Zork before him, so {rich} pays {amount}"
        if payer < 0:
            return head + f": {name(c)} before him, so nobody pays"
        return head + f": {name(c)} before him pays {amount}"
    if at == C.ZORK:
        return head + (f": {rich} pays double, {amount}" if payer >= 0 else ": a tie for richest, so nobody pays")
    return head + (f" -{amount}" if payer >= 0 else ": nobody pays")


def result_events(game: Any, s: State) -> list[Event]:
    """The end: who won, and the fortunes that decided it (tied fortunes cancel out)."""
    if s.phase != Phase.OVER:
        return []
    fortunes = ", ".join(f"{seat(p)} {m}" for p, m in enumerate(s.money))
    tied = sorted({m for m in s.money if s.money.count(m) > 1}, reverse=True)
    note = ""
    if tied:
        note = "; tied fortunes cancel out: " + ", ".join(
            " and ".join(seat(p) for p, m in enumerate(s.money) if m == v) + f" ({v})" for v in tied
        )
    if s.winners:
        w = s.winners[0]
        head = f"game over: {seat(w)} wins with {silver(s.money[w])}"
    else:
        head = "game over: nobody wins, every fortune is tied (Draco has won)"
    return [public(f"{head} (fortunes: {fortunes}{note})")]


# Explanations -------------------------------------------------------------------------------


def explain(game: Any, s: State, a: int) -> str:
    """What the legal action `a` would do at `s`, for the person choosing it ("" if obvious)."""
    if game.current_player(s) < 0:
        return ""
    p, n = s.turn, game.n
    if a == A.DECLINE:
        return "no toast now; you draw a card and your turn ends"
    if a == A.TOAST:
        return _explain_toast(game, s)
    if a < A.CHARACTER:
        card = C.CATALOGUE[a - A.PLAY]
        return f"{card.name}" + (" (dragon card)" if card.dragon else "") + f": {card.text}"
    if a < A.PLAYER:
        return _explain_character(game, s, a, A.absolute_character(a - A.CHARACTER, p, n))
    if a < A.DIRECTION:
        target = (p + 1 + a - A.PLAYER) % n
        amount = C.CATALOGUE[s.card].steps[s.step].amount
        have = s.money[target]
        if have == 0:
            return f"{seat(target)} has no silver: you take nothing"
        return f"take {silver(min(amount, have))} from {seat(target)} (who has {have})"
    k = C.CATALOGUE[s.card].steps[s.step].amount
    if a == A.DIRECTION:
        names = " and ".join(character(game, s, c) for c in s.order[:k])
        how = "become the last" if k > 1 else "becomes last"
        return f"{names} {how}; {character(game, s, s.order[k])} will be in first place"
    names = " and ".join(character(game, s, c) for c in s.order[-k:])
    return f"{names} " + ("become the first" if k > 1 else "becomes first")


def _explain_character(game: Any, s: State, a: int, c: int) -> str:
    name = character(game, s, c)
    st = C.CATALOGUE[s.card].steps[s.step]
    if s.ask == Ask.ARRANGE:
        return f"{name} goes to place {s.slots[0] + 1}"
    if s.ask == Ask.ORDER or st.op == C.Op.MOVE:
        moved = next(f for f in _facts(game, s, a) if isinstance(f, F.Moved))  # the chosen one moves first
        return _move_text(name, moved.k, moved.start, moved.end)
    i = s.order.index(c)
    if st.op == C.Op.MOVE_DIE:
        way = "forward" if st.amount > 0 else "backward"
        return f"{name}, in place {i + 1}, moves 1 to 6 places {way}, as the die decides"
    if st.op == C.Op.SWAP:
        if s.sub == 0:
            return f"{name}, in place {i + 1}, will exchange places with the character you choose next"
        first = s.picked[-1]
        return f"{character(game, s, first)} goes to place {i + 1} and {name} to place {s.order.index(first) + 1}"
    return f"{name}, in place {i + 1}, is the {_ORDINAL[s.sub]} of the three characters to shuffle"


def _explain_toast(game: Any, s: State) -> str:
    facts = _facts(game, s, A.TOAST)
    settled = [f for f in facts if isinstance(f, F.Settled) and f.change]
    parts = [f"{'you' if f.seat == s.turn else seat(f.seat)} {f.change:+d}" for f in settled]
    text = "Draco shares out the loot now: " + (", ".join(parts) if parts else "nobody gains or pays")
    if any(isinstance(f, F.GameOver) for f in facts):
        text += "; this is the final toast: the game ends"
    else:
        text += "; you take the cup and draw a card (so do the players beside Aunt Sarah)"
    return text
