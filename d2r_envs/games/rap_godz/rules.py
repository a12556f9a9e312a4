"""Rap Godz rules: the transition system. Plain Python; knows nothing of PettingZoo or numpy.

Where something happens, the rules tell it (facts.py) to the state's sink, `s.tell`, when one is set
(narrate.py sets one on the copy it narrates); otherwise that costs one test of `s.tell`.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from d2r_envs.core import game as core
from d2r_envs.core.game import CHANCE, TERMINAL, GameSpec
from d2r_envs.core.zones import Deck, card_count
from d2r_envs.core.words import seat_name
from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import facts as F
from d2r_envs.games.rap_godz.cards import Ability as Ab
from d2r_envs.games.rap_godz.cards import Goal as G
from d2r_envs.games.rap_godz.config import Config
from d2r_envs.games.rap_godz.state import Phase, State, Task

NAME = "rap_godz"
VERSION = 3
MAX_GAME_LENGTH = 3000  # player decisions; the adapter truncates beyond it (a game takes about 300)

_RAPPER_KINDS = range(C.RAPPER_FIRST, C.CITY_FIRST)
_CITY_KINDS = range(C.CITY_FIRST, C.NUM_KINDS)
_PLAY_KINDS = range(C.NUM_PLAY)
_LOCK = [c.lock for c in C.CARDS]
_COLOUR_OF = [c.colour for c in C.CARDS]
_ICONS_OF = [c.icons for c in C.CARDS]
_SEGMENTS = [A.ACTIONS.decode(a) for a in range(A.ACTIONS.size)]  # action -> (segment, index)
_DECKED = (Task.RAPPER, Task.CITY, Task.EXTRA_CITY, Task.COME, Task.DRAW)
_ANY = bytes([0] + [1] * 255)  # bytes.translate: a count -> 1 where any


def _unlocked(r: int) -> list[int]:
    """Per amount x of resource r, the card kinds whose lock x does not fail (a byte each, 1: met; kinds
    locked on another resource or not at all count as met), as one big-endian integer."""
    rows = []
    for x in range(C.TRACK_MAX + 1):
        row = bytes(0 if lock and lock[0] == r and x < lock[1] else 1 for lock in _LOCK[:C.NUM_PLAY])
        rows.append(int.from_bytes(row, "big"))
    return rows


_UNLOCKED = [_unlocked(r) for r in range(C.NUM_RES)]  # AND the three: the kinds p's resources unlock
_ABILITY = {-1: -1} | {k: C.RAPPERZ[k - C.RAPPER_FIRST].ability for k in _RAPPER_KINDS}  # a kept Rapper (-1: none)


def greedy_plaques(value: int, supply: list[int]) -> tuple[list[int], int]:
    """The plaques (Bronze, Gold, Platinum) the supply makes for `value`, largest first, and the points
    it cannot make (the denominations divide each other, so largest-first leaves the least);
    RG-DECIDE-PLAQUES."""
    take = [0, 0, 0]
    for i in (2, 1, 0):
        v = C.PLAQUE_VALUES[i]
        take[i] = min(value // v, supply[i])
        value -= take[i] * v
    return take, value


def beef_resources(res: list[int], stake: int) -> list[int]:
    """What a Beef loser with resources `res` gives (Streetz, Skillz, Swag): `stake` resources in all,
    one at a time from whichever is highest then (the first of the tied in track order), as far as they
    have them; RG-DATA-BEEF."""
    left, taken = list(res), [0, 0, 0]
    for _ in range(stake):
        r = max(range(C.NUM_RES), key=left.__getitem__)  # max keeps the first of the tied
        if not left[r]:
            break
        left[r] -= 1
        taken[r] += 1
    return taken


class Game(core.Game[State]):
    def __init__(self, config: Config) -> None:
        self.config = config
        self.n = config.num_players
        self.spec = GameSpec(
            name=NAME,
            version=VERSION,
            num_players=self.n,
            min_players=C.MIN_PLAYERS,
            max_players=C.MAX_PLAYERS,
            num_actions=A.ACTIONS.size,
            max_chance_outcomes=C.NUM_KINDS,
            max_game_length=MAX_GAME_LENGTH,
            min_return=-1.0,
            max_return=1.0,
        )

    # Set-up ----------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        n = self.n
        decks, comes = [], []
        for d in range(C.ALBUMS):  # RG-COMP-1 RG-DATA-CARDS
            counts = bytearray(C.NUM_KINDS)
            for k in C.ALBUM_KINDS[d]:
                counts[k] = C.CARDS[k].copies
            decks.append(Deck(counts))
            counts = bytearray(C.NUM_KINDS)
            for k in C.COME_KINDS[d]:
                counts[k] = C.CARDS[k].copies
            comes.append(Deck(counts))
        rappers = bytearray(C.NUM_KINDS)
        for k in _RAPPER_KINDS:
            rappers[k] = 1
        cities = bytearray(C.NUM_KINDS)
        for k in _CITY_KINDS:
            cities[k] = 1
        goal_counts = [1] * C.NUM_GOALZ
        goal_counts[G.CHAMP] = 0  # The Champ is always in; RG-SETUP-5
        s = State(
            num_players=n,
            decks=decks,
            come_decks=comes,
            rapper_deck=Deck(rappers),
            city_deck=Deck(cities),
            hands=[bytearray(C.NUM_KINDS) for _ in range(n)],
            offers=[bytearray(C.NUM_KINDS) for _ in range(n)],
            held=[bytearray(C.NUM_KINDS) for _ in range(n)],
            timelines=[bytearray(C.NUM_KINDS) for _ in range(n)],
            discard=bytearray(C.NUM_KINDS),
            gone=bytearray(C.NUM_KINDS),
            rappers=[-1] * n,
            cities=[-1] * n,
            extra_city=-1,
            slots=[-1] * (n + 1),  # found: players + 1; RG-SETUP-6
            beef_card=-1,
            pickup_deck=Deck([C.PICKUP_COPIES] * len(C.PICKUP_TYPES)),
            track_pickups=[-1] * C.NUM_PICKUP_SPACES,
            pickups=[[0, 0, 0] for _ in range(n)],
            pickups_used=[0, 0, 0],
            res=[[0, 0, 0] for _ in range(n)],
            upgraded=[0] * n,
            plaques=[[0, 0, 0] for _ in range(n)],
            supply=list(C.PLAQUE_SUPPLY),
            owed=[0] * n,
            goal_deck=Deck(goal_counts),
            goals=[G.CHAMP],
            goal_won=[-1] * C.NUM_GOALZ,
            cubes=[0] * n,
            cube_supply=C.BEEF_CUBES,
            used=[False] * n,
            turns=[0] * n,
            beef_tally=[[0, 0, 0, 0, 0] for _ in range(n)],
        )
        # RG-SETUP-1: the Pick Upz shuffled onto the symbols; RG-SETUP-2: two Rapperz and two Citiez each.
        s.chance = [(Task.PICKUP, i) for i in range(C.NUM_PICKUP_SPACES)]
        s.chance += [(Task.RAPPER, p) for p in range(n) for _ in range(2)]
        s.chance += [(Task.CITY, p) for p in range(n) for _ in range(2)]
        return s

    def hand_size(self, s: State, p: int) -> int:
        """5, or 6 with a hand-size Rapper; RG-SETUP-7 RG-ALBUM-3 RG-RAP-1."""
        return 6 if _ABILITY[s.rappers[p]] == Ab.HAND6 else C.HAND_SIZE

    def ability(self, s: State, p: int) -> int:
        return _ABILITY[s.rappers[p]]

    def come_cost(self, s: State, p: int) -> int:
        discount = _ABILITY[s.rappers[p]] == Ab.DISCOUNT and not s.used[p]  # once per Album; RG-RAP-2
        return C.COME_COST_DISCOUNTED if discount else C.COME_COST  # RG-TURN-2 RG-RAP-1

    # Who acts ---------------------------------------------------------------------------------

    def current_player(self, s: State) -> int:
        if s.chance:
            return CHANCE
        if s.phase == Phase.OVER:
            return TERMINAL
        return s.actor

    def _chance_deck(self, s: State) -> Deck | None:
        task = s.chance[0][0]
        if task == Task.DRAW:
            return s.decks[s.album]
        if task == Task.COME:
            return s.come_decks[s.album]
        if task == Task.RAPPER:
            return s.rapper_deck
        if task == Task.CITY or task == Task.EXTRA_CITY:
            return s.city_deck
        if task == Task.PICKUP:
            return s.pickup_deck
        if task == Task.GOAL:
            return s.goal_deck
        return None

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if not s.chance:
            raise ValueError("not a chance node")
        task, arg = s.chance[0]
        deck = self._chance_deck(s)
        if deck is not None:
            return deck.outcomes()
        if task == Task.MEDALLION:  # a die roll among the tied; RG-SETUP-9
            tied = [p for p in range(self.n) if arg >> p & 1]
            return [(p, 1.0 / len(tied)) for p in tied]
        return [(f, 1.0 / C.DIE_SIDES) for f in range(C.DIE_SIDES)]  # a die: face f + 1; RG-BEEF-2

    def sample_chance(self, s: State, rng: Any) -> int:
        u = rng.random()
        deck = self._chance_deck(s)
        if deck is not None:
            return deck.kind_at(u)
        task, arg = s.chance[0]
        if task == Task.MEDALLION:
            tied = [p for p in range(self.n) if arg >> p & 1]
            return tied[int(u * len(tied))]
        return int(u * C.DIE_SIDES)

    def resolve_chance(self, s: State, rng: Any) -> None:
        """The core's loop (sample_chance, then apply), with a draw from an Album deck done in place:
        the same `rng.random()` names the same card (Deck.draw is kind_at and take in one)."""
        while s.chance:
            task, arg = s.chance[0]
            if task == Task.DRAW:  # RG-TURN-5
                k = s.decks[s.album].draw(rng.random())
                del s.chance[0]
                s.hands[arg][k] += 1
                if s.tell is not None:
                    s.tell(F.Drawn(arg, k))
                self._prune(s)
                if not s.chance:
                    self._after_chance(s)
            else:
                self._apply_chance(s, self.sample_chance(s, rng))

    def _apply_chance(self, s: State, o: int) -> None:
        task, arg = s.chance.pop(0)
        if task == Task.DRAW:  # RG-TURN-5
            s.decks[s.album].take(o)
            s.hands[arg][o] += 1
            if s.tell is not None:
                s.tell(F.Drawn(arg, o))
        elif task == Task.DIE:
            s.dice[arg] = o + 1
            if s.tell is not None:
                s.tell(F.Rolled(arg, o + 1))
        elif task == Task.COME:  # RG-TURN-4
            s.come_decks[s.album].take(o)
            s.slots[arg] = o
            if s.tell is not None:
                s.tell(F.ComeUpzDealt(arg, o))
        elif task == Task.PICKUP:  # RG-SETUP-1 RG-DECIDE-PICKUPZ
            s.pickup_deck.take(o)
            s.track_pickups[arg] = o
            if s.tell is not None:
                s.tell(F.PickupPlaced(arg, o))
        elif task == Task.RAPPER:  # RG-SETUP-2
            s.rapper_deck.take(o)
            s.offers[arg][o] += 1
            if s.tell is not None:
                s.tell(F.Dealt(arg, o))
        elif task == Task.CITY:
            s.city_deck.take(o)
            s.offers[arg][o] += 1
            if s.tell is not None:
                s.tell(F.Dealt(arg, o))
        elif task == Task.EXTRA_CITY:  # RG-SETUP-4
            s.city_deck.take(o)
            s.extra_city = o
            if s.tell is not None:
                s.tell(F.ExtraCity(o))
        elif task == Task.GOAL:  # RG-SETUP-5
            s.goal_deck.take(o)
            s.goals.append(o)
            s.goals.sort()
            if s.tell is not None:
                s.tell(F.GoalDrawn(o))
        else:  # Task.MEDALLION
            holder, s.medallion = s.medallion, o
            if s.tell is not None:
                s.tell(F.MedallionRolled(o))
                s.tell(F.MedallionTaken(o, holder))
        self._prune(s)
        if not s.chance:
            self._after_chance(s)

    def _prune(self, s: State) -> None:
        """Drop due draws the deck cannot make (an empty Album or Come Upz deck); RG-DECIDE-EMPTY."""
        while s.chance and s.chance[0][0] in _DECKED:
            deck = self._chance_deck(s)
            assert deck is not None  # every task in _DECKED draws from a deck
            if deck.n:
                break
            s.chance.pop(0)

    def _after_chance(self, s: State) -> None:
        ph = s.phase
        if ph == Phase.SETUP:
            s.phase, s.actor = Phase.RAPPER, 0  # RG-DECIDE-DRAFT
        elif ph == Phase.DEAL:
            self._medallion(s, 0)  # most Streetz; RG-SETUP-9
        elif ph == Phase.ALBUM:
            self._medallion(s, s.album)  # Album 2: most Skillz, Album 3: most Swag; RG-ALBUM-4
        elif ph == Phase.START:
            self._start_turn(s, s.medallion)
        elif ph == Phase.ROLL:
            self._window(s)
        else:  # a draw in the turn: back to the decision
            self._settle(s)

    # Legal actions ----------------------------------------------------------------------------

    def can_play(self, s: State, p: int, k: int) -> bool:
        """A card's lock and key; RG-PLAY-2."""
        lock = C.CARDS[k].lock
        return lock is None or s.res[p][lock[0]] >= lock[1]

    def _room(self, s: State, p: int, r: int) -> bool:
        return s.res[p][r] < self._cap(s, p, r)

    def _cap(self, s: State, p: int, r: int) -> int:
        up = s.upgraded[p]
        if up >> r & 1 or bin(up).count("1") < C.UPGRADE_CUBES:
            return C.TRACK_MAX
        return C.TRACK_TOP  # RG-DECIDE-UPGRADE

    def _turn_extras(self, s: State, p: int) -> list[int]:
        """Pick Upz and the extra-draw ability, usable at any time on the turn; RG-PICK-2 RG-RAP-1."""
        out = []
        can_draw = s.decks[s.album].n > 0
        pk = s.pickups[p]
        if pk[C.CARD_PICK] and can_draw:
            out.append(A.CARD_PICKUP)
        if pk[C.RES_PICK]:
            out += [A.RES_PICKUP + r for r in range(C.NUM_RES) if self._room(s, p, r)]
        if can_draw and not s.used[p] and _ABILITY[s.rappers[p]] == Ab.EXTRA_DRAW:  # RG-RAP-2
            out.append(A.ABILITY)
        return out

    def _get_options(self, s: State, p: int) -> list[int]:
        out = []
        if s.decks[s.album].n:  # RG-TURN-5 RG-DECIDE-EMPTY
            out.append(A.DRAW)
        if card_count(s.hands[p]) >= self.come_cost(s, p):  # RG-TURN-2
            out += [A.COME_UPZ + j for j, k in enumerate(s.slots) if k >= 0]
        return out

    def playable(self, s: State, p: int) -> list[int]:
        """The kinds p may play now, from the hand and the held Come Upz; RG-PLAY-1 RG-PLAY-2."""
        res = s.res[p]
        kinds = list(compress(_PLAY_KINDS, s.hands[p]))
        held = list(compress(_PLAY_KINDS, s.held[p]))
        if held:
            kinds = sorted(set(kinds + held))
        return [k for k in kinds if (lock := _LOCK[k]) is None or res[lock[0]] >= lock[1]]

    def legal_actions(self, s: State) -> list[int]:
        if s.chance or s.phase == Phase.OVER:
            return []
        ph, p = s.phase, s.actor
        if ph == Phase.PLAY:
            plays = [A.PLAY + k for k in self.playable(s, p)]
            return ([] if plays else [A.PASS]) + plays + self._turn_extras(s, p)  # RG-DECIDE-PASS
        if ph == Phase.GET:
            return self._get_options(s, p) + self._turn_extras(s, p)
        if ph == Phase.SPEND:
            return [A.SPEND + k for k in compress(_PLAY_KINDS, s.hands[p])]
        if ph == Phase.TARGET:
            return [A.TARGET + i for i in range(self.n - 1)]  # RG-BEEF-1
        if ph == Phase.BEEF:  # RG-PICK-3 RG-DECIDE-BOOST
            out = [A.PASS]
            if s.pickups[p][C.BEEF_PICK]:
                out.append(A.BOOST)
            if self._can_reroll(s, p):
                out.append(A.ABILITY)
            return out
        if ph == Phase.RAPPER:
            offer = s.offers[p]
            return [A.RAPPER + k - C.RAPPER_FIRST for k in _RAPPER_KINDS if offer[k]]
        if ph == Phase.CITY:
            offer = s.offers[p]
            return [A.CITY + k - C.CITY_FIRST for k in _CITY_KINDS if offer[k]]
        return []

    def legal_flags(self, s: State) -> bytearray:
        """legal_actions as the mask's bytes, the plays and the spends written a segment at a time: the
        kinds in hand or held, and unlocked, from precomputed rows (RG-PLAY-1 RG-PLAY-2); a get's options
        set one by one."""
        ph = s.phase
        if ph == Phase.PLAY and not s.chance:
            p = s.actor
            res = s.res[p]
            # a hand holds no Come Upz and no Album card is held (invariants.py): the two join end to end
            held = s.hands[p][:C.COME_FIRST] + s.held[p][C.COME_FIRST:C.NUM_PLAY]
            plays = (int.from_bytes(held.translate(_ANY), "big")
                     & _UNLOCKED[0][res[0]] & _UNLOCKED[1][res[1]] & _UNLOCKED[2][res[2]])
            flags = bytearray(A.ACTIONS.size)
            if plays:
                flags[A.PLAY : A.PLAY + C.NUM_PLAY] = plays.to_bytes(C.NUM_PLAY, "big")
            else:
                flags[A.PASS] = 1  # RG-DECIDE-PASS
            for a in self._turn_extras(s, p):
                flags[a] = 1
            return flags
        if ph == Phase.SPEND and not s.chance:
            flags = bytearray(A.ACTIONS.size)
            flags[A.SPEND : A.SPEND + C.NUM_PLAY] = s.hands[s.actor][:C.NUM_PLAY].translate(_ANY)
            return flags
        if ph == Phase.GET and not s.chance:
            flags = bytearray(A.ACTIONS.size)
            for a in self._get_options(s, s.actor) + self._turn_extras(s, s.actor):
                flags[a] = 1
            return flags
        return super().legal_flags(s)

    def _can_reroll(self, s: State, p: int) -> bool:
        return not s.used[p] and _ABILITY[s.rappers[p]] == Ab.REROLL  # RG-RAP-2

    # Transitions ------------------------------------------------------------------------------

    def apply_legal(self, s: State, a: int) -> None:
        if s.chance:
            self._apply_chance(s, a)
            return
        p = s.actor
        if s.tell is not None:
            s.tell(F.Chose(p, a))
        seg, index = _SEGMENTS[a]
        i = index[0] if index else 0
        if seg == "play":
            self._play(s, p, i)
        elif seg == "draw":  # RG-TURN-2 RG-TURN-5
            s.phase = Phase.PLAY
            self._queue(s, [(Task.DRAW, p)])
        elif seg == "come_upz":  # RG-TURN-2
            s.slot = i
            s.spend_left = self.come_cost(s, p)
            if s.spend_left < C.COME_COST:
                s.used[p] = True  # the discount is covered until the next Album; RG-RAP-2
            s.phase = Phase.SPEND
        elif seg == "spend":
            s.hands[p][i] -= 1
            s.discard[i] += 1  # RG-DECIDE-SPEND
            s.spend_left -= 1
            if s.spend_left == 0:
                k = s.slots[s.slot]
                s.held[p][k] += 1  # RG-DECIDE-COMEUPZ
                s.slots[s.slot] = -1
                s.phase = Phase.PLAY
                self._queue(s, [(Task.COME, s.slot)])  # replaced at once; RG-TURN-4
                s.slot = -1
        elif seg == "pass":
            if s.phase == Phase.BEEF:
                self._beef_pass(s)
            else:
                self._end_turn(s)  # RG-DECIDE-PASS
        elif seg == "target":
            self._start_beef(s, p, (p + 1 + i) % self.n)
        elif seg == "card_pickup":  # RG-PICK-2 RG-TURN-3
            self._use_pickup(s, p, C.CARD_PICK)
            self._queue(s, [(Task.DRAW, p)])
        elif seg == "res_pickup":  # RG-PICK-2
            self._use_pickup(s, p, C.RES_PICK)
            self._gain_res(s, p, i, 3)
        elif seg == "boost":  # RG-PICK-3
            self._use_pickup(s, p, C.BEEF_PICK)
            s.bonus[s.side] += 2
            s.passes = 0
            s.side ^= 1
            self._window(s)
        elif seg == "ability":
            s.used[p] = True  # covered until the next Album; RG-RAP-2
            if s.phase == Phase.BEEF:  # the reroll: this side's own dice again; RG-RAP-1
                dice = (0, 1) if s.side == 0 else (2,)
                s.passes = 0
                s.side ^= 1
                s.phase = Phase.ROLL
                self._queue(s, [(Task.DIE, d) for d in dice])
            else:  # the extra draw; RG-RAP-1 RG-TURN-3
                self._queue(s, [(Task.DRAW, p)])
        elif seg == "rapper":  # RG-SETUP-2 RG-DECIDE-DRAFT
            self._keep(s, p, C.RAPPER_FIRST + i, _RAPPER_KINDS, s.rapper_deck)
            s.rappers[p] = C.RAPPER_FIRST + i
            s.phase = Phase.CITY
        elif seg == "city":
            self._keep(s, p, C.CITY_FIRST + i, _CITY_KINDS, s.city_deck)
            s.cities[p] = C.CITY_FIRST + i
            s.res[p] = list(C.CITIEZ[i].start)  # RG-SETUP-3
            if p + 1 < self.n:
                s.phase, s.actor = Phase.RAPPER, p + 1
            else:
                self._deal(s)

    def _use_pickup(self, s: State, p: int, t: int) -> None:
        """p spends a Pick Upz token of type t (back in the box); RG-PICK-2 RG-PICK-3."""
        s.pickups[p][t] -= 1
        s.pickups_used[t] += 1
        if s.tell is not None:
            s.tell(F.PickupUsed(p, t))

    def _queue(self, s: State, tasks: list[tuple[int, int]]) -> None:
        s.chance += tasks
        self._prune(s)
        if not s.chance:
            self._after_chance(s)

    def _keep(self, s: State, p: int, kept: int, kinds: range, deck: Deck) -> None:
        offer = s.offers[p]
        offer[kept] -= 1
        returned = [k for k in kinds if offer[k]]
        for k in returned:  # the other goes back to its deck; RG-SETUP-2
            deck.add(k, offer[k])
            offer[k] = 0
        if s.tell is not None:
            s.tell(F.Kept(p, kept, tuple(returned)))

    def _deal(self, s: State) -> None:
        n = self.n
        s.phase = Phase.DEAL
        tasks = [(Task.EXTRA_CITY, 0)] if n == 2 else []  # RG-SETUP-4
        tasks += [(Task.GOAL, 0)] * n  # players + 1 Goalz with The Champ; RG-SETUP-5 RG-DATA-GOALZ
        tasks += [(Task.COME, j) for j in range(n + 1)]  # RG-SETUP-6
        for p in range(n):
            tasks += [(Task.DRAW, p)] * self.hand_size(s, p)  # RG-SETUP-7
        self._queue(s, tasks)

    def _medallion(self, s: State, r: int) -> None:
        best = max(res[r] for res in s.res)
        tied = [p for p in range(self.n) if s.res[p][r] == best]
        if len(tied) == 1:
            holder, s.medallion = s.medallion, tied[0]
            if s.tell is not None:
                s.tell(F.MedallionTaken(s.medallion, holder))
            self._start_turn(s, s.medallion)
        else:  # RG-SETUP-9: a die roll decides
            s.phase = Phase.START
            self._queue(s, [(Task.MEDALLION, sum(1 << p for p in tied))])

    def _start_turn(self, s: State, p: int) -> None:  # RG-TURN-1
        s.turn = s.actor = p
        s.phase = Phase.GET
        self._settle(s)

    def _settle(self, s: State) -> None:
        """A get with nothing to get is skipped (an empty deck and no Come Upz affordable); RG-DECIDE-PASS."""
        if s.phase == Phase.GET and not self._get_options(s, s.actor):
            s.phase = Phase.PLAY

    def _play(self, s: State, p: int, k: int) -> None:
        card = C.CARDS[k]
        if card.come:
            s.held[p][k] -= 1
        else:
            s.hands[p][k] -= 1
        if s.tell is not None:
            s.tell(F.Played(p, k))
        if card.beef:  # RG-BEEF-1
            s.beef_card = k
            s.phase = Phase.TARGET
            return
        s.timelines[p][k] += 1  # RG-PLAY-1
        self._gain_plaques(s, p, card.plaques)
        for r, v in enumerate(card.gains):
            if v:
                self._gain_res(s, p, r, v)
        rapper = s.rappers[p] - C.RAPPER_FIRST
        if C.RAPPERZ[rapper].ability == Ab.BOOST and card.colour == C.RAPPERZ[rapper].colour:  # RG-RAP-1
            self._gain_res(s, p, C.RAPPERZ[rapper].boost_res, 1)
        self._end_turn(s)

    # Resources and plaques --------------------------------------------------------------------

    def _gain_res(self, s: State, p: int, r: int, amount: int) -> None:
        old = s.res[p][r]
        up = s.upgraded[p]
        if not up >> r & 1 and old + amount >= C.TRACK_TOP and bin(up).count("1") < C.UPGRADE_CUBES:
            s.upgraded[p] = up | 1 << r  # RG-RES-2 RG-DECIDE-UPGRADE
        new = min(old + amount, self._cap(s, p, r))
        s.res[p][r] = new
        if s.tell is not None:
            s.tell(F.Gained(p, r, old, new))
        for place, at in enumerate(C.PICKUP_SPACES):  # RG-PICK-1 RG-DECIDE-PICKUPZ
            space = r * len(C.PICKUP_SPACES) + place
            t = s.track_pickups[space]
            if t >= 0 and old < at <= new:
                s.pickups[p][t] += 1
                s.track_pickups[space] = -1
                if s.tell is not None:
                    s.tell(F.PickupCollected(p, t))
        if new >= C.MOGUL_AT and s.goal_won[G.MOGUL] < 0 and G.MOGUL in s.goals:  # RG-GOAL-1
            s.goal_won[G.MOGUL] = p
            if s.tell is not None:
                s.tell(F.GoalWon(G.MOGUL, p))

    def points(self, s: State, p: int) -> int:
        b, g, pl = s.plaques[p]
        return b + 5 * g + 25 * pl + s.owed[p]

    def _set_points(self, s: State, p: int, total: int) -> None:
        """p's plaques become `total` points: theirs go back and the supply makes the total anew
        (change made from the supply); RG-COMP-2 RG-DECIDE-PLAQUES."""
        mine, supply = s.plaques[p], s.supply
        for i in range(3):
            supply[i] += mine[i]
        take, rest = greedy_plaques(total, supply)
        for i in range(3):
            supply[i] -= take[i]
        s.plaques[p] = take
        s.owed[p] = rest

    def _gain_plaques(self, s: State, p: int, v: int, in_game: bool = True) -> None:
        if v <= 0:
            return
        total = self.points(s, p) + v
        self._set_points(s, p, total)
        if s.tell is not None:
            s.tell(F.PlaquesGained(p, v))
        if in_game and total >= C.PLATINUM_AT and s.goal_won[G.PLATINUM] < 0 and G.PLATINUM in s.goals:
            s.goal_won[G.PLATINUM] = p  # RG-GOAL-1
            if s.tell is not None:
                s.tell(F.GoalWon(G.PLATINUM, p))

    # Beef -------------------------------------------------------------------------------------

    def _start_beef(self, s: State, p: int, target: int) -> None:  # RG-BEEF-1 RG-BEEF-2
        s.starter, s.target = p, target
        s.beef_tally[p][0] += 1
        self._roll_all(s)

    def _roll_all(self, s: State) -> None:
        s.dice = [0, 0, 0]
        s.bonus = [0, 0]
        s.side, s.passes = 0, 0
        s.phase = Phase.ROLL
        self._queue(s, [(Task.DIE, 0), (Task.DIE, 1), (Task.DIE, 2)])

    def _window(self, s: State) -> None:
        """After a roll, the starter then the target may boost (or reroll); a side with nothing to use
        passes by itself; two passes in a row end it; RG-DECIDE-BOOST."""
        while True:
            seat = s.starter if s.side == 0 else s.target
            if s.pickups[seat][C.BEEF_PICK] or self._can_reroll(s, seat):
                s.phase, s.actor = Phase.BEEF, seat
                return
            s.passes += 1
            if s.passes >= 2:
                self._resolve_beef(s)
                return
            s.side ^= 1

    def _beef_pass(self, s: State) -> None:
        s.passes += 1
        if s.passes >= 2:
            self._resolve_beef(s)
        else:
            s.side ^= 1
            self._window(s)

    def beef_values(self, s: State) -> tuple[int, int]:
        """The highest single die of each side, with its +2s; RG-BEEF-3 RG-PICK-3 (the rulebook's
        example, RG-BEEF-EXAMPLE: the target's one die beats the starter's two)."""
        d = s.dice
        return max(d[0], d[1]) + s.bonus[0], d[2] + s.bonus[1]

    def _resolve_beef(self, s: State) -> None:
        a, b = self.beef_values(s)
        if a == b:  # RG-BEEF-3: a tie rerolls all dice
            self._roll_all(s)
            return
        winner, loser = (s.starter, s.target) if a > b else (s.target, s.starter)
        k = s.beef_card
        s.timelines[loser][k] += 1  # RG-BEEF-4
        s.beef_card = -1
        pl, each = C.BEEF_STAKES[C.CARDS[k].deck]  # RG-DATA-BEEF
        pay = min(pl, self.points(s, loser))
        tally = s.beef_tally
        if winner == s.starter:
            tally[winner][1] += 1
        tally[winner][2] += 1
        tally[winner][3] += pay
        tally[loser][4] += pay
        if pay:
            self._set_points(s, loser, self.points(s, loser) - pay)
            self._gain_plaques(s, winner, pay)
        for r, amount in enumerate(beef_resources(s.res[loser], each)):
            if amount:
                s.res[loser][r] -= amount
                self._gain_res(s, winner, r, amount)
        if s.cube_supply:  # RG-BEEF-5 RG-DECIDE-CUBES
            s.cube_supply -= 1
            s.cubes[winner] += 1
        if s.tell is not None:
            s.tell(F.BeefSettled(s.starter, s.target, (a, b), winner, k))
        self._end_turn(s)

    # Tracks, Albums and the end ---------------------------------------------------------------

    def _end_turn(self, s: State) -> None:
        s.turns[s.turn] += 1
        s.starter = s.target = -1
        s.dice = [0, 0, 0]
        s.bonus = [0, 0]
        s.side = s.passes = 0
        nxt = (s.turn + 1) % self.n  # RG-TURN-1
        if nxt != s.medallion:
            self._start_turn(s, nxt)
            return
        s.track += 1  # RG-TRACK-1
        if s.track < C.TRACKS:
            if s.tell is not None:
                s.tell(F.TrackBegan(s.track))
            self._start_turn(s, nxt)
        elif s.album + 1 < C.ALBUMS:
            self._new_album(s)
        else:
            self._game_over(s)  # RG-END-1

    def _new_album(self, s: State) -> None:
        s.album += 1
        s.track = 0
        s.turn = s.actor = -1
        s.used = [False] * self.n  # RG-ALBUM-1 RG-RAP-2
        for j, k in enumerate(s.slots):  # RG-ALBUM-2
            if k >= 0:
                s.gone[k] += 1
                s.slots[j] = -1
        tasks = [(Task.COME, j) for j in range(len(s.slots))]
        for p in range(self.n):  # RG-ALBUM-3
            tasks += [(Task.DRAW, p)] * max(0, self.hand_size(s, p) - card_count(s.hands[p]))
        s.phase = Phase.ALBUM
        if s.tell is not None:
            s.tell(F.AlbumBegan(s.album))
        self._queue(s, tasks)

    def icons(self, s: State, p: int) -> list[int]:
        """Icons per colour in p's timeline."""
        out = [0] * C.NUM_COLOURS
        tl = s.timelines[p]
        for k in compress(_PLAY_KINDS, tl):
            if _COLOUR_OF[k] >= 0:  # (a Beef card has no colour)
                out[_COLOUR_OF[k]] += tl[k] * _ICONS_OF[k]
        return out

    def colour_cards(self, s: State, p: int) -> list[int]:
        """Cards per colour in p's timeline."""
        out = [0] * C.NUM_COLOURS
        tl = s.timelines[p]
        for k in compress(_PLAY_KINDS, tl):
            if _COLOUR_OF[k] >= 0:
                out[_COLOUR_OF[k]] += tl[k]
        return out

    @staticmethod
    def _most(values: list[int]) -> list[int]:
        """The seats with the most, if that is at least 1; RG-DECIDE-MOST."""
        best = max(values)
        return [p for p, v in enumerate(values) if v == best] if best > 0 else []

    def city_winners(self, s: State, city: int) -> list[int]:  # RG-CITY-1
        colour = C.CITIEZ[city - C.CITY_FIRST].colour
        return self._most([self.icons(s, p)[colour] for p in range(self.n)])

    def board_cities(self, s: State) -> list[int]:
        return sorted([k for k in s.cities if k >= 0] + ([s.extra_city] if s.extra_city >= 0 else []))

    def goal_winners(self, s: State, g: int) -> list[int]:
        n = self.n
        if g == G.CHAMP:  # RG-GOAL-2
            return self._most(s.cubes)
        if g in (G.PLATINUM, G.MOGUL):  # RG-GOAL-1
            return [s.goal_won[g]] if s.goal_won[g] >= 0 else []
        if g == G.HOMESLICE:  # RG-GOAL-3
            return [p for p in range(n) if p in self.city_winners(s, s.cities[p])]
        beefs = [sum(s.timelines[p][k] for k in C.BEEF_KINDS) for p in range(n)]
        if g == G.TIMELINE:
            return self._most([card_count(t) for t in s.timelines])
        if g == G.COME_UP:
            return self._most([card_count(t[C.COME_FIRST:]) for t in s.timelines])
        if g == G.PEACE:
            fewest = min(beefs)
            return [p for p in range(n) if beefs[p] == fewest]
        return self._most([max(self.colour_cards(s, p)) for p in range(n)])  # G.MONO

    def end_bonus_parts(self, s: State) -> list[list[int]]:
        """The end-game plaques per seat by source: Goalz, Citiez, Card Category Bonus, Rapper Goal."""
        n = self.n
        extra = [[0, 0, 0, 0] for _ in range(n)]
        for g in s.goals:
            won = self.goal_winners(s, g)
            for p in won:  # RG-GOAL-4: split evenly, rounded down
                extra[p][0] += C.GOAL_PLAQUES // len(won)
        for city in self.board_cities(s):
            won = self.city_winners(s, city)
            for p in won:  # RG-GOAL-4 RG-CITY-1
                extra[p][1] += C.CITIEZ[city - C.CITY_FIRST].plaques // len(won)
        for p in range(n):
            rapper = C.RAPPERZ[s.rappers[p] - C.RAPPER_FIRST]
            matching = self.colour_cards(s, p)[rapper.colour]
            extra[p][2] += matching  # RG-RAP-4
            if matching >= rapper.goal_cards:  # RG-RAP-5
                extra[p][3] += rapper.goal_plaques
        return extra

    def end_bonus(self, s: State) -> list[int]:
        """The end-game plaques per seat: Goalz, Citiez, Card Category Bonus, Rapper Goal."""
        return [sum(parts) for parts in self.end_bonus_parts(s)]

    def _game_over(self, s: State) -> None:
        s.turn = s.actor = -1
        s.track = C.TRACKS - 1  # the crossfader stays on Album 3, Track 5
        for p, v in enumerate(self.end_bonus(s)):
            self._gain_plaques(s, p, v, in_game=False)
        s.final = [self.points(s, p) for p in range(self.n)]
        s.winners = self.winners(s)
        s.phase = Phase.OVER
        if s.tell is not None:
            s.tell(F.GameOver())

    def winners(self, s: State) -> list[int]:
        """Most plaque points; then more Beef cubes, then fewer cards in hand; RG-SCORE-1 RG-DECIDE-TIE."""
        key = [(self.points(s, p), s.cubes[p], -card_count(s.hands[p]) - card_count(s.held[p])) for p in range(self.n)]
        best = max(key)
        return [p for p in range(self.n) if key[p] == best]

    def returns(self, s: State) -> list[float]:
        if s.phase != Phase.OVER:
            return [0.0] * self.n
        return [1.0 if p in s.winners else -1.0 for p in range(self.n)]

    def scores(self, s: State) -> list[float] | None:
        """Each seat's plaque points at the end (RG-SCORE-1), None before."""
        return [float(self.points(s, p)) for p in range(self.n)] if s.phase == Phase.OVER else None

    # Reports ----------------------------------------------------------------------------------

    def seat_facts(self, s: State) -> list[dict[str, Any]]:
        """Each seat's Rapper, City, the Rapper's difficulty and ability kind (text), and its final
        plaques by source, Beef and Come Upz (numbers), for `d2r balance`. The sources add up to the
        final plaques: timeline cards + Goalz + Citiez + Category Bonus + Rapper Goal + Beef won - Beef
        lost (a Beef card is worth no plaques in the timeline)."""
        parts = self.end_bonus_parts(s) if s.phase == Phase.OVER else [[0, 0, 0, 0] for _ in range(self.n)]
        out = []
        for p in range(self.n):
            r, c = s.rappers[p], s.cities[p]
            rapper = C.RAPPERZ[r - C.RAPPER_FIRST] if r >= 0 else None
            tl = s.timelines[p]
            started, won_started, won, won_pl, lost_pl = s.beef_tally[p]
            goalz, citiez, category, goal = parts[p]
            out.append({
                "rapper": rapper.name if rapper else "none",
                "city": C.CITIEZ[c - C.CITY_FIRST].name if c >= 0 else "none",
                "difficulty": C.DIFFICULTY[rapper.difficulty] if rapper else "none",
                "ability": C.ABILITY_NAMES[rapper.ability] if rapper else "none",
                "plaques final": self.points(s, p),
                "plaques timeline cards": sum(C.CARDS[k].plaques * tl[k] for k in compress(_PLAY_KINDS, tl)
                                              if not C.CARDS[k].beef),
                "plaques Goalz": goalz,
                "plaques Citiez": citiez,
                "plaques Category Bonus": category,
                "plaques Rapper Goal": goal,
                "plaques Beef won": won_pl,
                "plaques Beef lost": lost_pl,
                "Beef started": started,
                "Beef won as starter": won_started,
                "Beef won": won,
                "Beef lost": sum(tl[k] for k in C.BEEF_KINDS),
                "Come Upz taken": card_count(tl[C.COME_FIRST : C.NUM_PLAY]) + card_count(s.held[p][C.COME_FIRST : C.NUM_PLAY]),
                "timeline cards": card_count(tl),
            })
        return out

    # Copies -----------------------------------------------------------------------------------

    def redeterminise(self, s: State, player: int, rng: Any) -> State:
        """A copy in which what `player` cannot see is dealt anew: Album by Album, that Album's deck
        and its cards in the other hands (how many of each Album a hand holds is public); the Rapperz
        and Citiez deck with the other players' draft offers."""
        t = self.clone(s)
        others = [q for q in range(self.n) if q != player]
        for d in range(C.ALBUMS):
            deal_kinds([t.decks[d].counts] + [t.hands[q] for q in others], C.ALBUM_KINDS[d], rng)
        deal_kinds([t.rapper_deck.counts] + [t.offers[q] for q in others], _RAPPER_KINDS, rng)
        deal_kinds([t.city_deck.counts] + [t.offers[q] for q in others], _CITY_KINDS, rng)
        for deck in t.decks + [t.rapper_deck, t.city_deck]:
            deck.recount()
        return t

    # Text -------------------------------------------------------------------------------------

    def decision_name(self, s: State) -> str:
        if s.phase == Phase.OVER:
            return "game over"
        if s.chance:
            task, arg = s.chance[0]
            return {
                Task.PICKUP: "chance: place a Pick Upz",
                Task.RAPPER: f"chance: deal a Rapper to player_{arg}",
                Task.CITY: f"chance: deal a City to player_{arg}",
                Task.EXTRA_CITY: "chance: the extra City",
                Task.GOAL: "chance: a Goalz token",
                Task.COME: f"chance: Come Upz for slot {arg}",
                Task.DRAW: f"chance: player_{arg} draws",
                Task.MEDALLION: "chance: die roll for the Medallion",
                Task.DIE: "chance: a Beef die",
            }[task]
        who = f"player_{s.actor}"
        return who + " " + {
            Phase.RAPPER: "keeps a Rapper",
            Phase.CITY: "keeps a City",
            Phase.GET: "gets a card (draw or buy a Come Upz)",
            Phase.SPEND: f"spends a card for the Come Upz ({s.spend_left} to go)",
            Phase.PLAY: "plays a card",
            Phase.TARGET: "chooses the Beef target",
            Phase.BEEF: "may use +2 on Beef",
        }[s.phase]

    def action_to_string(self, s: State, a: int) -> str:
        if self.current_player(s) == CHANCE:
            task, arg = s.chance[0]
            if task == Task.DIE:
                return f"{('starter', 'red', 'target')[arg]} die: {a + 1}"
            if task == Task.MEDALLION:
                return f"Medallion: player_{a}"
            if task == Task.PICKUP:
                return f"Pick Upz {C.PICKUP_TYPES[a]} on {C.RESOURCES[arg // 3]} {C.PICKUP_SPACES[arg % 3]}"
            if task == Task.GOAL:
                return f"Goalz: {C.GOALZ[a][0]}"
            if task == Task.COME:
                return f"Come Upz slot {arg}: {C.KIND_NAMES[a]}"
            if task == Task.DRAW:
                return f"player_{arg} draws {C.KIND_NAMES[a]}"
            return f"{C.KIND_NAMES[a]}" + (f" to player_{arg}" if task != Task.EXTRA_CITY else " on the board")
        seg, index = A.ACTIONS.decode(a)
        i = index[0] if index else 0
        me = max(s.actor, 0)
        if seg == "pass":
            return "pass"
        if seg == "rapper":
            return f"keep {C.RAPPERZ[i].name}"
        if seg == "city":
            return f"keep {C.CITIEZ[i].name}"
        if seg == "draw":
            return f"draw from Album {s.album + 1}"
        if seg == "come_upz":
            k = s.slots[i] if i < len(s.slots) else -1
            return f"buy Come Upz slot {i}" + (f" ({C.KIND_NAMES[k]})" if k >= 0 else "")
        if seg in ("spend", "play"):
            return f"{seg} {C.KIND_NAMES[i]}"
        if seg == "target":
            return f"Beef with player_{(me + 1 + i) % self.n} (+{i + 1})"
        if seg == "card_pickup":
            return "use +1 Card"
        if seg == "res_pickup":
            return f"use +3 Resources on {C.RESOURCES[i]}"
        if seg == "boost":
            return "use +2 on Beef"
        return "use the Rapper ability"

    def state_to_string(self, s: State) -> str:
        lines = [
            f"Album {s.album + 1} Track {s.track + 1} | Medallion {seat_name(s.medallion, 'not won yet')} | {self.decision_name(s)}",
            "Goalz: " + ", ".join(C.GOALZ[g][0] + (f" (player_{s.goal_won[g]})" if s.goal_won[g] >= 0 else "") for g in s.goals)
            + " | Citiez: " + ", ".join(C.KIND_NAMES[k] for k in self.board_cities(s)),
            "Come Upz: " + ", ".join(C.KIND_NAMES[k] if k >= 0 else "-" for k in s.slots)
            + f" | decks {[d.n for d in s.decks]} come {[d.n for d in s.come_decks]} | supply {s.supply} cubes {s.cube_supply}",
        ]
        if s.starter >= 0:
            lines.append(f"Beef: player_{s.starter} vs player_{s.target} with {C.KIND_NAMES[s.beef_card]} dice {s.dice} bonus {s.bonus}")
        for p in range(self.n):
            rapper = C.KIND_NAMES[s.rappers[p]] if s.rappers[p] >= 0 else "-"
            city = C.KIND_NAMES[s.cities[p]] if s.cities[p] >= 0 else "-"
            lines.append(
                f"p{p}: {self.points(s, p)} pts | {rapper}, {city} | res {s.res[p]} | Pick Upz {s.pickups[p]}"
                f" | cubes {s.cubes[p]} | hand: {C.counts_to_string(s.hands[p])} | held: {C.counts_to_string(s.held[p])}"
                f" | timeline {card_count(s.timelines[p])}"
            )
        if s.phase == Phase.OVER:
            lines.append("winners: " + ", ".join(f"player_{p}" for p in s.winners))
        return "\n".join(lines)



def deal_kinds(piles: list[bytearray], kinds: range | list[int], rng: Any) -> None:
    """Deal the cards of `kinds` held by `piles` anew among them, each keeping how many of those kinds
    it holds. The pool is listed in kind order before one `rng.permutation`, so the result depends only
    on what the piles hold together, not on where each card lay."""
    sizes = [sum(p[k] for k in kinds) for p in piles]
    if sum(sizes) == 0 or sum(1 for x in sizes if x) == 1 and len(piles) == 1:
        return
    pool = [k for k in kinds for p in piles for _ in range(p[k])]
    pool.sort()
    order = rng.permutation(len(pool))
    for p in piles:
        for k in kinds:
            p[k] = 0
    i = 0
    for p, size in zip(piles, sizes):
        for j in order[i : i + size]:
            p[pool[j]] += 1
        i += size
