"""Drags 2 Riches rules: the transition system. Plain Python; knows nothing of PettingZoo or numpy.

Where something happens, the rules tell it (facts.py) to the state's sink, `s.tell`, when one is set
(narrate.py sets one on the copy it narrates); otherwise that costs one test of `s.tell`.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import game as core
from d2r_envs.core.game import CHANCE, TERMINAL, GameSpec
from d2r_envs.core.zones import Deck, deal_anew
from d2r_envs.core.words import seat_name
from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches import facts as F
from d2r_envs.games.drags_2_riches.config import Config
from d2r_envs.games.drags_2_riches.state import ASK_WORDS, Ask, Phase, State, Task

NAME = "drags_2_riches"
VERSION = 0
MAX_GAME_LENGTH = 6000  # player decisions; the adapter truncates beyond it


def recount(s: State) -> None:
    """Bring what is kept in step back in step after editing a state by hand: each Deck's size and
    card list (after changing its counts directly), prestige and the filled Look slots."""
    for deck in s.wardrobes + [s.pile]:
        deck.recount()
    s.prestige = [sum(C.EVENTS[e].prestige for e in won) for won in s.won]
    s.worn = [sum(1 << t for t, k in enumerate(look) if k >= 0) for look in s.looks]


class Game(core.Game[State]):
    def __init__(self, config: Config) -> None:
        self.config = config
        self.n = config.num_players
        self.stages = [0, 1] if config.intro_game else [0, 1, 2]  # D2R-SETUP-3 D2R-SETUP-4
        self.spec = GameSpec(
            name=NAME,
            version=VERSION,
            num_players=self.n,
            min_players=C.MIN_PLAYERS,
            max_players=C.MAX_PLAYERS,
            num_actions=A.ACTIONS.size,
            max_chance_outcomes=max(C.NUM_KINDS, C.MAX_PLAYERS, C.NUM_EVENTS),
            max_game_length=MAX_GAME_LENGTH,
            min_return=-1.0,
            max_return=1.0,
        )

    # Set-up ----------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        n = self.n
        deck = bytearray(C.NUM_KINDS)
        for k in C.STARTING_DECK:  # D2R-SETUP-1
            deck[k] += 1
        box = bytearray(C.NUM_KINDS)
        pile = bytearray(C.NUM_KINDS)
        for k, kind in enumerate(C.KINDS):  # D2R-COMP-1
            if kind.group == "wardrobe":
                pile[k] = kind.copies  # D2R-SETUP-2
            else:
                box[k] = kind.copies - n * deck[k]  # D2R-SETUP-1
        return State(
            num_players=n,
            hands=[bytearray(C.NUM_KINDS) for _ in range(n)],
            wardrobes=[Deck(deck) for _ in range(n)],  # D2R-SETUP-1
            floors=[bytearray(C.NUM_KINDS) for _ in range(n)],
            active=[bytearray(C.NUM_KINDS) for _ in range(n)],
            looks=[[-1] * C.NUM_TYPES for _ in range(n)],
            market=bytearray(C.NUM_KINDS),
            pile=Deck(pile),
            trash=bytearray(C.NUM_KINDS),
            box=box,
            decks=[list(d) for d in C.DECK_REGULARS],  # D2R-SETUP-3
            stages=list(self.stages),
            won=[[] for _ in range(n)],
            pending=[[] for _ in range(n)],
            peek=[-1] * n,
            peek_hand=[bytearray(C.NUM_KINDS) for _ in range(n)],
            characters=[-1] * n,
            used=[False] * n,
            bonus=[0] * n,
            ho=[False] * n,
            zeroed=[0] * n,
            doubled=[0] * n,
            thumbs=[-1] * n,
            last_values=[-1] * n,
            prestige=[0] * n,
            worn=[0] * n,
        )


    # Who acts ---------------------------------------------------------------------------------

    def current_player(self, s: State) -> int:
        if s.chance:
            return CHANCE
        ph = s.phase
        if ph == Phase.OVER:
            return TERMINAL
        if ph in (Phase.FIRST_PLAYER, Phase.REVEAL):
            return CHANCE
        return s.actor

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if s.chance:
            return self._chance_pile(s).outcomes()
        if s.phase == Phase.FIRST_PLAYER:
            return [(p, 1.0 / self.n) for p in range(self.n)]  # D2R-SETUP-5
        if s.phase == Phase.REVEAL:
            deck = sorted(s.decks[s.stages[s.stage]])
            return [(e, 1.0 / len(deck)) for e in deck]  # D2R-SETUP-3 D2R-ROUND-1
        raise ValueError("not a chance node")

    def _chance_pile(self, s: State) -> Deck:
        """What the due chance event draws from: a Wardrobe, the draw pile, or (a random discard)
        the hand, drawn from like a shuffled pile."""
        task, seat = s.chance[0]
        if task == Task.DRAW:
            return s.wardrobes[seat]
        if task == Task.MARKET:
            return s.pile
        return Deck(s.hands[seat])

    def sample_chance(self, s: State, rng: Any) -> int:
        u = rng.random()
        if s.chance:
            return self._chance_pile(s).kind_at(u)
        if s.phase == Phase.FIRST_PLAYER:
            return int(u * self.n)
        deck = sorted(s.decks[s.stages[s.stage]])
        return deck[int(u * len(deck))]

    def legal_actions(self, s: State) -> list[int]:
        if s.chance:
            return []
        ph = s.phase
        p = s.actor
        if ph == Phase.PLAY:  # built in segment order, so already sorted; D2R-PLAY-1
            held = C.kinds_in(s.hands[p])
            out = [A.END]
            out += [A.ACTIVATE + k for k in held]
            out += [A.WEAR + k for k in held if C.TYPE_OF[k] != C.NO_TYPE]  # D2R-PLAY-2
            out += self._buys(s)  # D2R-WERK-2
            if s.characters[p] >= 0 and self._can_use_ability(s, p):  # D2R-OPT-CHAR
                out.append(A.ABILITY)
            return out
        if ph == Phase.WERK:  # D2R-WERK-5
            return [A.END] + self._buys(s)
        if ph == Phase.CARD:
            return self._card_choices(s)
        if ph == Phase.REACT:
            return self.legal_reactions(s, p)
        if ph == Phase.LAST_MINUTE:  # adding only: into empty Look slots; D2R-OPT-LMA
            look = s.looks[p]
            return [A.END] + [A.WEAR + k for k in C.kinds_in(s.hands[p])
                              if C.TYPE_OF[k] != C.NO_TYPE and look[C.TYPE_OF[k]] < 0]
        if ph == Phase.THUMBS:  # D2R-EVENT-2
            out = [A.DOWN, A.UP]
            if self._has_unused(s, p, C.Character.GLAM_STOKER):  # D2R-CHAR-GLAM
                out.append(A.UP_GLAM)
            return out
        if ph == Phase.JUDGE:  # D2R-OPT-CATEGORY
            return sorted(A.WINNER + (q - p) % self.n for q in self._tied(s))
        if ph == Phase.CHARACTERS:  # D2R-OPT-CHAR
            taken = set(s.characters)
            return [A.CHARACTER + c for c in range(C.NUM_CHARACTERS) if c not in taken]
        return []

    def _buys(self, s: State) -> list[int]:  # D2R-WERK-2
        offered = C.kinds_in(s.market)
        out = [A.BUY + k for k in offered if C.VALUE[k] <= s.coins]
        if not out and self.config.thrifting and not s.bought and not s.thrifted and offered:  # D2R-OPT-THRIFT
            cheapest = min(C.VALUE[k] for k in offered)
            out = [A.BUY + k for k in offered if C.VALUE[k] == cheapest]
        return out

    def _sell_out(self, s: State) -> bool:
        return s.event == C.SELL_OUT

    def _has_unused(self, s: State, p: int, ch: int) -> bool:
        return s.characters[p] == ch and not s.used[p]

    def _can_use_ability(self, s: State, p: int) -> bool:  # D2R-OPT-CHAR
        ch = s.characters[p]
        if ch < 0 or s.used[p] or ch == C.Character.KELISHA_KEYS:
            return False
        if ch == C.Character.BI_FELICIA:
            return any(s.floors[p])
        if ch == C.Character.CATASTROPHOEBE:
            return any(s.market)
        return True

    def _can_reverse(self, s: State, p: int) -> bool:  # D2R-SHADE-5 D2R-CHAR-KELISHA
        return any(s.hands[p][k] for k in C.REVERSERS) or self._has_unused(s, p, C.Character.KELISHA_KEYS)

    def _card_choices(self, s: State) -> list[int]:
        ask, p = s.ask, s.actor
        others = [A.TARGET + k for k in range(self.n - 1)]
        if ask in (Ask.SHADE_TARGET, Ask.LEND_TARGET, Ask.SHESSICA_TARGET):
            return others
        if ask == Ask.BORROW:  # D2R-GLOSS-BORROW
            return [A.CARD + k for k in C.kinds_in(s.hands[s.victim])]
        if ask == Ask.RETURN:  # D2R-GLOSS-RETURN
            limit = C.KINDS[s.card].amount
            return [A.CARD + k for k in C.kinds_in(s.floors[p]) if C.VALUE[k] <= limit]
        if ask == Ask.LEND_CARD:  # D2R-GLOSS-LEND
            return [A.CARD + k for k in C.kinds_in(s.hands[p])]
        if ask == Ask.TRASH:  # D2R-CHAR-FELICIA
            return [A.CARD + k for k in C.kinds_in(s.floors[p])]
        if ask == Ask.TAKE:  # D2R-CHAR-CATASTROPHOEBE
            return [A.CARD + k for k in self._top_market(s)]
        return [A.LOOK_TYPE + t for t in range(C.NUM_TYPES)]  # KENYA_TYPE, SHESSICA_TYPE

    def _top_market(self, s: State) -> list[int]:  # D2R-CHAR-CATASTROPHOEBE
        kinds = C.kinds_in(s.market)
        top = max(C.VALUE[k] for k in kinds)
        return [k for k in kinds if C.VALUE[k] == top]

    def _tied(self, s: State) -> list[int]:  # D2R-EVENT-3
        values = s.last_values
        top = max(values)
        return [q for q in range(self.n) if values[q] == top and s.thumbs[q] >= 1]

    # Transitions ------------------------------------------------------------------------------

    def apply_legal(self, s: State, action: int) -> None:
        if s.chance:
            self._apply_task(s, action)
        elif s.phase == Phase.FIRST_PLAYER:
            s.first = action  # D2R-SETUP-5
            if s.tell is not None:
                s.tell(F.FirstPlayer(action))
            if self.config.characters:  # D2R-OPT-CHAR
                s.phase, s.actor = Phase.CHARACTERS, action
            else:
                self._setup_market(s)
        elif s.phase == Phase.REVEAL:
            s.decks[s.stages[s.stage]].remove(action)  # D2R-ROUND-1
            self._reveal(s, action)
        else:
            self._apply_decision(s, action)
        self._advance(s)

    def _setup_market(self, s: State) -> None:
        s.chance += [(Task.MARKET, -1)] * C.MARKET_SIZE  # D2R-SETUP-2
        self._start_round(s)  # the Event is revealed once the Market is full

    def _apply_task(self, s: State, k: int) -> None:
        task, seat = s.chance.pop(0)
        if task == Task.DRAW:
            s.wardrobes[seat].take(k)
            s.hands[seat][k] += 1
            self._hand_hidden_change(s, seat)
            if s.tell is not None:
                s.tell(F.Drew(seat, k))
        elif task == Task.MARKET:
            s.pile.take(k)
            s.market[k] += 1
            if s.tell is not None:
                s.tell(F.MarketFilled(k))
        else:  # DISCARD at random; D2R-GLOSS-DISCARD
            s.hands[seat][k] -= 1
            s.floors[seat][k] += 1
            self._hand_public_change(s, seat, k)
            if s.tell is not None:
                s.tell(F.DiscardedAtRandom(seat, k))
        self._normalise_chance(s)

    def _normalise_chance(self, s: State) -> None:
        """Drop due chance events that cannot happen; Dry Clean an empty Wardrobe before a draw."""
        while s.chance:
            task, seat = s.chance[0]
            if task == Task.DRAW:
                wardrobe = s.wardrobes[seat]
                if wardrobe.n:
                    return
                # Dry Clean: only now, with the Wardrobe empty; D2R-UNTUCK-2 D2R-UNTUCK-3 D2R-GLOSS-DRAW
                wardrobe.refill(s.floors[seat])
                s.floors[seat] = bytearray(C.NUM_KINDS)
                if wardrobe.n:
                    if s.tell is not None:
                        s.tell(F.DryCleaned(seat))
                    return
                if s.tell is not None:  # nothing to draw: the draw is dropped
                    s.tell(F.DrawDropped(seat))
            elif task == Task.MARKET:
                if s.pile.n:
                    return
            elif any(s.hands[seat]):
                return
            s.chance.pop(0)

    def _hand_hidden_change(self, s: State, seat: int) -> None:  # D2R-HIDDEN-2
        """The seat's hand changed in a way others do not see: Peeks at it are out of date."""
        if seat not in s.peek:
            return
        for p in range(self.n):
            if s.peek[p] == seat:
                s.peek[p] = -1
                s.peek_hand[p] = bytearray(C.NUM_KINDS)

    def _hand_public_change(self, s: State, seat: int, k: int, by: int = -1) -> None:  # D2R-HIDDEN-2
        """A card of kind k left the seat's hand face up (by = -1) or joined it (by = +1):
        what Peeks showed stays in step."""
        if seat not in s.peek:
            return
        for p in range(self.n):
            if s.peek[p] == seat:
                s.peek_hand[p][k] += by

    def _reveal(self, s: State, event: int) -> None:  # D2R-ROUND-1
        s.event = event
        s.round += 1
        if s.round == 1:  # the first hands; D2R-ROUND-2
            s.chance += [(Task.DRAW, (s.first + i) % self.n) for i in range(self.n) for _ in range(C.HAND_SIZE)]
            if s.tell is not None:
                s.tell(F.RoundBegan(s.round, event))
            self._normalise_chance(s)
            s.phase = Phase.DEAL
        else:
            if s.tell is not None:
                s.tell(F.RoundBegan(s.round, event))
            self._start_turn(s, s.first)  # D2R-ROUND-3

    def _start_round(self, s: State) -> None:  # D2R-ROUND-1
        deck = s.decks[s.stages[s.stage]]
        if deck:
            s.phase = Phase.REVEAL
            return
        special = C.DECK_SPECIAL[s.stages[s.stage]]  # D2R-SETUP-3
        if self.config.intro_game and s.stage == len(s.stages) - 1:  # D2R-SETUP-4 D2R-DECIDE-INTRO
            special = C.SELL_OUT  # the intro game ends with the Sell-Out Tour at the bottom of deck II
        s.stage += 1
        self._reveal(s, special)

    def _start_turn(self, s: State, p: int) -> None:  # D2R-ROUND-3
        s.turn = s.actor = p
        s.coins, s.bought, s.thrifted = 0, False, False
        s.phase = Phase.PLAY
        if C.EVENTS[s.event].kind == C.EventKind.SPREE:  # D2R-SPREE-1
            s.chance += [(Task.DRAW, p)] * C.SPREE_EXTRA
            if s.tell is not None:
                s.tell(F.TurnBegan(p))
            self._normalise_chance(s)
        elif s.tell is not None:
            s.tell(F.TurnBegan(p))

    def _advance(self, s: State) -> None:
        """Move on through steps that need no decision and no chance."""
        while not s.chance:
            ph = s.phase
            if ph == Phase.DEAL:
                self._start_turn(s, s.first)
            elif ph == Phase.UNTUCK:
                p = s.turn
                if s.pending[p] and any(s.hands[p]):  # D2R-SHADE-6
                    op, beneficiary = s.pending[p].pop(0)
                    if s.tell is not None:
                        s.tell(F.WaitingShadeResolves(p, op, beneficiary))
                    self._shade_effect(s, op, p, beneficiary, reversed_=False)
                    continue
                if s.tell is not None and s.pending[p]:  # the new hand is empty
                    s.tell(F.WaitingShadesDropped(p, len(s.pending[p])))
                s.pending[p] = []
                nxt = (p + 1) % self.n  # D2R-ROUND-3
                if nxt == s.first:
                    self._end_of_turns(s)
                else:
                    self._start_turn(s, nxt)
            elif ph == Phase.LAST_MINUTE:
                if self.legal_actions(s) == [A.END]:  # nothing to add to the Look: skip
                    self._next_last_minute(s)
                else:
                    return
            else:
                return

    # Decisions --------------------------------------------------------------------------------

    def _apply_decision(self, s: State, a: int) -> None:
        ph = s.phase
        p = s.actor
        if ph == Phase.PLAY or ph == Phase.WERK:
            if a == A.END:
                self._untuck(s)
            elif a < A.WEAR:
                self._activate(s, p, a - A.ACTIVATE)
            elif a < A.BUY:
                self._wear(s, p, a - A.WEAR)
            elif a < A.ABILITY:
                self._buy(s, p, a - A.BUY)
            else:
                self._ability(s, p)
        elif ph == Phase.CHARACTERS:
            s.characters[p] = a - A.CHARACTER  # D2R-OPT-CHAR
            if s.tell is not None:
                s.tell(F.CharacterChosen(p, a - A.CHARACTER))
            nxt = (p + 1) % self.n
            if nxt == s.first:
                self._setup_market(s)
            else:
                s.actor = nxt
        elif ph == Phase.CARD:
            self._answer(s, p, a)
        elif ph == Phase.REACT:
            self._react(s, p, a)
        elif ph == Phase.LAST_MINUTE:
            if a == A.END:
                if s.tell is not None:
                    s.tell(F.DoneAdding(p))
                self._next_last_minute(s)
            else:
                self._wear(s, p, a - A.WEAR)
        elif ph == Phase.THUMBS:
            s.thumbs[p] = a - A.THUMBS  # D2R-EVENT-2
            if s.tell is not None:
                s.tell(F.Declared(p, a - A.THUMBS))
            self._next_thumbs(s)
        elif ph == Phase.JUDGE:
            winner = (p + a - A.WINNER) % self.n  # D2R-OPT-CATEGORY
            if s.tell is not None:
                s.tell(F.Judged(p, winner))
            self._award(s, winner)

    def _activate(self, s: State, p: int, k: int) -> None:  # D2R-PLAY-1
        kind = C.KINDS[k]
        s.hands[p][k] -= 1
        s.active[p][k] += 1
        self._hand_public_change(s, p, k)
        s.coins += kind.coins  # D2R-WERK-1 D2R-SHADE-3
        s.card = k
        op = kind.op  # D2R-PLAY-5
        if op == C.Op.DRAW:  # D2R-GLOSS-DRAW
            s.chance += [(Task.DRAW, p)] * kind.amount
            if s.tell is not None:
                s.tell(F.Activated(p, k))
            self._normalise_chance(s)
            return
        if op == C.Op.RETURN:  # D2R-GLOSS-RETURN
            if any(C.VALUE[j] <= kind.amount for j in C.kinds_in(s.floors[p])):
                self._ask(s, p, Ask.RETURN)
        elif op == C.Op.LEND:  # D2R-GLOSS-LEND
            if any(s.hands[p]):
                self._ask(s, p, Ask.LEND_CARD)
        elif op in C.SHADE_OPS:  # D2R-SHADE-1
            self._ask(s, p, Ask.SHADE_TARGET)
        if s.tell is not None:
            s.tell(F.Activated(p, k))

    def _ask(self, s: State, p: int, ask: int) -> None:
        if s.phase != Phase.CARD and s.phase != Phase.REACT:
            s.home = s.phase
        s.phase, s.ask, s.actor = Phase.CARD, ask, p

    def _done(self, s: State) -> None:
        """A card, Character action or reversed Shade is fully resolved: back where it started."""
        s.phase, s.ask = s.home, Ask.NONE
        s.actor = s.turn
        s.target = s.victim = s.picked = -1
        s.chosen_type = -1

    def _wear(self, s: State, p: int, k: int) -> None:  # D2R-PLAY-1 D2R-PLAY-6: no action, no coins
        t = C.TYPE_OF[k]
        old = s.looks[p][t]
        if old >= 0:  # replaced: the old card goes to the Floordrobe, face up; D2R-PLAY-4
            s.floors[p][old] += 1
        s.looks[p][t] = k  # D2R-PLAY-3
        s.worn[p] |= 1 << t
        s.hands[p][k] -= 1
        self._hand_hidden_change(s, p)
        if s.tell is not None:
            s.tell(F.Worn(p, k, old))

    def _buy(self, s: State, p: int, k: int) -> None:  # D2R-WERK-2
        free = C.VALUE[k] > s.coins
        if free:  # Thrifting; D2R-OPT-THRIFT
            s.thrifted = True
        else:  # D2R-WERK-2
            s.coins -= C.VALUE[k]
        s.bought = True
        s.market[k] -= 1
        werk = False
        if self._sell_out(s):  # purchases can be played this round; D2R-SELLOUT-1 D2R-DECIDE-SELLOUT
            s.hands[p][k] += 1
            self._hand_public_change(s, p, k, by=1)
        else:
            s.floors[p][k] += 1  # D2R-WERK-4
            werk = s.phase == Phase.PLAY
            s.phase = Phase.WERK  # D2R-WERK-5
        s.chance.append((Task.MARKET, -1))  # D2R-WERK-3
        self._normalise_chance(s)
        if s.tell is not None:
            s.tell(F.Bought(p, k, free, werk))

    def _ability(self, s: State, p: int) -> None:  # D2R-OPT-CHAR
        ch = s.characters[p]
        s.used[p] = True  # D2R-OPT-CHAR: once per game
        s.card = -1
        took = -1
        if ch == C.Character.HO_COUTURE:  # D2R-CHAR-HO
            s.ho[p] = True
        elif ch == C.Character.GLAM_STOKER:  # D2R-CHAR-GLAM
            s.bonus[p] += C.GLAM_BONUS
        elif ch == C.Character.KENYA_FEELIT:  # D2R-CHAR-KENYA
            self._ask(s, p, Ask.KENYA_TYPE)
        elif ch == C.Character.BI_FELICIA:  # D2R-CHAR-FELICIA
            s.left = C.FELICIA_TRASH
            self._ask(s, p, Ask.TRASH)
        elif ch == C.Character.CATASTROPHOEBE:  # D2R-CHAR-CATASTROPHOEBE
            top = self._top_market(s)
            if len(top) == 1:
                took = top[0]
                self._take(s, p, took)
            else:
                self._ask(s, p, Ask.TAKE)
        elif ch == C.Character.SHESSICA:  # D2R-CHAR-SHESSICA
            self._ask(s, p, Ask.SHESSICA_TYPE)
        elif ch == C.Character.CHEEKS_ILLUSTRA:  # D2R-CHAR-CHEEKS
            s.chance += [(Task.DRAW, p)] * C.CHEEKS_DRAW
            if s.tell is not None:
                s.tell(F.AbilityUsed(p, ch, took))
            self._normalise_chance(s)
            return
        if s.tell is not None:
            s.tell(F.AbilityUsed(p, ch, took))

    def _take(self, s: State, p: int, k: int) -> None:
        s.market[k] -= 1
        s.floors[p][k] += 1
        s.chance.append((Task.MARKET, -1))  # D2R-WERK-3
        self._normalise_chance(s)

    def _answer(self, s: State, p: int, a: int) -> None:
        ask = s.ask
        other = (p + 1 + a - A.TARGET) % self.n
        k = a - A.CARD
        t = a - A.LOOK_TYPE
        if ask == Ask.SHADE_TARGET:  # D2R-SHADE-1
            s.target = other
            # The target is always asked, even with nothing to show, so that being asked tells
            # the table nothing about their hand.
            s.phase, s.actor = Phase.REACT, other
            if s.tell is not None:
                s.tell(F.Targeted(p, other))
        elif ask == Ask.BORROW:  # D2R-GLOSS-BORROW
            victim = s.victim
            s.hands[victim][k] -= 1
            s.floors[p][k] += 1
            self._hand_public_change(s, victim, k)
            if s.tell is not None:
                s.tell(F.Borrowed(p, victim, k))
            self._done(s)
        elif ask == Ask.RETURN:  # D2R-GLOSS-RETURN
            s.floors[p][k] -= 1
            s.hands[p][k] += 1
            self._hand_public_change(s, p, k, by=1)
            if s.tell is not None:
                s.tell(F.Returned(p, k))
            self._done(s)
        elif ask == Ask.LEND_CARD:
            s.picked = k
            s.ask = Ask.LEND_TARGET
            if s.tell is not None:
                s.tell(F.PickedToLend(p, k))
        elif ask == Ask.LEND_TARGET:  # D2R-GLOSS-LEND
            s.hands[p][s.picked] -= 1
            s.floors[other][s.picked] += 1
            self._hand_public_change(s, p, s.picked)
            if s.tell is not None:
                s.tell(F.Lent(p, other, s.picked))
            self._done(s)
        elif ask == Ask.TRASH:  # D2R-CHAR-FELICIA D2R-GLOSS-TRASH
            s.floors[p][k] -= 1
            s.trash[k] += 1
            s.left -= 1
            if s.left == 0 or not any(s.floors[p]):
                s.left = 0
                self._done(s)
            if s.tell is not None:
                s.tell(F.Trashed(p, k))
        elif ask == Ask.TAKE:  # D2R-CHAR-CATASTROPHOEBE
            self._done(s)
            self._take(s, p, k)
            if s.tell is not None:
                s.tell(F.TookFromMarket(p, k))
        elif ask == Ask.KENYA_TYPE:  # D2R-CHAR-KENYA
            for q in range(self.n):
                if q != p:
                    s.zeroed[q] |= 1 << t
            if s.tell is not None:
                s.tell(F.Zeroed(p, t))
            self._done(s)
        elif ask == Ask.SHESSICA_TYPE:
            s.chosen_type = t
            s.ask = Ask.SHESSICA_TARGET
            if s.tell is not None:
                s.tell(F.TypeChosen(p, t))
        elif ask == Ask.SHESSICA_TARGET:  # D2R-CHAR-SHESSICA
            s.doubled[p] |= 1 << s.chosen_type
            s.doubled[other] |= 1 << s.chosen_type
            if s.tell is not None:
                s.tell(F.Doubled(p, other, s.chosen_type))
            self._done(s)

    def legal_reactions(self, s: State, p: int) -> list[int]:
        out = [A.TAKE]
        if any(s.hands[p][k] for k in C.BLOCKERS):  # D2R-SHADE-2
            out.append(A.BLOCK)
        if self._can_reverse(s, p):  # D2R-SHADE-5
            out.append(A.REVERSE)
        return out

    def _react(self, s: State, p: int, a: int) -> None:
        attacker = s.turn
        op = C.KINDS[s.card].op
        if a == A.TAKE:  # D2R-SHADE-4
            if s.tell is not None:
                s.tell(F.ShadeTaken(p))
            self._shade_effect(s, op, p, attacker, reversed_=False)
        elif a == A.BLOCK:  # the Block Shade card is shown and stays in the hand; D2R-SHADE-2 D2R-DECIDE-REACT
            if s.tell is not None:
                s.tell(F.ShadeBlocked(p))
            self._done(s)
        else:  # D2R-SHADE-5 D2R-DECIDE-REACT: the card stays in the hand
            kelisha = not any(s.hands[p][k] for k in C.REVERSERS)
            if kelisha:
                s.used[p] = True  # Kelisha Keys: All Tea No Shade; D2R-CHAR-KELISHA
            if s.tell is not None:
                s.tell(F.ShadeReversed(p, kelisha))
            self._shade_effect(s, op, attacker, p, reversed_=True)

    def _shade_effect(self, s: State, op: int, victim: int, beneficiary: int, reversed_: bool) -> None:
        """The Shade hits `victim` for `beneficiary`; a reversed Shade on an empty hand waits for
        the victim's next hand."""
        if not any(s.hands[victim]):
            if reversed_:  # D2R-SHADE-6
                s.pending[victim].append((int(op), beneficiary))
                if s.tell is not None:
                    s.tell(F.ShadeWaits(victim))
            if s.phase in (Phase.CARD, Phase.REACT):
                self._done(s)
            return
        if op == C.Op.DISCARD:  # D2R-GLOSS-DISCARD
            if s.phase in (Phase.CARD, Phase.REACT):
                self._done(s)
            s.chance.append((Task.DISCARD, victim))
        else:  # PEEK_BORROW: the beneficiary sees the hand, then borrows one of those cards
            s.peek[beneficiary] = victim  # D2R-GLOSS-PEEK D2R-HIDDEN-2
            s.peek_hand[beneficiary] = s.hands[victim][:]
            if s.phase not in (Phase.CARD, Phase.REACT):
                s.home = s.phase  # a reversed Shade resolved after Untucking
            s.phase, s.ask, s.actor = Phase.CARD, Ask.BORROW, beneficiary  # D2R-GLOSS-BORROW D2R-DECIDE-REACT
            s.victim = victim
            if s.tell is not None:
                s.tell(F.Peeked(beneficiary, victim))

    def _untuck(self, s: State) -> None:  # D2R-UNTUCK-4: the Look stays
        p = s.turn
        floor = s.floors[p]
        hand, active, coins = s.hands[p], s.active[p], s.coins
        for pile in (hand, active):  # D2R-UNTUCK-1 D2R-PLAY-1
            for k in C.kinds_in(pile):
                floor[k] += pile[k]
        s.hands[p] = bytearray(C.NUM_KINDS)
        s.active[p] = bytearray(C.NUM_KINDS)
        s.coins = 0
        s.card = -1
        s.phase = Phase.UNTUCK
        s.home = Phase.UNTUCK
        self._hand_hidden_change(s, p)
        s.chance += [(Task.DRAW, p)] * C.HAND_SIZE  # D2R-UNTUCK-2
        if s.tell is not None:
            s.tell(F.Untucked(p, coins, hand, active))
        self._normalise_chance(s)

    # End of the round -------------------------------------------------------------------------

    def _end_of_turns(self, s: State) -> None:
        s.turn = -1
        s.home = Phase.PLAY
        if C.EVENTS[s.event].kind == C.EventKind.SPREE:  # no Event Phase; D2R-SPREE-1
            s.gone.append(s.event)
            if s.tell is not None:
                s.tell(F.SpreeOver())
            self._end_round(s)
            return
        if self.config.last_minute_additions:  # D2R-OPT-LMA
            s.phase, s.actor = Phase.LAST_MINUTE, s.first
            s.turn = s.first
            if s.tell is not None:
                s.tell(F.LastMinuteBegan())
            return
        self._start_thumbs(s)

    def _next_last_minute(self, s: State) -> None:  # D2R-OPT-LMA
        nxt = (s.actor + 1) % self.n
        if nxt == s.first:
            if s.tell is not None:
                s.tell(F.LastMinuteOver())
            self._start_thumbs(s)
        else:
            s.actor = s.turn = nxt

    def _competitors_in_order(self, s: State) -> list[int]:
        order = [(s.first + i) % self.n for i in range(self.n)]
        return [q for q in order if s.worn[q]]  # D2R-EVENT-1

    def _start_thumbs(self, s: State) -> None:
        s.turn = -1
        s.thumbs = [-1] * self.n
        s.last_values = [-1] * self.n
        able = self._competitors_in_order(s)
        if not able:  # nobody can compete: the Event is trashed; D2R-EVENT-1 D2R-EVENT-7
            s.gone.append(s.event)
            if s.tell is not None:
                s.tell(F.EventTrashed(s.event, False))
            self._end_round(s)
            return
        s.phase, s.actor = Phase.THUMBS, able[0]
        if s.tell is not None:
            s.tell(F.ThumbsBegan(tuple(able)))

    def _next_thumbs(self, s: State) -> None:
        for q in self._competitors_in_order(s):
            if s.thumbs[q] < 0:
                s.actor = q
                return
        self._reveal_looks(s)  # D2R-EVENT-2: once all have chosen

    def look_value(self, s: State, p: int, glam: bool = False) -> int:  # D2R-EVENT-3 D2R-EVENT-8
        total = 0
        for t, k in enumerate(s.looks[p]):
            if k < 0:
                continue
            if s.zeroed[p] >> t & 1:
                continue  # Sickening: worth 0, whatever else applies; D2R-CHAR-KENYA
            v = C.VALUE[k]
            if s.doubled[p] >> t & 1:  # D2R-CHAR-SHESSICA
                v *= 2
            if s.ho[p]:  # D2R-CHAR-HO
                v += C.HO_BONUS
            total += v
        return total + s.bonus[p] + (C.GLAM_BONUS if glam else 0)  # D2R-CHAR-GLAM

    def _reveal_looks(self, s: State) -> None:  # D2R-EVENT-3
        if s.tell is not None:
            s.tell(F.ThumbsShown())
        up = [q for q in range(self.n) if s.thumbs[q] >= 1]
        if not up:  # nobody competes: the Event is trashed; D2R-EVENT-7
            s.gone.append(s.event)
            if s.tell is not None:
                s.tell(F.EventTrashed(s.event, True))
            self._end_round(s)
            return
        for q in up:
            glam = s.thumbs[q] == 2  # D2R-CHAR-GLAM
            if glam:
                s.used[q] = True
            s.last_values[q] = self.look_value(s, q, glam)
        tied = self._tied(s)
        if len(tied) == 1:  # D2R-EVENT-3
            winner = tied[0]
        elif self.config.category_is:  # D2R-EVENT-4 D2R-OPT-CATEGORY
            s.phase, s.actor = Phase.JUDGE, s.first
            winner = -1
        else:  # ties go to the tied player nearest the first player, in seat order from them
            winner = min(tied, key=lambda q: (q - s.first) % self.n)  # D2R-EVENT-4 D2R-DECIDE-TIE
        if s.tell is not None:
            s.tell(F.LooksRevealed(tuple(tied), winner))
        if winner >= 0:
            self._award(s, winner)

    def _award(self, s: State, winner: int) -> None:
        s.won[winner].append(s.event)
        s.prestige[winner] += C.EVENTS[s.event].prestige
        if s.tell is not None:
            s.tell(F.Won(winner, s.event))
        for q in range(self.n):  # every revealed Look is discarded; D2R-EVENT-5
            if s.thumbs[q] >= 1:  # D2R-EVENT-6: the others keep theirs
                for t, k in enumerate(s.looks[q]):
                    if k >= 0:
                        s.floors[q][k] += 1
                        s.looks[q][t] = -1
                s.worn[q] = 0
        self._end_round(s)

    def _end_round(self, s: State) -> None:
        s.bonus = [0] * self.n
        s.ho = [False] * self.n
        s.zeroed = [0] * self.n
        s.doubled = [0] * self.n
        s.turn = -1
        if s.event == C.SELL_OUT:  # D2R-END-1
            s.phase = Phase.OVER
            s.actor = -1
            s.winners = self.winners(s)
            if s.tell is not None:
                s.tell(F.GameOver())
            return
        s.first = (s.first + 1) % self.n  # the token passes left; D2R-ROUND-4
        if s.tell is not None:
            s.tell(F.FirstPassed(s.first))
        self._start_round(s)

    def prestige(self, s: State, p: int) -> int:
        return s.prestige[p]

    def winners(self, s: State) -> list[int]:  # D2R-END-2
        """Highest prestige; ties go to more Event cards; still tied: joint winners."""
        best = max((self.prestige(s, p), len(s.won[p])) for p in range(self.n))
        return [p for p in range(self.n) if (self.prestige(s, p), len(s.won[p])) == best]

    def returns(self, s: State) -> list[float]:
        if s.phase != Phase.OVER:
            return [0.0] * self.n
        return [1.0 if p in s.winners else -1.0 for p in range(self.n)]

    # Copies ---------------------------------------------------------------------------------

    def redeterminise(self, s: State, player: int, rng: Any) -> State:  # D2R-HIDDEN-1
        """A copy in which what `player` cannot see is dealt anew.

        Every card entering or leaving another player's hand, Wardrobe and Look does so face up,
        so the contents of the three together are known; how they split between them is not
        (except a hand a still-valid Peek showed). Each is dealt anew with the same sizes, the
        Look by slot type. During the Event Phase, the thumbs the others have declared (hidden until
        everyone has chosen) are drawn anew among their options.
        """
        t = self.clone(s)
        for q in range(self.n):
            if q == player:
                continue
            hand_known = s.peek[player] == q
            pool = [0] * C.NUM_KINDS
            for zone in ([] if hand_known else [t.hands[q]]) + [t.wardrobes[q]]:
                for k in range(C.NUM_KINDS):
                    pool[k] += zone[k]
            for k in t.looks[q]:
                if k >= 0:
                    pool[k] += 1
            cards = [k for k in range(C.NUM_KINDS) for _ in range(pool[k])]
            # The Look first: a random card of the slot's type for each filled slot.
            for slot, k in enumerate(t.looks[q]):
                if k < 0:
                    continue
                fits = [i for i, c in enumerate(cards) if C.TYPE_OF[c] == slot]
                t.looks[q][slot] = cards.pop(fits[int(rng.integers(len(fits)))])
            deal_anew(([] if hand_known else [t.hands[q]]) + [t.wardrobes[q]], rng, pool=cards)
            if t.thumbs[q] >= 0 and s.phase == Phase.THUMBS:  # D2R-EVENT-2
                options = 3 if self._has_unused(t, q, C.Character.GLAM_STOKER) else 2
                t.thumbs[q] = int(rng.integers(options))
        for q in range(self.n):  # others' Peeks show the hands as dealt anew
            if q != player and t.peek[q] >= 0:
                t.peek_hand[q] = t.hands[t.peek[q]][:]
        return t

    # Text -----------------------------------------------------------------------------------

    def decision_name(self, s: State) -> str:
        ph = s.phase
        if ph == Phase.OVER:
            return "game over"
        if s.chance:
            task, seat = s.chance[0]
            if task == Task.DRAW:
                return f"chance: player_{seat} draws"
            if task == Task.MARKET:
                return "chance: refill the Market"
            return f"chance: player_{seat} discards at random"
        if ph == Phase.FIRST_PLAYER:
            return "chance: first player"
        if ph == Phase.REVEAL:
            return "chance: reveal the Event"
        p = f"player_{s.actor}"
        if ph == Phase.CARD:
            if s.card >= 0:
                what = C.KINDS[s.card].name
            elif s.ask == Ask.BORROW:  # a reversed Shade that waited for the new hand
                what = "a reversed Shade"
            else:
                what = C.CHARACTERS[s.characters[s.turn]][1]
            return f"{p} {ASK_WORDS[s.ask]} for {what}"
        return p + " " + {
            Phase.CHARACTERS: "chooses a Character",
            Phase.PLAY: "plays cards (Playing Phase)",
            Phase.WERK: "buys cards (Werk Phase)",
            Phase.REACT: "is targeted by Shade",
            Phase.LAST_MINUTE: "may add to their Look (Last Minute Additions)",
            Phase.THUMBS: "declares thumbs up or down",
            Phase.JUDGE: "judges the tie (Category Is)",
        }[ph]

    def action_to_string(self, s: State, a: int) -> str:
        if self.current_player(s) == CHANCE:
            if s.chance:
                task, seat = s.chance[0]
                name = C.KINDS[a].name
                if task == Task.DRAW:
                    return f"player_{seat} draws {name}"
                if task == Task.MARKET:
                    return f"Market: {name}"
                return f"player_{seat} discards {name} at random"
            if s.phase == Phase.FIRST_PLAYER:
                return f"first player: player_{a}"
            return f"Event: {C.EVENTS[a].name} ({C.EVENTS[a].prestige})"
        seg, index = A.ACTIONS.decode(a)
        i = index[0] if index else 0
        me = max(s.actor, 0)
        if seg == "end":
            return "end"
        if seg in ("activate", "wear", "buy", "card"):
            return f"{seg} {C.KINDS[i].name}"
        if seg == "ability":
            ch = s.characters[me]
            return "use " + (f"{C.CHARACTERS[ch][0]}: {C.CHARACTERS[ch][1]}" if ch >= 0 else "Character")
        if seg == "thumbs":
            return ("thumbs down", "thumbs up", "thumbs up + Deathdrop Diva")[i]
        if seg == "react":
            return ("take the Shade", "Block Shade", "Reverse Shade")[i]
        if seg == "target":
            return f"player_{(me + 1 + i) % self.n} (+{i + 1})"
        if seg == "look_type":
            return f"type {C.TYPES[i]}"
        if seg == "character":
            return f"choose {C.CHARACTERS[i][0]}"
        return f"winner player_{(me + i) % self.n}"

    def state_to_string(self, s: State) -> str:
        ev = C.EVENTS[s.event] if s.event >= 0 else None
        lines = [
            f"round {s.round} | event: " + (f"{ev.name} ({ev.prestige})" if ev else "-")
            + f" | first {seat_name(s.first, 'player not drawn yet')} | {self.decision_name(s)} | coins {s.coins}",
            "market: " + C.counts_to_string(s.market) + f" | draw pile {sum(s.pile)}",
        ]
        for p in range(self.n):
            look = ", ".join(C.KINDS[k].name for k in s.looks[p] if k >= 0) or "-"
            ch = f" | {C.CHARACTERS[s.characters[p]][0]}{' (used)' if s.used[p] else ''}" if s.characters[p] >= 0 else ""
            lines.append(
                f"p{p}: prestige {self.prestige(s, p)} ({len(s.won[p])} events){ch} | look: {look}"
                f" | hand: {C.counts_to_string(s.hands[p])} | wardrobe {sum(s.wardrobes[p])}"
                f" | floordrobe {sum(s.floors[p])}"
            )
        if s.phase == Phase.OVER:
            lines.append("winners: " + ", ".join(f"player_{p}" for p in s.winners))
        return "\n".join(lines)
