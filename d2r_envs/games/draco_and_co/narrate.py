"""Draco & Co's event log: each transition told in plain English, as each seat may see it.

`events(game, before, action, after)` replays the transition on a copy of `before`, step by step
as rules.py carries it out, and says what each step did: the card played, the characters chosen
and moved (from which place to which), the die, the money that changed hands (and with whom,
the bank included), the cup, the draws, the pile running out, whose turn it is, and the end.
The replay is a second reading of the rules for the narration only; it must end in `after`
(tests/draco_and_co/test_narrate.py checks that it does), and where it ever does not, a plain
account of what changed is told instead. The rules and their fast paths never pay for any of it.

Who sees what: a drawn card is named to its drawer only (the others read "player_N draws a
card"); the short game's removed cards are named to nobody; everything else (cards played face
up, dice, money, the circle) is public.

`explain(game, state, action)` says what a legal action would do, for a person about to choose it.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core.events import Event, public, secret
from d2r_envs.core.words import plural
from d2r_envs.games.draco_and_co import actions as A
from d2r_envs.games.draco_and_co import cards as C
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


def _moved_to(order: list[int], c: int, k: int) -> tuple[int, int]:
    """(from, to) indices of character c moved k places forward; nobody passes Draco."""
    i = order.index(c)
    return i, min(max(i - k, 0), len(order) - 1)


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


# The replay ---------------------------------------------------------------------------------


class _Story:
    """Carries `before` forward through one action as rules.Game does, telling each step."""

    def __init__(self, game: Any, before: State) -> None:
        self.g = game
        self.n = game.n
        self.s = game.clone(before)
        self.out: list[Event] = []

    def say(self, text: str) -> None:
        self.out.append(public(text))

    def name(self, c: int) -> str:
        return character(self.g, self.s, c)

    # Primitives ------------------------------------------------------------------------------

    def move(self, c: int, k: int, by: int = -1) -> None:
        order = self.s.order
        i, j = _moved_to(order, c, k)
        if j != i:
            order.pop(i)
            order.insert(j, c)
        self.say(_move_text(self.name(c), k, i, j, by))

    def gain(self, p: int, amount: int) -> None:
        s = self.s
        s.money[p] += amount
        s.bank -= amount
        self.say(f"{seat(p)} takes {silver(amount)} from the bank (now {s.money[p]})")

    def pay(self, p: int, amount: int) -> None:
        s = self.s
        paid = min(amount, s.money[p])
        s.money[p] -= paid
        s.bank += paid
        if paid == 0:
            self.say(f"{seat(p)} owes the bank {silver(amount)} but has none to pay")
        elif paid < amount:
            self.say(f"{seat(p)} owes the bank {silver(amount)} and pays all they have, {silver(paid)} (now 0)")
        else:
            self.say(f"{seat(p)} pays {silver(paid)} to the bank (now {s.money[p]})")

    def candidates(self, who: C.Who) -> list[int]:
        s, p = self.s, self.s.turn
        if who == C.Who.OWN or who == C.Who.OWN_OTHER:
            out = [2 * p, 2 * p + 1] + ([C.AUNT_SARAH] if s.sarah_owner == p else [])
        else:
            out = list(self.g.characters)
        if (who == C.Who.OWN_OTHER or who == C.Who.ANY_OTHER) and s.picked:
            out = [c for c in out if c != s.picked[-1]]
        return out

    def group(self, group: C.Group) -> list[int]:
        s = self.s
        if group == C.Group.OWN:
            return self.candidates(C.Who.OWN)
        if group == C.Group.TOP4:
            return sorted(s.order[:4])
        cls = C.GROUP_CLASS[group]
        return [c for c in self.g.characters if C.CHARACTER_CLASS[c] == cls]

    def step_done(self) -> None:
        s = self.s
        s.ask, s.sub = Ask.NONE, 0
        s.step += 1

    # Chance ----------------------------------------------------------------------------------

    def chance(self, a: int) -> None:
        s, g = self.s, self.g
        if s.draws:
            self.draw(a)
        elif s.phase == Phase.FIRST_PLAYER:
            cfg = g.config
            variants = []
            if cfg.short_game:
                variants.append(f"short game: {cfg.short_game} cards are removed")
            if cfg.long_game:
                variants.append("long game: the end comes after the draw pile runs out twice")
            self.say(
                f"Draco & Co, {self.n} players: "
                + ", ".join(f"{seat(p)} {C.COLOURS[p]}" for p in range(self.n))
                + f"; everyone starts with {silver(C.START_MONEY)} (1 gold)"
                + ("; " + "; ".join(variants) if variants else "")
            )
            s.first_player = a
            s.cup = (a - 1) % self.n
            s.phase = Phase.CIRCLE
            s.order = [-1] * g.places
            s.todo = list(g.characters)
            s.slots = list(range(g.places))
            self.say(f"{seat(a)} plays first; {seat(s.cup)}, the last player, takes the cup")
        elif s.phase == Phase.CIRCLE or s.ask == Ask.PLACE:
            self.place(a)
        else:  # Ask.DIE
            s.die = a + 1
            st = C.CATALOGUE[s.card].steps[s.step]
            self.say(f"{seat(s.turn)} rolls a {s.die}")
            if st.op == C.Op.MOVE_DIE:
                self.move(s.picked[-1], st.amount * s.die)
            elif s.die <= 3:  # Op.GAMBLE
                self.pay(s.turn, 1)
            else:
                self.gain(s.turn, 2)
            self.step_done()

    def draw(self, k: int) -> None:
        s, g = self.s, self.g
        p = s.draws.pop(0)
        pile = s.draw_pile
        pile.take(k)
        name = C.CATALOGUE[k].name
        if p >= 0:
            s.hands[p][k] += 1
            if s.phase == Phase.DEAL:  # told once a seat has its whole hand
                if p not in s.draws:
                    hand, size = C.hand_to_string(s.hands[p]), sum(s.hands[p])
                    self.out.append(secret(p, f"{seat(p)} is dealt {hand}", f"{seat(p)} is dealt {size} cards"))
            else:
                self.out.append(secret(p, f"{seat(p)} draws {name}", f"{seat(p)} draws a card"))
        else:
            s.removed[k] += 1  # face down: nobody sees it
            if -1 not in s.draws:
                self.say(
                    f"{sum(s.removed)} cards are removed from the draw pile face down, unseen (short game); "
                    f"{pile.n} remain"
                )
        if pile.n == 0:  # the last card: the discards become the new draw pile
            s.exhausted += 1
            pile.refill(s.discard)
            s.discard = [0] * C.NUM_KINDS
            text = f"the draw pile has run out ({s.exhausted} of {g.ends_after})"
            if pile.n:
                text += f": the discards ({plural(pile.n, 'card')}) are shuffled into a new draw pile"
            else:
                text += ", and there are no discards to shuffle into a new one"
            if s.exhausted >= g.ends_after:
                text += "; the next toast ends the game"
            self.say(text)

    def place(self, c: int) -> None:
        s = self.s
        s.order[s.slots.pop(0)] = c
        s.todo.remove(c)
        if len(s.todo) == 1:
            s.order[s.slots.pop(0)] = s.todo.pop()
        if s.todo:
            return  # told once every place is filled
        if s.phase == Phase.CIRCLE:
            self.say("the circle is laid out after Draco: " + circle(self.g, s))
            s.phase = Phase.DEAL
            s.draws = [p for _ in range(C.HAND_SIZE) for p in range(self.n)]
            s.draws += [-1] * self.g.config.short_game
        else:
            if C.CATALOGUE[s.card].steps[s.step].op == C.Op.MONTE:
                slots = sorted(s.order.index(x) for x in s.picked[-3:])
                laid = ", ".join(f"place {i + 1} {self.name(s.order[i])}" for i in slots)
                self.say("the three are laid back: " + laid)
            else:
                self.say("the characters are shuffled and laid out again: " + circle(self.g, s))
            self.step_done()

    # Decisions -------------------------------------------------------------------------------

    def decision(self, a: int) -> None:
        s = self.s
        p = s.turn
        if a == A.DECLINE:
            self.say(f"{seat(p)} does not propose a toast")
            s.draws.append(p)
            s.phase = Phase.DRAW
        elif a == A.TOAST:
            self.toast()
        elif a < A.CHARACTER:
            k = a - A.PLAY
            card = C.CATALOGUE[k]
            s.hands[p][k] -= 1
            s.card, s.step, s.sub, s.die = k, 0, 0, 0
            s.picked, s.todo, s.slots = [], [], []
            s.ask = Ask.NONE
            s.phase = Phase.CARD
            self.say(f"{seat(p)} plays {card.name}" + (" (dragon)" if card.dragon else "") + f": {card.text}")
        elif a < A.PLAYER:
            self.choose(A.absolute_character(a - A.CHARACTER, p, self.n))
        elif a < A.DIRECTION:
            target = (p + 1 + a - A.PLAYER) % self.n
            st = C.CATALOGUE[s.card].steps[s.step]
            taken = min(st.amount, s.money[target])
            s.money[target] -= taken
            s.money[p] += taken
            if taken:
                self.say(
                    f"{seat(p)} takes {silver(taken)} from {seat(target)} "
                    f"({seat(p)} now {s.money[p]}, {seat(target)} now {s.money[target]})"
                )
            else:
                self.say(f"{seat(p)} picks {seat(target)}'s pocket, but {seat(target)} has no silver")
            self.step_done()
        else:
            k = C.CATALOGUE[s.card].steps[s.step].amount
            if a == A.DIRECTION:  # Draco passes the first k characters: they become the last
                passed = s.order[:k]
                s.order = s.order[k:] + s.order[:k]
                how = "go from the first places to the last" if k > 1 else "goes from first place to last"
            else:
                passed = s.order[-k:]
                s.order = s.order[-k:] + s.order[:-k]
                how = "come from the last places to the first" if k > 1 else "comes from last place to first"
            names = " and ".join(self.name(c) for c in passed)
            text = f"{seat(p)} moves Draco {plural(k, 'place')}: {names} {how}"
            if a == A.DIRECTION:
                text += f"; {self.name(s.order[0])} is now first"
            self.say(text)
            self.step_done()

    def choose(self, c: int) -> None:
        s = self.s
        p = s.turn
        card = C.CATALOGUE[s.card]
        st = card.steps[s.step]
        if s.ask == Ask.ORDER:
            self.move(c, st.amount, by=p)
            s.todo.remove(c)
            if len(s.todo) == 1:
                self.move(s.todo.pop(), st.amount)
            if not s.todo:
                self.step_done()
            return
        if s.ask == Ask.ARRANGE:
            i = s.slots.pop(0)
            s.order[i] = c
            s.todo.remove(c)
            self.say(f"{seat(p)} puts {self.name(c)} in place {i + 1}")
            if len(s.todo) == 1:
                last = s.todo.pop()
                i = s.slots.pop(0)
                s.order[i] = last
                self.say(f"{self.name(last)} goes to place {i + 1}")
            if not s.todo:
                self.step_done()
            return
        op = st.op
        s.picked.append(c)
        where = f"{self.name(c)} in place {s.order.index(c) + 1}"
        if op == C.Op.MOVE:
            self.move(c, st.amount, by=p)
            self.step_done()
        elif op == C.Op.MOVE_DIE:
            way = "forward" if st.amount > 0 else "backward"
            self.say(f"{seat(p)} chooses {where} to move {way} as far as the die says")
            s.ask = Ask.DIE
        elif op == C.Op.SWAP:
            if s.sub == 0:
                self.say(f"{seat(p)} chooses {where} to exchange places")
                s.sub = 1
            else:
                first = s.picked[-2]
                i, j = s.order.index(first), s.order.index(c)
                s.order[i], s.order[j] = s.order[j], s.order[i]
                x, y = self.name(first), self.name(c)
                self.say(f"{seat(p)} swaps {x} and {y}: {x} goes to place {j + 1}, {y} to place {i + 1}")
                self.step_done()
        else:  # Op.MONTE
            s.sub += 1
            self.say(f"{seat(p)} chooses {where}, the {_ORDINAL[s.sub - 1]} of three to shuffle")
            if s.sub == 3:
                chosen = s.picked[-3:]
                s.slots = sorted(s.order.index(x) for x in chosen)
                for i in s.slots:
                    s.order[i] = -1
                s.todo = sorted(chosen)
                s.ask = Ask.PLACE

    def toast(self) -> None:
        s, g = self.s, self.g
        p = s.turn
        final = s.exhausted >= g.ends_after
        final_note = " (the final toast)" if final else ""
        self.say(f"{seat(p)} proposes a toast{final_note}: Draco shares out the loot")
        gains, costs = g.toast_deltas(s)
        self.say(self._share_out())
        for q in range(self.n):  # net amounts; whoever cannot pay pays what they can
            owed = gains[q] - costs[q]
            new = max(0, s.money[q] + owed)
            got = new - s.money[q]
            s.bank -= got
            s.money[q] = new
            if got > 0:
                self.say(f"{seat(q)} receives {silver(got)} from the bank (now {new})")
            elif owed < 0 and got == 0:
                self.say(f"{seat(q)} owes the bank {silver(-owed)} but has none to pay")
            elif got < 0:
                text = f"{seat(q)} pays {silver(-got)} to the bank (now {new})"
                if got != owed:
                    text += f", all they had of the {silver(-owed)} owed"
                self.say(text)
        s.cup, s.cup_initial = p, False
        self.say(f"{seat(p)} takes the cup")
        if final:
            s.phase = Phase.OVER
            s.winners = g.winners(s)
            self.out.extend(result_events(g, s))
            return
        i = s.order.index(C.AUNT_SARAH)
        for j in (i - 1, i + 1):  # her neighbours' controllers draw (Draco is not a neighbour)
            if 0 <= j < g.places and s.order[j] < 12:
                q = g.controller(s, s.order[j])
                s.draws.append(q)
                self.say(f"{self.name(s.order[j])} sits next to Aunt Sarah: {seat(q)} will draw a card")
        s.draws.append(p)
        s.phase = Phase.DRAW

    def _share_out(self) -> str:
        """Where each payment of the toast comes from, place by place (before any is made)."""
        s, g = self.s, self.g
        order, parts = s.order, []
        for place, amount in enumerate(C.TOAST_GAINS):
            c = order[place]
            head = f"place {place + 1} {self.name(c)}"
            if c == C.BROTHER_JOHN:
                c = order[place + 1]
                head += f" passes his {amount} on to {self.name(c)}"
                if c == C.ZORK:
                    head += ", who gets nothing"
                elif g.controller(s, c) < 0:
                    head += ", which goes to nobody"
            elif c == C.ZORK:
                head += " gets nothing"
            elif g.controller(s, c) < 0:
                head += f": {amount} for nobody"
            else:
                head += f" +{amount}"
            parts.append(head)
        last = len(order) - 1
        richest = g.richest(s)
        rich = f"the richest player, {seat(richest)}," if richest >= 0 else ""
        charged = ((last, C.TOAST_CHARGES[0], "last"), (last - 1, C.TOAST_CHARGES[1], "second-to-last"))
        for place, amount, where in charged:
            c = order[place]
            head = f"{where} place {self.name(c)}"
            if c == C.BROTHER_JOHN:
                prev = order[place - 1]
                if prev == C.ZORK:
                    head += f": Zork before him, so {rich} pays {amount}" if rich else (
                        ": Zork before him, and a tie for richest, so nobody pays"
                    )
                elif g.controller(s, prev) >= 0:
                    head += f": {self.name(prev)} before him pays {amount}"
                else:
                    head += f": {self.name(prev)} before him, so nobody pays"
            elif c == C.ZORK:
                head += f": {rich} pays double, {2 * amount}" if rich else ": a tie for richest, so nobody pays"
            elif g.controller(s, c) >= 0:
                head += f" -{amount}"
            else:
                head += ": nobody pays"
            parts.append(head)
        return "; ".join(parts)

    # What follows on its own (rules.Game._advance and what it calls) -------------------------

    def advance(self) -> None:
        s = self.s
        while True:
            if s.draws:
                pile = s.draw_pile
                if pile.n == 0 and any(s.discard):
                    pile.refill(s.discard)
                    s.discard = [0] * C.NUM_KINDS
                    self.say(f"the draw pile is empty: the discards ({plural(pile.n, 'card')}) are shuffled "
                             "into a new one")
                if pile.n > 0:
                    return
                q = s.draws.pop(0)
                if q >= 0:
                    self.say(f"{seat(q)} cannot draw: the draw pile and the discard pile are both empty")
                continue
            ph = s.phase
            if ph == Phase.DEAL:
                self.start_turn(s.first_player)
            elif ph == Phase.DRAW:
                self.end_turn()
            elif ph == Phase.CARD and s.ask == Ask.NONE:
                self.run_card()
            else:
                return

    def start_turn(self, p: int) -> None:
        s = self.s
        s.turn = p
        s.turns += 1
        self.say(f"turn {s.turns}: {seat(p)}")
        if any(s.hands[p]):
            s.phase = Phase.PLAY
        else:
            self.say(f"{seat(p)} has no card to play")
            self.after_play()

    def after_play(self) -> None:
        s = self.s
        p = s.turn
        if s.cup == p and not s.cup_initial:
            s.cup = -1
            self.say(f"{seat(p)} puts the cup back in the centre")
        if s.cup == -1:
            s.phase = Phase.TOAST
        else:
            if s.cup == p:
                self.say(f"{seat(p)} holds the set-up cup, so proposes no toast this turn")
            else:
                self.say(f"{seat(s.cup)} holds the cup, so {seat(p)} cannot propose a toast")
            s.draws.append(p)
            s.phase = Phase.DRAW

    def end_turn(self) -> None:
        s = self.s
        p = s.turn
        if s.cup == p and s.cup_initial:
            s.cup, s.cup_initial = -1, False
            self.say(f"{seat(p)} puts the set-up cup back in the centre")
        self.start_turn((p + 1) % self.n)

    def run_card(self) -> None:
        s = self.s
        kind = C.CATALOGUE[s.card]
        while s.step < len(kind.steps):
            if self.begin_step(kind.steps[s.step]):
                return
            s.step += 1
            if s.draws:
                return
        s.discard[s.card] += 1
        s.card, s.step, s.sub, s.die = -1, 0, 0, 0
        s.picked, s.todo, s.slots = [], [], []
        self.after_play()

    def begin_step(self, st: C.Step) -> bool:
        s, g = self.s, self.g
        op, p = st.op, s.turn
        if op == C.Op.MOVE or op == C.Op.MOVE_DIE:
            cands = self.candidates(st.who)
            if not cands:
                return False
            if len(cands) > 1:
                s.ask = Ask.CHARACTER
                return True
            s.picked.append(cands[0])
            if op == C.Op.MOVE_DIE:
                self.say(f"{self.name(cands[0])} is the only character to move")
                s.ask = Ask.DIE
                return True
            self.move(cands[0], st.amount)
            return False
        if op == C.Op.MOVE_GROUP:
            s.todo = self.group(st.group)
            if len(s.todo) > 1:
                s.ask = Ask.ORDER
                return True
            for c in s.todo:
                self.move(c, st.amount)
            s.todo = []
            return False
        if op == C.Op.SWAP or op == C.Op.MONTE:
            s.ask = Ask.CHARACTER
            return True
        if op == C.Op.DRACO_FLIP:
            s.order.reverse()
            self.say(f"the circle is reversed: {self.name(s.order[0])} is now first, {self.name(s.order[-1])} last")
            return False
        if op == C.Op.DRACO_MOVE:
            s.ask = Ask.DIRECTION
            return True
        if op == C.Op.STEAL:
            s.ask = Ask.PLAYER
            return True
        if op == C.Op.GAIN:
            self.gain(p, st.amount)
            return False
        if op == C.Op.PAY:
            self.pay(p, st.amount)
            return False
        if op == C.Op.GAMBLE:
            s.ask = Ask.DIE
            return True
        if op == C.Op.DRAW:
            s.draws.extend([p] * st.amount)
            return False
        if op == C.Op.OLD_FRIENDSHIP:
            s.sarah_owner = p
            self.say(f"Aunt Sarah becomes {seat(p)}'s character")
            return False
        if op == C.Op.SHUFFLE_ALL:
            s.todo = sorted(s.order)
            s.slots = list(range(g.places))
            s.order = [-1] * g.places
            s.ask = Ask.PLACE
            return True
        # Op.REARRANGE_SPECIALS
        s.slots = sorted(s.order.index(c) for c in C.SPECIALS)
        for i in s.slots:
            s.order[i] = -1
        s.todo = list(C.SPECIALS)
        s.ask = Ask.ARRANGE
        return True


def replay(game: Any, before: State, action: int) -> tuple[list[Event], State]:
    """The events of `before` --action--> and the state the replay ends in (which must equal
    the rules' own result)."""
    story = _Story(game, before)
    if game.current_player(before) < 0:
        story.chance(action)
    else:
        story.decision(action)
    story.advance()
    return story.out, story.s


def events(game: Any, before: State, action: int, after: State) -> list[Event]:
    out, shadow = replay(game, before, action)
    if shadow != after:  # never expected: tell plainly what changed rather than a wrong story
        out = _plain(game, before, action, after)
    return out


def _plain(game: Any, before: State, action: int, after: State) -> list[Event]:
    """A fallback account from the before / after difference alone."""
    out = []
    p = game.current_player(before)
    if p >= 0:
        out.append(public(f"{seat(p)}: {game.action_to_string(before, action)}"))
    if before.order != after.order and -1 not in after.order:
        out.append(public("the circle is now: " + circle(game, after)))
    for q in range(game.n):
        d = after.money[q] - before.money[q]
        if d:
            out.append(public(f"{seat(q)} {'gains' if d > 0 else 'loses'} {silver(abs(d))} (now {after.money[q]})"))
    for q in range(game.n):
        d = sum(after.hands[q]) - sum(before.hands[q])
        if d > 0:
            out.append(public(f"{seat(q)} has {d} more card" + ("s" if d > 1 else "")))
    if after.phase == Phase.OVER and before.phase != Phase.OVER:
        out.extend(result_events(game, after))
    return out


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
        return _explain_character(game, s, A.absolute_character(a - A.CHARACTER, p, n))
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


def _explain_character(game: Any, s: State, c: int) -> str:
    name = character(game, s, c)
    st = C.CATALOGUE[s.card].steps[s.step]
    if s.ask == Ask.ARRANGE:
        return f"{name} goes to place {s.slots[0] + 1}"
    if s.ask == Ask.ORDER or st.op == C.Op.MOVE:
        i, j = _moved_to(s.order, c, st.amount)
        return _move_text(name, st.amount, i, j)
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
    gains, costs = game.toast_deltas(s)
    parts = []
    for q in range(game.n):
        got = max(0, s.money[q] + gains[q] - costs[q]) - s.money[q]
        if got:
            parts.append(f"{'you' if q == s.turn else seat(q)} {got:+d}")
    text = "Draco shares out the loot now: " + (", ".join(parts) if parts else "nobody gains or pays")
    if s.exhausted >= game.ends_after:
        text += "; this is the final toast: the game ends"
    else:
        text += "; you take the cup and draw a card (so do the players beside Aunt Sarah)"
    return text
