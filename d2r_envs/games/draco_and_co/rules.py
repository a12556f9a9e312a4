"""Draco & Co rules: the transition system. Plain Python; knows nothing of PettingZoo or numpy.

Where something happens, the rules tell it (facts.py) to the state's sink, `s.tell`, when one is set
(narrate.py sets one on the copy it narrates); otherwise that costs one test of `s.tell`.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import game as core
from d2r_envs.core.game import CHANCE, TERMINAL, GameSpec
from d2r_envs.core.zones import Deck, Zones
from d2r_envs.core.words import seat_name
from d2r_envs.games.draco_and_co import actions as A
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co import facts as F
from d2r_envs.games.draco_and_co.config import Config
from d2r_envs.games.draco_and_co.state import ZONES, Ask, Phase, State

NAME = "draco_and_co"
VERSION = 0
MAX_GAME_LENGTH = 3000  # player decisions; the adapter truncates beyond it

_OVER, _DEAL, _CARD, _DIE, _PLACE = int(Phase.OVER), int(Phase.DEAL), int(Phase.CARD), int(Ask.DIE), int(Ask.PLACE)
_SEG_START = [A.DECLINE, A.TOAST, A.PLAY, A.CHARACTER, A.PLAYER, A.DIRECTION, A.ACTIONS.size]


class Game(core.Game[State]):
    zones: Zones | None = ZONES  # redeterminise deals the other hands, the removed cards and the draw pile anew; DRACO-HIDDEN-1
    def __init__(self, config: Config) -> None:
        self.config = config
        n = self.n = config.num_players
        self.characters = list(range(2 * n)) + list(C.SPECIALS)  # DRACO-SETUP-2, DRACO-CHAR-1, DRACO-DRACO-1
        self.places = len(self.characters)
        self.ends_after = 2 if config.long_game else 1  # DRACO-VARIANT-2
        self.spec = GameSpec(
            name=NAME,
            version=VERSION,
            num_players=n,
            min_players=C.MIN_PLAYERS,
            max_players=C.MAX_PLAYERS,
            num_actions=A.ACTIONS.size,
            max_chance_outcomes=max(C.NUM_KINDS, C.NUM_CHARACTERS, C.DIE_SIDES, C.MAX_PLAYERS),
            max_game_length=MAX_GAME_LENGTH,
            min_return=-1.0,
            max_return=1.0,
        )

    # Set-up ----------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        n = self.n
        return State(
            num_players=n,
            hands=[[0] * C.NUM_KINDS for _ in range(n)],
            draw_pile=Deck(k.copies for k in C.CATALOGUE),  # DRACO-SETUP-4: shuffled (drawn at random)
            removed=[0] * C.NUM_KINDS,
            discard=[0] * C.NUM_KINDS,
            money=[C.START_MONEY] * n,  # DRACO-SETUP-5
            bank=C.SILVER_COINS + 3 * C.GOLD_COINS - C.START_MONEY * n,  # DRACO-SETUP-5, DRACO-WEALTH-2
            order=[],
        )

    # Who acts ---------------------------------------------------------------------------------

    def current_player(self, s: State) -> int:  # (runs several times a step: the enum members as plain ints)
        ph = s.phase
        if ph == _OVER:
            return TERMINAL
        if s.draws or ph <= _DEAL or (ph == _CARD and (s.ask == _DIE or s.ask == _PLACE)):
            return CHANCE
        return s.turn

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if s.draws:
            return s.draw_pile.outcomes()
        if s.phase == Phase.FIRST_PLAYER:
            return [(p, 1.0 / self.n) for p in range(self.n)]  # DRACO-SETUP-6: the first player is random
        if s.phase == Phase.CIRCLE or s.ask == Ask.PLACE:
            return [(c, 1.0 / len(s.todo)) for c in sorted(s.todo)]  # DRACO-SETUP-3: shuffled
        if s.ask == Ask.DIE:
            return [(v, 1.0 / C.DIE_SIDES) for v in range(C.DIE_SIDES)]
        raise ValueError("not a chance node")

    def sample_chance(self, s: State, rng: Any) -> int:
        u = rng.random()
        if s.draws:
            return s.draw_pile.kind_at(u)
        if s.phase == Phase.FIRST_PLAYER:
            return int(u * self.n)
        if s.phase == Phase.CIRCLE or s.ask == Ask.PLACE:
            return sorted(s.todo)[int(u * len(s.todo))]
        return int(u * C.DIE_SIDES)

    def legal_actions(self, s: State) -> list[int]:
        ph = s.phase
        p = s.turn
        if ph == Phase.PLAY:
            return [A.PLAY + k for k, c in enumerate(s.hands[p]) if c]  # DRACO-TURN-2: playing is mandatory
        if ph == Phase.TOAST:
            return [A.DECLINE, A.TOAST]  # DRACO-TOAST-1: nobody must propose one
        if ph == Phase.CARD:  # DRACO-PLAY-3: the player decides what the card leaves open
            ask = s.ask
            if ask == Ask.CHARACTER or ask == Ask.ORDER or ask == Ask.ARRANGE:
                n = self.n
                return sorted(A.CHARACTER + A.relative_character(c, p, n) for c in self._choices(s))
            if ask == Ask.DIRECTION:
                return [A.DIRECTION, A.DIRECTION + 1]
            if ask == Ask.PLAYER:
                return [A.PLAYER + k for k in range(self.n - 1)]
        return []

    def _choices(self, s: State) -> list[int]:
        """The characters the current CHARACTER / ORDER / ARRANGE question allows."""
        if s.ask != Ask.CHARACTER:
            return s.todo
        st = C.CATALOGUE[s.card].steps[s.step]
        if st.op == C.Op.MONTE:
            return [c for c in self.characters if c not in s.picked[len(s.picked) - s.sub :]]
        who = st.who2 if (st.op == C.Op.SWAP and s.sub == 1) else st.who
        return self._candidates(s, who)

    def _candidates(self, s: State, who: C.Who | None) -> list[int]:
        p = s.turn
        if who == C.Who.OWN or who == C.Who.OWN_OTHER:
            out = [2 * p, 2 * p + 1] + ([C.AUNT_SARAH] if s.sarah_owner == p else [])  # DRACO-CHAR-2
        else:
            out = list(self.characters)  # DRACO-CHAR-1: any character, never Draco
        if (who == C.Who.OWN_OTHER or who == C.Who.ANY_OTHER) and s.picked:
            out = [c for c in out if c != s.picked[-1]]
        return out

    # Transitions ------------------------------------------------------------------------------

    def apply_legal(self, s: State, action: int) -> None:
        if self.current_player(s) == CHANCE:
            self._apply_chance(s, action)
        else:
            self._apply_decision(s, action)
        self._advance(s)

    def _drawn(self, s: State, a: int) -> None:
        """A card of kind `a` has left the draw pile for the first seat due to draw."""
        seat = s.draws.pop(0)
        if seat >= 0:
            s.hands[seat][a] += 1  # DRACO-DRAW-1
        else:
            s.removed[a] += 1  # DRACO-VARIANT-1: set aside face down
        if s.tell is not None:
            s.tell(F.Drawn(seat, a))
        if s.draw_pile.n == 0:  # the last card: the discards become the new draw pile (DRACO-END-1)
            s.exhausted += 1
            s.draw_pile.refill(s.discard)
            s.discard = [0] * C.NUM_KINDS
            if s.tell is not None:
                s.tell(F.PileRanOut(s.exhausted))

    def _apply_chance(self, s: State, a: int) -> None:
        if s.draws:
            s.draw_pile.take(a)
            self._drawn(s, a)
        elif s.phase == Phase.FIRST_PLAYER:
            s.first_player = a
            s.cup = (a - 1) % self.n  # the last player takes the cup (DRACO-SETUP-6)
            s.phase = Phase.CIRCLE  # DRACO-SETUP-3
            s.order = [-1] * self.places
            s.todo = list(self.characters)
            s.slots = list(range(self.places))
            if s.tell is not None:
                s.tell(F.Began(a, s.cup))
        elif s.phase == Phase.CIRCLE or s.ask == Ask.PLACE:
            self._place(s, a)
        else:  # Ask.DIE
            s.die = a + 1
            if s.tell is not None:
                s.tell(F.Rolled(s.turn, s.die))
            st = C.CATALOGUE[s.card].steps[s.step]
            if st.op == C.Op.MOVE_DIE:  # DRACO-CARD-MOVE-DIE
                self._move(s, s.picked[-1], st.amount * s.die)
            elif s.die <= 3:  # Op.GAMBLE (DRACO-CARD-GAMBLE)
                self._pay(s, s.turn, 1)
            else:
                self._gain(s, s.turn, 2)
            self._step_done(s)

    def _place(self, s: State, c: int) -> None:
        s.order[s.slots.pop(0)] = c
        s.todo.remove(c)
        if len(s.todo) == 1:
            s.order[s.slots.pop(0)] = s.todo.pop()
        if not s.todo:
            if s.tell is not None:
                s.tell(F.LaidOut())
            if s.phase == Phase.CIRCLE:
                s.phase = Phase.DEAL
                s.draws = [p for _ in range(C.HAND_SIZE) for p in range(self.n)]  # DRACO-SETUP-4
                s.draws += [-1] * self.config.short_game  # DRACO-VARIANT-1
            else:
                self._step_done(s)

    def _apply_decision(self, s: State, a: int) -> None:
        p = s.turn
        if a == A.DECLINE:
            if s.tell is not None:
                s.tell(F.Declined(p))
            s.draws.append(p)  # DRACO-DRAW-1
            s.phase = Phase.DRAW
        elif a == A.TOAST:
            self._toast(s)
        elif a < A.CHARACTER:  # play a card
            k = a - A.PLAY
            s.hands[p][k] -= 1
            s.card, s.step, s.sub, s.die = k, 0, 0, 0
            s.picked, s.todo, s.slots = [], [], []
            s.ask = Ask.NONE
            s.phase = Phase.CARD
            if s.tell is not None:
                s.tell(F.Played(p, k))
        elif a < A.PLAYER:
            self._choose_character(s, A.absolute_character(a - A.CHARACTER, p, self.n))
        elif a < A.DIRECTION:  # DRACO-CARD-STEAL
            target = (p + 1 + a - A.PLAYER) % self.n
            st = C.CATALOGUE[s.card].steps[s.step]
            taken = min(st.amount, s.money[target])  # DRACO-WEALTH-3
            s.money[target] -= taken
            s.money[p] += taken
            if s.tell is not None:
                s.tell(F.Stole(p, target, taken))
            self._step_done(s)
        else:
            k = C.CATALOGUE[s.card].steps[s.step].amount
            if a == A.DIRECTION:  # Draco passes the first k characters: they become the last (DRACO-CARD-DRACO-MOVE)
                s.order = s.order[k:] + s.order[:k]
                if s.tell is not None:
                    s.tell(F.DracoMoved(p, k, tuple(s.order[-k:]), True))
            else:
                s.order = s.order[-k:] + s.order[:-k]
                if s.tell is not None:
                    s.tell(F.DracoMoved(p, k, tuple(s.order[:k]), False))
            self._step_done(s)

    def _choose_character(self, s: State, c: int) -> None:
        if s.ask == Ask.ORDER:  # DRACO-CARD-MOVE-GROUP, DRACO-MOVE-4
            st = C.CATALOGUE[s.card].steps[s.step]
            self._move(s, c, st.amount, s.turn)
            s.todo.remove(c)
            if len(s.todo) == 1:
                self._move(s, s.todo.pop(), st.amount)
            if not s.todo:
                self._step_done(s)
            return
        if s.ask == Ask.ARRANGE:  # DRACO-CARD-REARRANGE-SPECIALS
            i = s.slots.pop(0)
            s.order[i] = c
            s.todo.remove(c)
            if s.tell is not None:
                s.tell(F.Arranged(s.turn, c, i))
            if len(s.todo) == 1:
                i, last = s.slots.pop(0), s.todo.pop()
                s.order[i] = last
                if s.tell is not None:
                    s.tell(F.Arranged(-1, last, i))
            if not s.todo:
                self._step_done(s)
            return
        st = C.CATALOGUE[s.card].steps[s.step]
        op = st.op
        if op == C.Op.MOVE:  # DRACO-CARD-MOVE
            s.picked.append(c)
            self._move(s, c, st.amount, s.turn)
            self._step_done(s)
        elif op == C.Op.MOVE_DIE:  # DRACO-CARD-MOVE-DIE
            s.picked.append(c)
            s.ask = Ask.DIE  # the character is chosen before the die is rolled (DRACO-PLAY-4)
            if s.tell is not None:
                s.tell(F.ChosenToMove(s.turn, c, s.order.index(c), st.amount > 0))
        elif op == C.Op.SWAP:  # DRACO-CARD-SWAP
            s.picked.append(c)
            if s.sub == 0:
                s.sub = 1
                if s.tell is not None:
                    s.tell(F.ChosenToSwap(s.turn, c, s.order.index(c)))
            else:
                i, j = s.order.index(s.picked[-2]), s.order.index(c)
                s.order[i], s.order[j] = s.order[j], s.order[i]
                if s.tell is not None:
                    s.tell(F.Swapped(s.turn, s.picked[-2], c, i, j))
                self._step_done(s)
        else:  # Op.MONTE: three characters, then chance lays them back in their places (DRACO-CARD-MONTE)
            s.picked.append(c)
            s.sub += 1
            if s.tell is not None:
                s.tell(F.ChosenToShuffle(s.turn, c, s.order.index(c), s.sub))
            if s.sub == 3:
                chosen = s.picked[-3:]
                s.slots = sorted(s.order.index(x) for x in chosen)
                for i in s.slots:
                    s.order[i] = -1
                s.todo = sorted(chosen)
                s.ask = Ask.PLACE

    def _step_done(self, s: State) -> None:
        s.ask = Ask.NONE
        s.sub = 0
        s.step += 1

    def _advance(self, s: State) -> None:
        """Carry out everything automatic until a decision or a chance event is needed."""
        while True:
            if s.draws:
                pile = s.draw_pile
                if pile.n == 0 and any(s.discard):  # the pile ran out on an empty discard earlier
                    pile.refill(s.discard)
                    s.discard = [0] * C.NUM_KINDS
                    if s.tell is not None:
                        s.tell(F.PileRefilled())
                if pile.n > 0:
                    return
                seat = s.draws.pop(0)  # nothing left to draw anywhere
                if s.tell is not None:
                    s.tell(F.NoCardToDraw(seat))
                continue
            ph = s.phase
            if ph == Phase.DEAL:
                self._start_turn(s, s.first_player)  # DRACO-TURN-1
            elif ph == Phase.DRAW:
                self._end_turn(s)
            elif ph == Phase.CARD and s.ask == Ask.NONE:
                self._run_card(s)
            else:
                return

    def _start_turn(self, s: State, p: int) -> None:
        s.turn = p
        s.turns += 1
        if s.tell is not None:
            s.tell(F.TurnBegan(p, s.turns))
        if any(s.hands[p]):
            s.phase = Phase.PLAY  # DRACO-TURN-2: play, toast, draw
        else:  # nothing to play: straight on to the toast (DRACO-DRAW-2: hands may empty)
            if s.tell is not None:
                s.tell(F.NothingToPlay(p))
            self._after_play(s)

    def _after_play(self, s: State) -> None:
        p = s.turn
        if s.cup == p and not s.cup_initial:  # the proposer returns the cup after playing (DRACO-CUP-1)
            s.cup = -1
            if s.tell is not None:
                s.tell(F.CupReturned(p, False))
        if s.cup == -1:  # DRACO-TOAST-1: only while the cup is in the centre
            s.phase = Phase.TOAST
        else:
            if s.tell is not None:
                s.tell(F.CupHeld(p, s.cup))
            s.draws.append(p)  # DRACO-DRAW-1
            s.phase = Phase.DRAW

    def _end_turn(self, s: State) -> None:
        p = s.turn
        if s.cup == p and s.cup_initial:  # the set-up cup returns at the end of the first round (DRACO-CUP-2)
            s.cup, s.cup_initial = -1, False
            if s.tell is not None:
                s.tell(F.CupReturned(p, True))
        self._start_turn(s, (p + 1) % self.n)  # DRACO-TURN-1: clockwise

    def _run_card(self, s: State) -> None:
        """Carry out the steps of the card in play until one needs an answer (DRACO-PLAY-1)."""
        kind = C.CATALOGUE[s.card]
        while s.step < len(kind.steps):
            if self._begin_step(s, kind.steps[s.step]):
                return
            s.step += 1
            if s.draws:
                return
        s.discard[s.card] += 1  # DRACO-PLAY-1: then discarded face up
        s.card, s.step, s.sub, s.die = -1, 0, 0, 0
        s.picked, s.todo, s.slots = [], [], []
        self._after_play(s)

    def _begin_step(self, s: State, st: C.Step) -> bool:
        """Start a step: True if it now waits for an answer, False if it is already done."""
        op, p = st.op, s.turn
        if op == C.Op.MOVE or op == C.Op.MOVE_DIE:  # DRACO-CARD-MOVE, DRACO-CARD-MOVE-DIE
            cands = self._candidates(s, st.who)
            if not cands:
                return False
            if len(cands) > 1:  # DRACO-PLAY-3
                s.ask = Ask.CHARACTER
                return True
            s.picked.append(cands[0])
            if op == C.Op.MOVE_DIE:  # DRACO-PLAY-4
                s.ask = Ask.DIE
                if s.tell is not None:
                    s.tell(F.OnlyOne(cands[0]))
                return True
            self._move(s, cands[0], st.amount)
            return False
        if op == C.Op.MOVE_GROUP:  # DRACO-CARD-MOVE-GROUP
            assert st.group is not None  # every MOVE_GROUP step names its group (cards.py)
            s.todo = self._group(s, st.group)
            if len(s.todo) > 1:
                s.ask = Ask.ORDER  # DRACO-MOVE-4: the player chooses the order
                return True
            for c in s.todo:
                self._move(s, c, st.amount)
            s.todo = []
            return False
        if op == C.Op.SWAP or op == C.Op.MONTE:  # DRACO-CARD-SWAP, DRACO-CARD-MONTE
            s.ask = Ask.CHARACTER
            return True
        if op == C.Op.DRACO_FLIP:  # DRACO-CARD-DRACO-FLIP
            s.order.reverse()
            if s.tell is not None:
                s.tell(F.Reversed())
            return False
        if op == C.Op.DRACO_MOVE:  # DRACO-CARD-DRACO-MOVE
            s.ask = Ask.DIRECTION
            return True
        if op == C.Op.STEAL:  # DRACO-CARD-STEAL
            s.ask = Ask.PLAYER
            return True
        if op == C.Op.GAIN:  # DRACO-CARD-GAIN
            self._gain(s, p, st.amount)
            return False
        if op == C.Op.PAY:  # DRACO-CARD-PAY
            self._pay(s, p, st.amount)
            return False
        if op == C.Op.GAMBLE:  # DRACO-CARD-GAMBLE
            s.ask = Ask.DIE
            return True
        if op == C.Op.DRAW:  # DRACO-CARD-DRAW
            s.draws.extend([p] * st.amount)  # DRACO-DRAW-2
            return False
        if op == C.Op.OLD_FRIENDSHIP:  # DRACO-CARD-OLD-FRIENDSHIP
            s.sarah_owner = p  # DRACO-SARAH-2
            if s.tell is not None:
                s.tell(F.SarahClaimed(p))
            return False
        if op == C.Op.SHUFFLE_ALL:  # DRACO-CARD-SHUFFLE-ALL
            s.todo = sorted(s.order)
            s.slots = list(range(self.places))
            s.order = [-1] * self.places
            s.ask = Ask.PLACE
            return True
        # Op.REARRANGE_SPECIALS (DRACO-CARD-REARRANGE-SPECIALS)
        s.slots = sorted(s.order.index(c) for c in C.SPECIALS)
        for i in s.slots:
            s.order[i] = -1
        s.todo = list(C.SPECIALS)
        s.ask = Ask.ARRANGE
        return True

    def _group(self, s: State, group: C.Group) -> list[int]:
        if group == C.Group.OWN:
            return self._candidates(s, C.Who.OWN)
        if group == C.Group.TOP4:
            return sorted(s.order[:4])
        cls = C.GROUP_CLASS[group]
        return [c for c in self.characters if C.CHARACTER_CLASS[c] == cls]

    # Rule primitives ----------------------------------------------------------------------------

    def _move(self, s: State, c: int, k: int, by: int = -1) -> None:
        """Move character c k places forward (k < 0: backward); nobody passes Draco. `by`: the seat
        that chose c, -1 where the card did."""
        order = s.order
        i = order.index(c)
        j = min(max(i - k, 0), len(order) - 1)  # DRACO-MOVE-1 (forward: toward place 0), DRACO-MOVE-2
        if j != i:
            order.pop(i)
            order.insert(j, c)  # DRACO-MOVE-3: the others shift, keeping their order
        if s.tell is not None:
            s.tell(F.Moved(c, k, i, j, by))

    def _gain(self, s: State, p: int, amount: int) -> None:
        s.money[p] += amount
        s.bank -= amount
        if s.tell is not None:
            s.tell(F.Gained(p, amount))

    def _pay(self, s: State, p: int, amount: int) -> None:
        """Pay the bank what you can, up to `amount` (DRACO-WEALTH-3)."""
        paid = min(amount, s.money[p])
        s.money[p] -= paid
        s.bank += paid
        if s.tell is not None:
            s.tell(F.Paid(p, amount, paid))

    def controller(self, s: State, c: int) -> int:
        """The seat controlling character c, or -1 (Brother John, Zork, unclaimed Aunt Sarah)."""
        if c < 12:
            return c // 2  # DRACO-CHAR-2: the player of its colour
        return s.sarah_owner if c == C.AUNT_SARAH else -1  # DRACO-SARAH-1, DRACO-SARAH-2

    def richest(self, s: State) -> int:
        """The single richest player, or -1 on a tie for richest."""
        top = max(s.money)
        holders = [p for p, m in enumerate(s.money) if m == top]
        return holders[0] if len(holders) == 1 else -1  # DRACO-ZORK-3

    def toast_deltas(self, s: State) -> tuple[list[int], list[int]]:
        """What each seat receives and owes for a toast at this moment."""
        order, gains, costs = s.order, [0] * self.n, [0] * self.n
        for place, amount in enumerate(C.TOAST_GAINS):  # DRACO-TOAST-2
            c = order[place]
            if c == C.BROTHER_JOHN:  # he passes his share to the next place (DRACO-JOHN-1)
                c = order[place + 1]
            owner = -1 if c == C.ZORK else self.controller(s, c)  # Draco gives Zork nothing (DRACO-ZORK-1)
            if owner >= 0:  # DRACO-SARAH-1: unclaimed Aunt Sarah receives nothing
                gains[owner] += amount
            if s.tell is not None:
                s.tell(F.Share(place, order[place], c, amount, owner))
        last = len(order) - 1
        richest = self.richest(s)
        for place, amount in ((last, C.TOAST_CHARGES[0]), (last - 1, C.TOAST_CHARGES[1])):  # DRACO-TOAST-3
            c = order[place]
            if c == C.BROTHER_JOHN:  # the preceding character pays for him, if Zork or a player's (DRACO-JOHN-2)
                c = order[place - 1]
                payer = richest if c == C.ZORK else self.controller(s, c)  # DRACO-JOHN-3
            elif c == C.ZORK:  # the richest player pays double for Zork (DRACO-ZORK-2)
                payer, amount = richest, 2 * amount
            else:
                payer = self.controller(s, c)
            if payer >= 0:  # DRACO-ZORK-3, DRACO-JOHN-2, DRACO-SARAH-1: otherwise nobody pays
                costs[payer] += amount
            if s.tell is not None:
                s.tell(F.Charge(place, order[place], c, amount, payer))
        return gains, costs

    def _toast(self, s: State) -> None:
        p = s.turn
        final = s.exhausted >= self.ends_after  # the final toast (DRACO-END-2)
        if s.tell is not None:
            s.tell(F.Toasted(p, final))
        gains, costs = self.toast_deltas(s)
        for q in range(self.n):  # net amounts; whoever cannot pay pays what they can (DRACO-WEALTH-3)
            new = max(0, s.money[q] + gains[q] - costs[q])
            change = new - s.money[q]
            s.bank -= change
            s.money[q] = new
            if s.tell is not None:
                s.tell(F.Settled(q, gains[q] - costs[q], change))
        s.cup, s.cup_initial = p, False  # DRACO-CUP-1: the proposer takes the cup
        if s.tell is not None:
            s.tell(F.CupTaken(p))
        if final:
            s.phase = Phase.OVER
            s.winners = self.winners(s)  # DRACO-END-3
            if s.tell is not None:
                s.tell(F.GameOver())
            return
        i = s.order.index(C.AUNT_SARAH)  # DRACO-SARAH-3: claimed or not
        for j in (i - 1, i + 1):  # DRACO-TOAST-4: her neighbours' controllers draw; Draco is none (DRACO-DRACO-1)
            if 0 <= j < self.places and s.order[j] < 12:
                q = self.controller(s, s.order[j])
                s.draws.append(q)
                if s.tell is not None:
                    s.tell(F.BesideSarah(s.order[j], q))
        s.draws.append(p)  # DRACO-DRAW-1
        s.phase = Phase.DRAW

    def winners(self, s: State) -> list[int]:
        """Tied players eliminate each other; the richest untied player wins; else nobody."""
        for value in sorted(set(s.money), reverse=True):  # DRACO-END-3, DRACO-TIE-1
            holders = [p for p, m in enumerate(s.money) if m == value]
            if len(holders) == 1:
                return holders
        return []  # DRACO-TIE-2: all tied, Draco wins

    def returns(self, s: State) -> list[float]:
        if s.phase != Phase.OVER:
            return [0.0] * self.n
        return [1.0 if p in s.winners else -1.0 for p in range(self.n)]

    # Copies ---------------------------------------------------------------------------------

    # Text -----------------------------------------------------------------------------------

    def decision_name(self, s: State) -> str:
        ph = s.phase
        if ph == Phase.OVER:
            return "game over"
        if self.current_player(s) == CHANCE:
            if s.draws:
                return "chance: draw a card"
            return {Phase.FIRST_PLAYER: "chance: first player", Phase.CIRCLE: "chance: lay out the circle"}.get(
                ph, "chance: " + s.ask.name.lower()
            )
        if ph == Phase.PLAY:
            return f"player_{s.turn} plays an action card"
        if ph == Phase.TOAST:
            return f"player_{s.turn} may propose a toast"
        name = C.CATALOGUE[s.card].name
        what = {
            Ask.CHARACTER: "chooses a character",
            Ask.ORDER: "chooses the next character to move",
            Ask.DIRECTION: "chooses Draco's direction",
            Ask.PLAYER: "chooses a player",
            Ask.ARRANGE: "chooses the special for the next special place",
        }[s.ask]
        return f"player_{s.turn} {what} for {name}"

    def action_to_string(self, s: State, a: int) -> str:
        if self.current_player(s) == CHANCE:
            if s.draws:
                who = "removed" if s.draws[0] < 0 else f"player_{s.draws[0]}"
                return f"draw {C.CATALOGUE[a].name} -> {who}"
            if s.phase == Phase.FIRST_PLAYER:
                return f"first player: player_{a}"
            if s.phase == Phase.CIRCLE or s.ask == Ask.PLACE:
                return f"place {C.character_name(a)} at place {s.slots[0] + 1}"
            return f"die: {a + 1}"
        name, index = A.ACTIONS.decode(a)
        if name == "decline":
            return "no toast"
        if name == "toast":
            return "propose a toast"
        if name == "play":
            return f"play {C.CATALOGUE[index[0]].name}"
        if name == "character":
            c = A.absolute_character(index[0], max(s.turn, 0), self.n)
            return f"choose {C.character_name(c)}" if c in self.characters else f"choose character {index[0]}"
        if name == "player":
            return f"choose player_{(max(s.turn, 0) + 1 + index[0]) % self.n} (+{index[0] + 1})"
        return ("Draco: the first go last" if index[0] == 0 else "Draco: the last come first") + " (dragon)"

    def circle_to_string(self, s: State) -> str:
        parts = []
        for i, c in enumerate(s.order):
            if c < 0:
                parts.append(f"{i + 1}:?")
                continue
            owner = self.controller(s, c)
            parts.append(f"{i + 1}:{C.character_name(c)}" + (f"(p{owner})" if owner >= 0 else ""))
        return "Draco> " + " ".join(parts) + " <Draco"

    def state_to_string(self, s: State) -> str:
        lines = [
            f"turn {s.turns} {seat_name(s.turn, 'set-up')} | {self.decision_name(s)} | cup: "
            + ("centre" if s.cup < 0 else f"player_{s.cup}")
            + f" | draw pile {s.draw_pile.n} | exhausted {s.exhausted}/{self.ends_after}",
            self.circle_to_string(s),
            "money: " + " ".join(f"p{p}={m}" for p, m in enumerate(s.money)),
        ]
        for p in range(self.n):
            lines.append(f"p{p} hand: " + C.hand_to_string(s.hands[p]))
        if s.card >= 0:
            lines.append(f"resolving: {C.CATALOGUE[s.card].name} step {s.step + 1}")
        if s.phase == Phase.OVER:
            lines.append("winners: " + (", ".join(f"player_{p}" for p in s.winners) or "Draco (all lose)"))
        return "\n".join(lines)
