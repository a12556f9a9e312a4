"""Extravaganza rules: the transition system. Plain Python; knows nothing of PettingZoo or numpy.

A turn is a queue of steps (state.Step, of the kinds in state.Op): the turn's start queues the
bedazzle fills, then Move, Draw, Dance, Lip Sync and the end of the turn (EX-TURN-1); each step, once
done, pushes what it causes to the front (a move pushes its payments and the landing; a dance its
stars, its payment, the category's own decisions and the scoring). A decision with a single legal action is taken at once (nothing to
decide), so every decision put to a player has at least two choices.

Where something happens, the rules tell it (facts.py) to the state's sink, `s.tell`, when one is set
(narrate.py sets one on the copy it narrates); otherwise nothing is told.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import game as core
from d2r_envs.core.game import CHANCE, TERMINAL, GameSpec
from d2r_envs.core.zones import Deck, Zones, deal_anew
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza import facts as F
from d2r_envs.games.extravaganza import narrate
from d2r_envs.games.extravaganza.config import Config
from d2r_envs.games.extravaganza.state import ZONES, Op, State, Step

NAME = "extravaganza"
VERSION = 5  # 5: the views for learning became the observation option `views` (off by default)
MAX_GAME_LENGTH = 4000  # player decisions; measured random games end far sooner (README)
MAX_ROUNDS = 60  # EX-DECIDE-ROUNDS
NC = C.NUM_COLOURS
GREEN = C.GREEN


def _max_pairs(a: list[int], wild: int) -> int:
    """The most same-colour pairs from `a` items per colour and `wild` items of any colour."""
    pairs = 0
    odd = 0
    for x in a:
        pairs += x >> 1
        odd += x & 1
    m = odd if odd < wild else wild
    return pairs + m + ((wild - m) >> 1)


def _can_finish(a: list[int], wild: int, half: int, pairs: int) -> bool:
    """Can `pairs` pairs still be completed, the first of them open with colour `half` (-1: none)?"""
    if half < 0:
        return _max_pairs(a, wild) >= pairs
    if a[half]:
        a[half] -= 1
        ok = _max_pairs(a, wild) >= pairs - 1
        a[half] += 1
        if ok:
            return True
    return wild > 0 and _max_pairs(a, wild - 1) >= pairs - 1


_SEAT_OPS = frozenset((Op.DRAFT, Op.PLACE, Op.SETUP_DRAW, Op.SHOW_OTHER))  # decided by the seat in the argument
_COLOUR_IDS = range(NC)
_OPTIONAL_STEPS = frozenset((Op.MOVE, Op.DRAW, Op.DANCE, Op.LIP_SYNC, Op.END_REVEAL))  # pass or stop always legal
_JUDGE_IDS = range(C.NUM_JUDGES)
_NO_DISPLAY = [-1] * C.NUM_JUDGES
_TURN_STEPS = (Step(Op.MOVE), Step(Op.DRAW), Step(Op.DANCE), Step(Op.LIP_SYNC), Step(Op.END_REVEAL),
               Step(Op.END_TURN))  # EX-TURN-1
# Per reveal condition and colour (condition * 5 + colour), the reveal card with them (_NO_REVEAL: none).
_NO_REVEAL = C.NUM_REVEALS
_REVEAL_OF = [next((r for r in range(C.NUM_REVEALS) if C.REVEAL_CONDITION[r] * NC + C.REVEAL_COLOUR[r] == i),
                   _NO_REVEAL) for i in range(len(C.REVEAL_CONDITIONS) * NC)]
_ALL_REVEALS = bytes([1] * C.NUM_REVEALS)  # every reveal card, as a hand
# Per bitmask of colours, the reveal cards of condition 4 (an actual rhinestone AND a discarded card) in them.
_REVEALS_BOTH = [tuple(r for c, r in enumerate(_REVEAL_OF[4 * NC:5 * NC]) if both >> c & 1 and r != _NO_REVEAL)
                 for both in range(1 << NC)]


assert C.CARD_COLOUR == tuple(k % NC for k in range(C.NUM_CARDS))  # card k's colour is k % 5


def _held(hand: bytearray) -> list[int]:
    """The card ids held in `hand` (counts per card, each 0 or 1: every card is one of a kind), ascending."""
    out = []
    find = hand.find
    k = find(1)
    while k >= 0:
        out.append(k)
        k = find(1, k + 1)
    return out


class Game(core.Game[State]):
    zones: Zones | None = ZONES

    def __init__(self, config: Config) -> None:
        self.config = config
        n = self.n = config.num_players
        self.powers = config.queen_powers
        self.desires_on = config.judge_desires
        self.tens_on = config.tens_and_reveals
        self.areas = C.stage_areas(config.stage)  # EX-DATA-STAGE
        self.area_spaces = [tuple(sp for sp in range(C.NUM_SPACES) if self.areas[sp] == c) for c in range(NC)]
        self.song_length = C.SONG_LENGTH[n]  # EX-SETUP-3
        # EX-DATA-FLAGS: the slot whose claim reveals the flag
        self.flag_slot = (self.song_length if config.flags == "last" else C.EARLY_FLAG[n]) - 1
        self.fixed_categories = config.category_list()
        self.spec = GameSpec(
            name=NAME,
            version=VERSION,
            num_players=n,
            min_players=C.MIN_PLAYERS,
            max_players=C.MAX_PLAYERS,
            num_actions=A.ACTIONS.size,
            max_chance_outcomes=max(C.NUM_CARDS, C.NUM_LYRICS, C.NUM_DESIRE_KINDS, C.NUM_REVEALS, C.NUM_QUEENS,
                                    C.NUM_CATEGORIES, C.MAX_PLAYERS),
            max_game_length=MAX_GAME_LENGTH,
            min_return=-1.0,
            max_return=1.0,
        )
        self._start = self._build_initial_state()

    # Set-up ----------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        """The state before set-up's chance: a copy of the one built with the game (a clone shares
        nothing with it)."""
        return self.clone(self._start)

    def _build_initial_state(self) -> State:
        n = self.n
        s = State(
            num_players=n,
            cats=[-1] * C.NUM_JUDGES,
            decks=[Deck(bytes(C.NUM_CARDS)) for _ in range(C.NUM_JUDGES)],
            display=[-1] * C.NUM_JUDGES,
            box=bytearray([1] * C.NUM_CARDS),
            removed=bytearray(C.NUM_CARDS),
            hands=[bytearray(C.NUM_CARDS) for _ in range(n)],
            stacks=[[] for _ in range(n)],
            bag=Deck([C.STONES_PER_COLOUR] * NC),  # EX-DATA-COLOURS
            stage=[-1] * C.NUM_SPACES,
            spent=[0] * NC,
            supply=[[0] * NC for _ in range(n)],
            lips=[0] * n,
            song=[-1] * self.song_length,
            lyric_box=Deck([1] * C.NUM_LYRICS),
            lyrics=[[] for _ in range(n)],
            queen=[-1] * n,
            pos=[-1] * n,
            scores=[[0] * C.NUM_JUDGES for _ in range(n)],
            tens=[[0] * C.NUM_JUDGES for _ in range(n)],
            tens_left=[n if self.tens_on else 0] * C.NUM_JUDGES,  # EX-TEN-1
            reveal_hands=[bytearray(C.NUM_REVEALS) for _ in range(n)],
            reveal_box=Deck([1] * C.NUM_REVEALS),
            revealed=[[] for _ in range(n)],
            desire_face=[-1] * C.NUM_JUDGES,
            desire_stack=Deck([C.DESIRE_COPIES] * C.NUM_DESIRE_KINDS),
            desires=[[0] * C.NUM_JUDGES for _ in range(n)],
            turns=[0] * n,
            turn_points=[0] * C.NUM_JUDGES,
        )
        todo = s.todo
        if self.fixed_categories is not None:  # EX-SETUP-1: chosen by option
            for j, cat in enumerate(self.fixed_categories):
                self._set_category(s, j, cat)
        else:
            todo += [Step(Op.CATEGORY, j) for j in range(C.NUM_JUDGES)]  # EX-SETUP-1: at random
        todo += [Step(Op.FLIP, j) for j in range(C.NUM_JUDGES)]  # EX-SETUP-2
        todo += [Step(Op.LYRIC, i) for i in range(self.song_length)]  # EX-SETUP-3
        todo += [Step(Op.FILL, sp) for sp in range(C.NUM_SPACES)]  # EX-SETUP-4
        if self.tens_on:  # EX-TEN-1: 3 reveal cards each
            todo += [Step(Op.REVEAL_DEAL, p) for p in range(n) for _ in range(C.REVEALS_EACH)]
        if self.desires_on:  # EX-DESIRE-1: one face-up desire per judge
            todo += [Step(Op.DESIRE_DEAL, j) for j in range(C.NUM_JUDGES)]
        todo += [Step(Op.FIRST), Step(Op.SETUP)]  # EX-SETUP-5
        return s

    def _set_category(self, s: State, j: int, cat: int) -> None:
        s.cats[j] = cat
        cards = C.category_cards(cat)  # EX-SETUP-2: its 15-card deck, shuffled (drawn at random)
        s.box[cards.start:cards.stop] = bytes(len(cards))  # (a category's cards are consecutive ids)
        deck = s.decks[j]
        deck.counts[cards.start:cards.stop] = b"\x01" * len(cards)
        deck.recount()

    # Who acts ---------------------------------------------------------------------------------

    def current_player(self, s: State) -> int:
        if s.over:
            return TERMINAL
        head = s.todo[0]
        if head.op < Op.DRAFT:
            return CHANCE
        if head.op in _SEAT_OPS:  # the seat in the step's argument decides
            return head.arg
        return s.turn

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        code, arg = s.todo[0].op, s.todo[0].arg
        if code == Op.FILL or code == Op.GIFT:
            return s.bag.outcomes()
        if code == Op.FLIP:
            return s.decks[arg].outcomes()
        if code == Op.LYRIC:
            return s.lyric_box.outcomes()
        if code == Op.CATEGORY:
            free = [c for c in range(C.NUM_CATEGORIES) if c not in s.cats]
            return [(c, 1.0 / len(free)) for c in free]
        if code == Op.FIRST:
            return [(p, 1.0 / self.n) for p in range(self.n)]
        if code == Op.QUEEN_DEAL:
            free = [q for q in range(C.NUM_QUEENS) if q not in s.queen]
            return [(q, 1.0 / len(free)) for q in free]
        if code == Op.REVEAL_DEAL:
            return s.reveal_box.outcomes()
        if code == Op.DESIRE_DEAL:
            return s.desire_stack.outcomes()
        raise ValueError("not a chance node")

    def sample_chance(self, s: State, rng: Any) -> int:
        head = s.todo[0]
        code = head.op
        u = rng.random()
        if code == Op.FILL or code == Op.GIFT:
            return s.bag.kind_at(u)
        if code == Op.FLIP:
            return s.decks[head.arg].kind_at(u)
        if code == Op.LYRIC:
            return s.lyric_box.kind_at(u)
        if code == Op.REVEAL_DEAL:
            return s.reveal_box.kind_at(u)
        if code == Op.DESIRE_DEAL:
            return s.desire_stack.kind_at(u)
        outcomes = self.chance_outcomes(s)
        return outcomes[int(u * len(outcomes))][0]

    def resolve_chance(self, s: State, rng: Any) -> None:
        """The core's loop of sample_chance + apply_legal, reading the step at the front for whether
        chance acts (current_player asks more)."""
        todo = s.todo
        while not s.over and todo[0].op < Op.DRAFT:
            self.apply_legal(s, self.sample_chance(s, rng))

    # Legal actions ----------------------------------------------------------------------------

    def legal_actions(self, s: State) -> list[int]:
        """The legal actions of the decision at the front, ascending (each list is built in action order)."""
        if s.over:
            return []
        code = s.todo[0].op
        if code < 10:
            return []
        p = s.turn
        if code == Op.HALF:
            return self._halves(s, p)
        if code == Op.MOVE:
            out = [A.PASS]
            out += self._destination_actions(s, p)
        elif code == Op.DRAW:
            out = [A.PASS]
            out += [A.DRAW + j for j in _JUDGE_IDS if s.display[j] >= 0]
        elif code == Op.LIP_SYNC:  # EX-LIP-1, EX-LIP-3
            out = [A.STOP, A.CLAIM] if self._can_claim(s, p) else [A.STOP]
        elif code == Op.DANCE:
            out = [A.PASS]
            out += [A.DANCE + k for k in self.danceable(s, p)]
        elif code == Op.END_REVEAL:
            out = [A.PASS]
        elif code == Op.STARS:
            return [A.STARS + i for i in range(self._star_options(s, p, s.playing))]
        elif code == Op.PLACE:  # EX-SETUP-7: an unoccupied space
            return [A.SPACE + sp for sp in range(C.NUM_SPACES) if sp not in s.pos]
        elif code == Op.DRAFT:  # EX-SETUP-8
            return [A.QUEEN + q for q in range(C.NUM_QUEENS) if q not in s.queen]
        elif code == Op.SETUP_DRAW:  # EX-SETUP-6: a card of their choice from the display
            return [A.DRAW + j for j in range(C.NUM_JUDGES) if s.display[j] >= 0]
        elif code == Op.PAY_QUEEN:  # EX-MOVE-2: a rhinestone of your choice
            return [A.COLOR + c for c in range(NC) if s.supply[p][c]]
        elif code == Op.PIROUETTE:  # EX-QUEEN-PIROUETTE, EX-DECIDE-PIROUETTE
            sup = s.supply[p]
            spaces = {sp for sp in s.bedazzled if s.stage[sp] >= 0 and not sup[s.stage[sp]]}
            return [A.PASS] + sorted(A.SPACE + sp for sp in spaces)
        elif code == Op.GREEN_LAND:  # EX-DECIDE-GREEN
            return [A.COLOR + c for c in self._green_colours(s)]
        elif code == Op.BODY_ODDY:  # EX-QUEEN-ODDY, EX-DECIDE-ODDY
            return [A.PASS] + self._oddy_takes(s, p)
        elif code == Op.ELEGANZA:  # EX-CAT-ELEGANZA: one colour of the spent rhinestones
            return [A.COLOR + c for c in range(NC) if s.spent[c]]
        elif code == Op.FLOORWERK:  # EX-CAT-FLOORWERK: one colour on the stage
            return [A.COLOR + c for c in range(NC) if c in s.stage]
        elif code == Op.SHOW_SELF:  # EX-CAT-HANDWERK: up to 3 cards from hand
            return [A.SHOW + k for k in self._showable(s, p)] + [A.STOP]
        elif code == Op.SHOW_OTHER:  # EX-CAT-HANDWERK: each nearby queen reveals 1 card
            return [A.SHOW + k for k in self._showable(s, s.todo[0].arg)]
        elif code == Op.SHADE:  # EX-CAT-SHADE, EX-DECIDE-SHADE
            return [A.JUDGE + j for j in range(C.NUM_JUDGES) if s.display[j] >= 0 and j not in s.shade_picked]
        elif code == Op.BLOOD:  # EX-QUEEN-BLOOD
            return [A.LYRICS_OF + k for k in self._blood_sources(s, p)]
        else:
            raise ValueError(f"no decision at op {code}")
        out += [A.REVEAL + r for r in self._playable_reveals(s, p)]  # EX-DECIDE-REVEAL: the last segment
        return out

    def destinations(self, s: State, p: int) -> list[int]:
        """Spaces the queen of `p` may move to (EX-MOVE-1, EX-MOVE-2)."""
        return [a - A.SPACE for a in self._destination_actions(s, p)]

    def _destination_actions(self, s: State, p: int) -> list[int]:
        """The `space` actions of the move, ascending: every space along a line from the queen that
        no queen stands on and that passes no more queens than `p` has rhinestones to pay."""
        pos = s.pos
        start = pos[p]
        others = [*filter(start.__ne__, pos)]
        beyond = C.MOVE_BEYOND[start]
        stones = sum(s.supply[p])
        if stones >= len(others):  # every passing paid for: only the queens' spaces are barred
            barred = set(others)
        elif stones == 0 or len(others) == 1:  # no queen may be passed
            barred = set(others).union(*[beyond[x] for x in others])
        else:  # 2 or 3 other queens, fewer rhinestones: barred where more than `stones` are passed
            barred = set(others)
            passes: dict[int, int] = {}
            for x in others:
                for d in beyond[x]:
                    passes[d] = passes.get(d, 0) + 1
            barred.update(d for d, k in passes.items() if k > stones)
        return [A.SPACE + sp for sp in C.MOVE_DESTS[start] if sp not in barred]

    def _resources(self, s: State, p: int, playing: int, cards: list[int] | None = None) -> tuple[list[int], int]:
        """Per colour, the items that can pay as that colour (actual rhinestones, hand and played cards,
        Stage Presence), and the wild ones (Green Screen's green rhinestones). `cards`: the hand's
        cards (_held), where the caller has them."""
        sup = s.supply[p]
        a = list(sup)
        if cards is None:
            cards = _held(s.hands[p])
        for k in cards:  # EX-DANCE-3 (one copy of each card)
            a[k % NC] += 1
        for k in s.stacks[p]:  # EX-DANCE-3
            a[k % NC] += 1
        wild = 0
        if self.powers:
            queen = s.queen[p]
            if queen == C.TART:  # EX-QUEEN-GREEN: green rhinestones in supply as any colour
                wild = sup[GREEN]
                a[GREEN] -= wild
            elif queen == C.KIKI and not s.stage_used and s.pos[p] >= 0:  # EX-QUEEN-PRESENCE
                a[self.areas[s.pos[p]]] += 1
        return a, wild

    def _danceable_colours(self, s: State, p: int, cards: list[int]) -> list[bool]:
        """Per colour, whether a hand card of it is payable for one star (EX-DANCE-1): all of
        them or none, as the card itself cannot pay for itself."""
        a, wild = self._resources(s, p, -1, cards)
        out = [False] * NC
        if not wild:  # a pair of another colour, or three of the card's
            twos = 0
            for x in a:
                if x >= 2:
                    twos += 1
            for k in cards:
                x = a[k % NC]
                out[k % NC] = x >= 3 or twos > (x >= 2)
            return out
        for k in cards:
            c = k % NC
            if not out[c]:
                a[c] -= 1
                out[c] = _max_pairs(a, wild) >= 1
                a[c] += 1
        return out

    def _any_danceable(self, s: State, p: int) -> bool:
        hand = s.hands[p]
        if hand.find(1) < 0:  # no card (counts are 0 or 1)
            return False
        tart = self.powers and s.queen[p] == C.TART
        twos = 0
        for c, x in enumerate(s.supply[p]):  # a pair left over whatever the card: any card is payable
            if x >= 2 and not (tart and c == GREEN):
                if x >= 3:
                    return True
                twos += 1
        return twos >= 2 or any(self._danceable_colours(s, p, _held(hand)))

    def danceable(self, s: State, p: int) -> list[int]:
        """Cards in hand payable for at least one star (EX-DANCE-1)."""
        cards = _held(s.hands[p])
        if not cards:
            return cards
        ok = self._danceable_colours(s, p, cards)
        return [k for k in cards if ok[k % NC]]

    def _star_options(self, s: State, p: int, k: int) -> int:
        """How many star counts (1..n) the card being danced can be paid for (EX-DANCE-1)."""
        a, wild = self._resources(s, p, k)
        return min(C.CARD_STARS[k], _max_pairs(a, wild))

    def _halves(self, s: State, p: int) -> list[int]:
        """The payment halves that leave the rest of the payment still payable (EX-DANCE-1..3)."""
        queen = s.queen[p] if self.powers else -1
        if queen == C.TART:
            return self._tart_halves(s, p)
        cards = _held(s.hands[p])
        a, _ = self._resources(s, p, s.playing, cards)
        sup = s.supply[p]
        stack = s.stacks[p]
        stage = -1  # EX-QUEEN-PRESENCE: the colour of her space, if she may pay with it
        if queen == C.KIKI and not s.stage_used:
            stage = self.areas[s.pos[p]]
        half = s.half
        left = s.stars - s.paid  # pairs still to complete, the open one included
        pairs = _max_pairs(a, 0)
        out = []
        if half >= 0:  # closing the pair: an item of its colour, one fewer of it
            x = a[half]
            if x > 0 and pairs - (x >> 1) + ((x - 1) >> 1) >= left - 1:
                if sup[half]:
                    out.append(A.PAY_STONE + half)
                for k in (sorted(cards + stack) if stack else cards):
                    if k % NC == half:
                        out.append(A.PAY_CARD + k)
                if stage == half:
                    out.append(A.PAY_STAGE)
        elif pairs >= left:  # opening a pair: it needs a second item of the colour (_can_finish)
            for c in _COLOUR_IDS:
                if sup[c] and a[c] >= 2:
                    out.append(A.PAY_STONE + c)
            for k in (sorted(cards + stack) if stack else cards):
                if a[k % NC] >= 2:
                    out.append(A.PAY_CARD + k)
            if stage >= 0 and a[stage] >= 2:
                out.append(A.PAY_STAGE)
        return out

    def _tart_halves(self, s: State, p: int) -> list[int]:
        """_halves for Modern Tart, whose green rhinestones are wild (EX-QUEEN-GREEN)."""
        cards = _held(s.hands[p])
        a, wild = self._resources(s, p, s.playing, cards)
        half = s.half
        left = s.stars - s.paid  # pairs still to complete, the open one included
        # Per colour, whether an item of it (a rhinestone, a card) may pay this half; an open half
        # takes its own colour only.
        payable = [False] * NC

        def ok(colour: int, from_a: bool) -> bool:
            if from_a:
                a[colour] -= 1
                w = wild
            else:
                w = wild - 1
            if half >= 0:
                good = _max_pairs(a, w) >= left - 1
            else:
                good = _can_finish(a, w, colour, left)
            if from_a:
                a[colour] += 1
            return good

        for c in ((half,) if half >= 0 else _COLOUR_IDS):
            payable[c] = a[c] > 0 and ok(c, True)
        sup = s.supply[p]
        out = []
        for c in _COLOUR_IDS:
            if not sup[c]:
                continue
            if c == GREEN:  # her green rhinestone paying as green: one of the wild ones
                if (half < 0 or half == GREEN) and ok(GREEN, False):
                    out.append(A.PAY_STONE + GREEN)
            elif payable[c]:
                out.append(A.PAY_STONE + c)
        if wild:  # EX-QUEEN-GREEN: a green rhinestone as another colour
            out += [A.PAY_GREEN + c for c in _COLOUR_IDS
                    if c != GREEN and (half < 0 or half == c) and ok(c, False)]
        if True in payable:
            stack = s.stacks[p]
            out += [A.PAY_CARD + k for k in (sorted(cards + stack) if stack else cards) if payable[k % NC]]
        return out

    def _can_claim(self, s: State, p: int) -> bool:
        if not s.stacks[p] or s.song_next >= self.song_length:  # EX-LIP-3: no played card, no lip sync
            return False
        return s.lips[p] >= C.LYRIC_STARS[s.song[s.song_next]]

    def _green_colours(self, s: State) -> list[int]:
        colours = {GREEN}
        for sp in s.path:
            if s.stage[sp] >= 0:
                colours.add(s.stage[sp])
        return sorted(colours)

    def nearby_seats(self, s: State, p: int) -> list[int]:
        """Seats whose queens stand nearby `p`'s, from her left (EX-NEARBY-1)."""
        around = C.NEARBY[s.pos[p]]
        return [q for q in ((p + i) % self.n for i in range(1, self.n)) if s.pos[q] in around]

    def _oddy_takes(self, s: State, p: int) -> list[int]:
        mine = s.supply[p]
        out = []
        for q in self.nearby_seats(s, p):
            if q in s.oddy_done:
                continue
            k = (q - p) % self.n - 1
            out += [A.TAKE + k * NC + c for c in range(NC) if s.supply[q][c] and not mine[c]]
        return out

    def _showable(self, s: State, p: int) -> list[int]:
        hand = s.hands[p]
        return [k for k in _held(hand) if hand[k] > s.shown.count(k)]

    def _blood_sources(self, s: State, p: int) -> list[int]:
        return [0] + [(q - p) % self.n for q in self.nearby_seats(s, p) if s.lyrics[q]]

    def _playable_reveals(self, s: State, p: int) -> list[int]:
        """EX-REVEAL-1: the reveal cards `p` may play now (with 10s & Reveals, once a turn), ascending."""
        if not self.tens_on or s.revealed_turn:
            return []
        return self._reveals_met(s, s.reveal_hands[p])

    def reveal_met(self, s: State, r: int) -> bool:
        """EX-REVEAL-2: reveal card r's condition was met this turn (whoever holds it)."""
        return r in self._reveals_met(s, _ALL_REVEALS)

    def _reveals_met(self, s: State, hand: Any) -> list[int]:
        """EX-REVEAL-2: the reveal cards in `hand` (counts per id) whose condition was met this turn,
        ascending: the conditions are checked in id order, and only condition 4 is met in several colours."""
        k = s.danced
        if k < 0 and s.moved < 3 and not s.spent_actual & s.spent_cards:  # no dance, no long move: none
            return []
        of = _REVEAL_OF
        out = []
        if k >= 0:
            c = k % NC
            area = s.dance_area
            r = of[c]  # a dance move of the colour within the matching area
            if c == area and r != _NO_REVEAL and hand[r]:
                out.append(r)
            r = of[NC + area]  # a discarded card of the colour AND dance in the matching area
            if s.spent_cards >> area & 1 and r != _NO_REVEAL and hand[r]:
                out.append(r)
        if s.moved >= 3:  # move 3+ spaces, land on a space of the colour
            r = of[2 * NC + self.areas[s.landed]]
            if r != _NO_REVEAL and hand[r]:
                out.append(r)
        if k >= 0:  # an actual rhinestone AND a dance move, both of the colour
            r = of[3 * NC + c]
            if s.spent_actual >> c & 1 and r != _NO_REVEAL and hand[r]:
                out.append(r)
        both = s.spent_actual & s.spent_cards
        if both:  # an actual rhinestone AND a discarded card, both of the colour
            for r in _REVEALS_BOTH[both]:
                if hand[r]:
                    out.append(r)
        c = s.land_colour
        if s.moved >= 3 and s.landed_stone >= 0 and c >= 0:  # move 3+ spaces and land on a rhinestone of the colour
            r = of[5 * NC + c]
            if r != _NO_REVEAL and hand[r]:
                out.append(r)
        return out

    # Transitions ------------------------------------------------------------------------------

    def apply_legal(self, s: State, action: int) -> None:
        todo = s.todo
        head = todo[0]
        if s.tell is not None:
            s.tell(F.Acted(head, action))
        if head.op >= Op.DRAFT:  # a decision
            self._decide(s, head.op, head.arg, action)
        else:
            del todo[0]
            self._chance(s, head.op, head.arg, action)
        self._advance(s)

    def _chance(self, s: State, code: int, arg: int, a: int) -> None:
        if code == Op.FILL:  # EX-BEDAZZLE-1, EX-SETUP-4
            s.bag.take(a)
            s.stage[arg] = a
            if s.turn >= 0:
                s.bedazzled.append(arg)
        elif code == Op.GIFT:  # EX-SETUP-6, EX-QUEEN-CHERRY, a reveal's rhinestones
            s.bag.take(a)
            s.supply[arg][a] += 1
            if s.tell is not None:
                s.tell(F.StoneFromBag(arg, a))
        elif code == Op.FLIP:  # EX-SETUP-2, EX-DRAW-2
            s.decks[arg].take(a)
            s.display[arg] = a
        elif code == Op.LYRIC:  # EX-SETUP-3
            s.lyric_box.take(a)
            s.song[arg] = a
        elif code == Op.CATEGORY:  # EX-SETUP-1
            self._set_category(s, arg, a)
        elif code == Op.FIRST:  # EX-SETUP-5
            s.first = a
        elif code == Op.QUEEN_DEAL:  # EX-SETUP-8
            s.queen[arg] = a
        elif code == Op.REVEAL_DEAL:  # EX-TEN-1
            s.reveal_box.take(a)
            s.reveal_hands[arg][a] += 1
        elif code == Op.DESIRE_DEAL:  # EX-DESIRE-1, EX-DESIRE-3
            s.desire_stack.take(a)
            s.desire_face[arg] = a

    def _decide(self, s: State, code: int, arg: int, a: int) -> None:
        """Carry out decision `a` on the step at the front: the step gives way to what it causes (or
        stays, for another round of the same decision)."""
        p = s.turn
        if A.REVEAL <= a:  # EX-REVEAL-1: the step stays where it was
            self._reveal(s, p, a - A.REVEAL)
            return
        todo = s.todo
        if code == Op.HALF:
            paid = self._pay_half(s, p, a)
            if paid is not None:  # paid: the step gives way to what follows
                todo[0:1] = paid
            return
        if code == Op.MOVE:
            if a == A.PASS:
                del todo[0]
            else:
                todo[0:1] = self._move(s, p, a - A.SPACE)
            return
        if code == Op.DRAW:
            if a == A.PASS:
                del todo[0]
            else:
                j = a - A.DRAW
                self._draw(s, p, j)
                todo[0] = Step(Op.FLIP, j)  # EX-DRAW-2
            return
        if code == Op.LIP_SYNC:
            if a == A.CLAIM:  # EX-LIP-1: the next token, in song order, for its words in lips; the step stays
                t = s.song[s.song_next]
                s.lips[p] -= C.LYRIC_STARS[t]
                s.lip_supply += C.LYRIC_STARS[t]
                s.claiming.append(t)
                if s.tell is not None:
                    s.tell(F.LyricClaimed(p, t))
                if s.song_next == self.flag_slot:  # EX-END-1: the flag is revealed
                    s.end_triggered = True
                    if s.tell is not None:
                        s.tell(F.FlagRevealed())
                s.song_next += 1
            elif s.claiming:
                todo[0:1] = ([Step(Op.BLOOD), Step(Op.SCORE_LYRICS)] if self._is(s, p, C.ANNE)
                             else [Step(Op.SCORE_LYRICS)])
            else:
                del todo[0]
            return
        if code == Op.DANCE:
            if a == A.PASS:
                del todo[0]
            else:
                todo[0] = self._dance(s, p, a - A.DANCE)
            return
        if code == Op.STARS:
            s.stars = a - A.STARS + 1
            todo[0] = Step(Op.HALF)
            return
        del todo[0]
        front: list[Step] = []
        if code == Op.PAY_QUEEN:  # EX-MOVE-2: paid to the queen passed
            c = a - A.COLOR
            s.supply[p][c] -= 1
            s.supply[arg][c] += 1
            if s.tell is not None:
                s.tell(F.StonePaidToQueen(p, arg, c))
        elif code == Op.GREEN_LAND:  # EX-DECIDE-GREEN
            s.land_colour = a - A.COLOR
        elif code == Op.BODY_ODDY:  # EX-QUEEN-ODDY
            if a != A.PASS:
                k, c = divmod(a - A.TAKE, NC)
                q = (p + k + 1) % self.n
                s.supply[q][c] -= 1
                s.supply[p][c] += 1
                s.oddy_done.append(q)  # EX-DECIDE-ODDY: one rhinestone a landing, from one nearby queen
                if s.tell is not None:
                    s.tell(F.StoneTaken(p, q, c))
        elif code == Op.BLOOD:  # EX-QUEEN-BLOOD
            k = a - A.LYRICS_OF
            s.blood_from = -1 if k == 0 else (p + k) % self.n
        elif code == Op.END_REVEAL:
            pass
        elif code == Op.PLACE:  # EX-SETUP-7
            sp = a - A.SPACE
            s.pos[arg] = sp
            c = s.stage[sp]
            if c >= 0:
                s.stage[sp] = -1
                s.supply[arg][c] += 1
                if s.tell is not None:
                    s.tell(F.StonePicked(arg, sp, c))
        elif code == Op.DRAFT:  # EX-SETUP-8
            s.queen[arg] = a - A.QUEEN
        elif code == Op.SETUP_DRAW:  # EX-SETUP-6
            j = a - A.DRAW
            k = s.display[j]
            s.hands[arg][k] += 1
            s.display[j] = -1
            front = [Step(Op.FLIP, j)]
            if s.tell is not None:
                s.tell(F.Drew(arg, j, k))
        elif code == Op.PIROUETTE:  # EX-QUEEN-PIROUETTE
            if a != A.PASS:
                sp = a - A.SPACE
                c = s.stage[sp]
                s.supply[p][c] += 1
                s.stage[sp] = -1
                if s.tell is not None:
                    s.tell(F.StonePicked(p, sp, c))
        elif code == Op.ELEGANZA or code == Op.FLOORWERK:
            s.choice = a - A.COLOR
        elif code == Op.SHOW_SELF:  # EX-CAT-HANDWERK
            if a != A.STOP:
                s.shown.append(a - A.SHOW)
                s.shown_self += 1
                if s.shown_self < 3:
                    front = [Step(Op.SHOW_SELF)]
        elif code == Op.SHOW_OTHER:
            s.shown.append(a - A.SHOW)
        elif code == Op.SHADE:  # EX-CAT-SHADE: discarded, removed from the game
            j = a - A.JUDGE
            k = s.display[j]
            s.shade_stars += C.CARD_STARS[k]
            s.removed[k] += 1
            s.display[j] = -1
            s.shade_picked.append(j)
            if len(s.shade_picked) < 3:
                front = [Step(Op.SHADE)]
        if front:
            todo[0:0] = front

    def _advance(self, s: State) -> None:
        """Carry out automatic steps (and decisions with one legal action) until a real decision or chance."""
        todo = s.todo
        while todo:
            head = todo[0]
            code = head.op
            if code < 10:
                arg = head.arg
                if code == Op.FILL or code == Op.GIFT:
                    if code == Op.FILL and (s.stage[arg] >= 0 or arg in s.pos):
                        todo.pop(0)
                        continue
                    if s.bag.n == 0 and any(s.spent):  # EX-BEDAZZLE-2: the spent rhinestones go back
                        s.bag.refill(s.bag.counts[c] + s.spent[c] for c in range(NC))
                        s.spent = [0] * NC
                    if s.bag.n == 0:
                        todo.pop(0)
                        continue
                elif code == Op.FLIP:
                    if s.decks[arg].n == 0 or s.display[arg] >= 0:
                        todo.pop(0)
                        continue
                elif code == Op.DESIRE_DEAL:
                    if s.desire_stack.n == 0 or s.desire_face[arg] >= 0:
                        todo.pop(0)
                        continue
                return
            if code < 40:
                if code in _OPTIONAL_STEPS:  # a pass (a stop) is always legal: is there more?
                    p = s.turn
                    if code == Op.MOVE:
                        pos = s.pos
                        for sp in C.NEARBY[pos[p]]:  # a free space next to her: a move of one, nobody passed
                            if sp not in pos:
                                return
                        if self._destination_actions(s, p):
                            return
                    elif code == Op.DRAW:
                        if s.display != _NO_DISPLAY:
                            return
                    elif code == Op.LIP_SYNC:
                        if self._can_claim(s, p):
                            return
                    elif code == Op.DANCE:
                        if self._any_danceable(s, p):
                            return
                    if self._playable_reveals(s, p):
                        return
                    if code == Op.LIP_SYNC and s.claiming:
                        self._decide(s, code, head.arg, A.STOP)
                    else:  # nothing to decide: the pass (the stop, nothing claimed), which does nothing
                        del todo[0]
                    continue
                if code == Op.STARS:  # _dance queues it only with two star counts or more
                    return
                legal = self.legal_actions(s)
                if not legal:
                    todo.pop(0)
                    continue
                if len(legal) == 1:  # nothing to decide
                    self._decide(s, code, head.arg, legal[0])
                    continue
                return
            # An automatic step: it gives way to what it causes.
            if code == Op.START_TURN:
                todo[0:1] = self._start_turn(s, head.arg)
            elif code == Op.END_TURN:
                todo[0:1] = self._end_turn(s, s.turn)
            elif code == Op.CLEAR_BEDAZZLED:
                del todo[0]
                s.bedazzled = []
            elif code == Op.COLLECT:
                p = s.turn
                self._collect(s, p)
                if self.powers and s.queen[p] == C.ELLA:  # EX-QUEEN-ODDY: after taking the landing rhinestone
                    todo[0] = Step(Op.BODY_ODDY)
                else:
                    del todo[0]
            elif code == Op.SCORE_DANCE:
                todo[0:1] = self._score_dance(s, s.turn)
            elif code == Op.SCORE_LYRICS:
                del todo[0]
                self._score_lyrics(s, s.turn)
            else:
                del todo[0]
                self._auto(s, code, head.arg)

    def _auto(self, s: State, code: int, arg: int) -> None:
        """The rarer automatic steps (_advance has the others)."""
        front: list[Step] = []
        if code == Op.SHOWN_BY_OTHERS:  # EX-CAT-HANDWERK: nearby queens reveal 1 card each
            front = [Step(Op.SHOW_OTHER, q) for q in self.nearby_seats(s, s.turn)]
        elif code == Op.LIP:
            self._give_lips(s, arg, 1)
        elif code == Op.SETUP:
            n = self.n
            order = [(s.first + i) % n for i in range(n)]
            deal = Op.DRAFT if self.config.queens == "draft" else Op.QUEEN_DEAL  # EX-SETUP-8
            front = [Step(deal, p) for p in order]
            for i, p in enumerate(order):  # EX-SETUP-6: by seat from the first player
                if i >= 1:
                    front.append(Step(Op.GIFT, p))
                if i >= 2:
                    front.append(Step(Op.LIP, p))
                if i >= 3:
                    front.append(Step(Op.SETUP_DRAW, p))
            front += [Step(Op.PLACE, p) for p in order]  # EX-SETUP-7
            s.turn = -1
            front.append(Step(Op.START_TURN, s.first))
        if front:
            s.todo[0:0] = front

    def _is(self, s: State, p: int, queen: int) -> bool:
        return self.powers and s.queen[p] == queen

    # The turn ---------------------------------------------------------------------------------

    def _start_turn(self, s: State, p: int) -> list[Step]:
        was = s.turn
        s.turn = p
        s.turns[p] += 1
        if s.tell is not None:
            s.tell(F.TurnBegan(p, was))
        s.moved = s.passed = s.strut = 0
        s.path = []
        s.landed = s.landed_stone = s.land_colour = -1
        s.oddy_done = []
        s.danced = s.dance_area = -1
        s.spent_actual = s.spent_cards = 0
        s.turn_points = [0] * C.NUM_JUDGES
        s.revealed_turn = False
        front = self._bedazzle(s, p, self.area_spaces[self.areas[s.pos[p]]])  # EX-BEDAZZLE-1
        front += _TURN_STEPS
        return front  # EX-TURN-1

    def _bedazzle(self, s: State, p: int, spaces: Any) -> list[Step]:
        """Fill the empty, unoccupied `spaces` from the bag; then Pirouette (EX-QUEEN-PIROUETTE)."""
        pos = s.pos
        stage = s.stage
        fills = []
        for sp in spaces:
            if stage[sp] < 0 and sp not in pos:
                fills.append(Step(Op.FILL, sp))
        if not fills:
            return fills
        s.bedazzled = []
        if self._is(s, p, C.VICTORIA):
            fills.append(Step(Op.PIROUETTE))
        return fills + [Step(Op.CLEAR_BEDAZZLED)]

    @staticmethod
    def _passes(pos: list[int], path: list[int]) -> bool:
        """Whether a queen stands on `path`."""
        for x in pos:
            if x in path:
                return True
        return False

    def _move(self, s: State, p: int, dest: int) -> list[Step]:
        """EX-MOVE-1: along the line to `dest`; EX-MOVE-2: pay each queen passed."""
        pos = s.pos
        path = list(C.MOVE_PATH[pos[p]][dest])
        s.path = path
        pos[p] = dest
        s.moved = len(path) + 1
        s.landed = dest
        passed = [q for sp in path for q in range(self.n) if pos[q] == sp] if self._passes(pos, path) else []
        s.passed = len(passed)
        front = [Step(Op.PAY_QUEEN, q) for q in passed]
        s.landed_stone = s.stage[dest]
        s.land_colour = s.landed_stone
        if s.landed_stone == GREEN and self._is(s, p, C.TART):
            front.append(Step(Op.GREEN_LAND))  # EX-DECIDE-GREEN: she names the colour
        front.append(Step(Op.COLLECT))
        return front

    def _collect(self, s: State, p: int) -> None:
        """EX-MOVE-3: the landing rhinestone and those of its colour passed."""
        dest = s.pos[p]
        if s.stage[dest] < 0:
            return
        colour = s.land_colour
        tart = self._is(s, p, C.TART)
        sup = s.supply[p]
        s.stage[dest] = -1
        sup[colour] += 1  # EX-QUEEN-GREEN: a green named another colour is no longer green
        count = 1
        for sp in s.path:
            c = s.stage[sp]
            if c == colour or (tart and c == GREEN):  # EX-DECIDE-GREEN: passed greens count as the colour
                s.stage[sp] = -1
                sup[colour] += 1
                count += 1
        if s.tell is not None:
            s.tell(F.Collected(p, colour, count))

    def _give_lips(self, s: State, p: int, k: int) -> None:
        k = min(k, s.lip_supply)
        s.lip_supply -= k
        s.lips[p] += k
        if s.tell is not None:
            s.tell(F.LipsTaken(p, k))

    def draw_lips(self, s: State, p: int, j: int) -> int:
        """EX-DRAW-1: the lips `p` earns drawing judge j's display card (0: none there), a lip per display
        card of its colour (itself included) and per played card of it (before the supply runs short)."""
        display = s.display
        k = display[j]
        if k < 0:
            return 0
        c = k % NC
        n = sum(1 for x in display if x >= 0 and x % NC == c) + sum(1 for x in s.stacks[p] if x % NC == c)
        if n <= 2 and self.powers and s.queen[p] == C.SAVANNAH:  # EX-QUEEN-LINGUIST: one more, up to 3
            n += 1
        return n

    def lips_by_judge(self, s: State, p: int) -> list[int]:
        """EX-DRAW-1: per judge, draw_lips."""
        return [self.draw_lips(s, p, j) for j in _JUDGE_IDS]

    def _jen_colours(self, s: State, p: int, supply: list[int]) -> set[int] | None:
        """Tuckingham Palace (EX-QUEEN-TUCKINGHAM): the colours among `supply` and the played cards, which
        the rules add to her dance and the views count ahead (None: not her)."""
        if not self._is(s, p, C.JEN):
            return None
        return {c for c in _COLOUR_IDS if supply[c]} | {x % NC for x in s.stacks[p]}

    def _draw(self, s: State, p: int, j: int) -> None:
        """EX-DRAW-1: the card and its lips (then its deck flips the next: EX-DRAW-2)."""
        n = self.draw_lips(s, p, j)
        k = s.display[j]
        s.hands[p][k] += 1
        s.display[j] = -1
        if s.tell is not None:
            s.tell(F.Drew(p, j, k))
        self._give_lips(s, p, n)

    def _dance(self, s: State, p: int, k: int) -> Step:
        """EX-DANCE-1: play `k`, then its stars and each half of each pair (the step that follows)."""
        s.hands[p][k] -= 1
        s.playing = k
        if s.tell is not None:
            s.tell(F.Danced(p, k))
        s.paid = 0
        s.half = -1
        s.stage_used = False
        s.stars = 0
        options = self._star_options(s, p, k)
        if options == 1:
            s.stars = 1
            return Step(Op.HALF)
        return Step(Op.STARS)

    def _pay_half(self, s: State, p: int, a: int) -> list[Step] | None:
        """One half of a pair (EX-DANCE-1, EX-DANCE-2, EX-DANCE-3); then the next (None: the step
        stays), or the dance goes on."""
        if a < A.PAY_GREEN:  # pay_stone
            c = a - A.PAY_STONE
            s.supply[p][c] -= 1
            s.spent[c] += 1  # EX-DANCE-4: put aside, not in the bag
            s.spent_actual |= 1 << c
            if s.tell is not None:
                s.tell(F.StoneSpent(p, c, False))
        elif a < A.PAY_CARD:  # pay_green: EX-QUEEN-GREEN: a green used as colour c is no longer green
            c = a - A.PAY_GREEN
            s.supply[p][GREEN] -= 1
            s.spent[c] += 1
            s.spent_actual |= 1 << c
            if s.tell is not None:
                s.tell(F.StoneSpent(p, c, True))
        elif a < A.PAY_STAGE:  # pay_card: EX-DANCE-3: discarded as its printed rhinestone, out of the game
            k = a - A.PAY_CARD
            c = C.CARD_COLOUR[k]
            from_hand = s.hands[p][k] > 0
            if from_hand:
                s.hands[p][k] -= 1
            else:
                s.stacks[p].remove(k)
            s.removed[k] += 1
            s.spent_cards |= 1 << c
            if s.tell is not None:
                s.tell(F.CardSpent(p, k, from_hand))
        else:  # pay_stage: EX-QUEEN-PRESENCE, not an actual rhinestone
            c = self.areas[s.pos[p]]
            s.stage_used = True
        if s.half < 0:
            s.half = c
            return None
        s.half = -1
        s.paid += 1
        if s.paid < s.stars:
            return None
        return self._after_payment(s, p)

    def _after_payment(self, s: State, p: int) -> list[Step]:
        k = s.playing
        s.danced = k
        s.dance_area = self.areas[s.pos[p]]
        front = []
        if self._is(s, p, C.LANA):  # EX-QUEEN-CHERRY: after paying, before scoring
            front.append(Step(Op.GIFT, p))
        cat = C.CARD_CATEGORY[k]
        s.choice = -1
        s.shown = []
        s.shown_self = 0
        s.shade_picked = []
        s.shade_stars = 0
        if cat == C.ELEGANZA:
            front.append(Step(Op.ELEGANZA))
        elif cat == C.FLOORWERK:  # EX-CAT-FLOORWERK: bedazzle nearby first
            front += self._bedazzle(s, p, C.NEARBY[s.pos[p]])
            front.append(Step(Op.FLOORWERK))
        elif cat == C.HANDWERK:
            front += [Step(Op.SHOW_SELF), Step(Op.SHOWN_BY_OTHERS)]
        elif cat == C.SHADE:
            front.append(Step(Op.SHADE))
        front.append(Step(Op.SCORE_DANCE))
        return front

    def _score_dance(self, s: State, p: int) -> list[Step]:
        k = s.playing
        cat = C.CARD_CATEGORY[k]
        stars = s.stars
        near = self.nearby_seats(s, p)
        front: list[Step] = []
        if cat == C.BOOTY:  # EX-CAT-BOOTY
            mine = sum(s.supply[p])
            count = mine + sum(sum(s.supply[q]) for q in near if sum(s.supply[q]) < mine)
        elif cat == C.RUNWAY:  # EX-CAT-RUNWAY
            count = s.moved + 2 * s.passed + s.strut
        elif cat == C.ELEGANZA:  # EX-CAT-ELEGANZA: then back in the bag
            c = s.choice
            count = s.spent[c] if c >= 0 else 0
            if count:
                s.bag.add(c, count)
                s.spent[c] = 0
        elif cat == C.FLOORWERK:  # EX-CAT-FLOORWERK
            count = s.stage.count(s.choice) if s.choice >= 0 else 0
        elif cat == C.HANDWERK:  # EX-CAT-HANDWERK
            count = sum(C.CARD_STARS[x] for x in s.shown)
        elif cat == C.LYRICISM:  # EX-CAT-LYRICISM: the current lyric's words + colours claimed
            words = C.LYRIC_STARS[s.song[s.song_next]] if s.song_next < self.song_length else 0
            count = words + len({C.LYRIC_COLOUR[t] for t in s.lyrics[p]})
        elif cat == C.SHAWAM:  # EX-CAT-SHAWAM: empty spaces, then bedazzle the whole stage
            count = sum(1 for sp in range(C.NUM_SPACES) if s.stage[sp] < 0 and sp not in s.pos)
            front = self._bedazzle(s, p, range(C.NUM_SPACES))
        elif cat == C.SHADE:  # EX-CAT-SHADE: then each deck flips its next card (EX-DECIDE-SHADE)
            count = s.shade_stars
            front = [Step(Op.FLIP, j) for j in s.shade_picked]
        elif cat == C.TUCK:  # EX-CAT-TUCK: this card counts itself
            mine = len(s.stacks[p]) + 1
            count = mine + sum(len(s.stacks[q]) for q in near if len(s.stacks[q]) < mine)
        else:  # EX-CAT-TWIRLS
            around = {s.stage[sp] for sp in C.NEARBY[s.pos[p]] if s.stage[sp] >= 0}
            count = len(around) + sum(1 for c in s.supply[p] if c)
        points = stars * count  # EX-DANCE-6
        s.stacks[p].append(k)  # EX-DANCE-5: on top of the stack
        s.playing = -1
        colours = self._jen_colours(s, p, s.supply[p])
        if colours is not None:  # EX-QUEEN-TUCKINGHAM: the card played counts too
            points += len(colours)
        self._add_points(s, p, cat, points)
        if self.desires_on:
            self._claim_desires(s, p)
        return front

    def _add_points(self, s: State, p: int, cat: int, points: int) -> None:
        j = s.cats.index(cat)
        track = s.scores[p]
        was = track[j]
        track[j] = min(C.CATEGORY_CAP, was + points)  # EX-DANCE-6: capped at 40
        s.turn_points[j] += points  # EX-DECIDE-TEN: before the cap
        if s.tell is not None:
            s.tell(F.Scored(p, j, track[j] - was))

    def desire_met(self, s: State, d: int) -> bool:
        return bool(self._desires_met(s) >> d & 1)

    def _desires_met(self, s: State) -> int:
        """EX-DESIRE-4: the desire kinds (type * 5 + colour) the dance just made fulfils, a bit per kind."""
        actual = s.spent_actual
        cards = s.spent_cards
        card = 1 << s.danced % NC
        area = 1 << s.dance_area
        return (actual | card << NC | area << 2 * NC | cards << 3 * NC
                | (actual & area) << 4 * NC | (cards & card) << 5 * NC)

    def _claim_desires(self, s: State, p: int) -> None:
        met = self._desires_met(s)
        face = s.desire_face
        for j in _JUDGE_IDS:  # EX-DESIRE-2: from several judges at once
            d = face[j]
            if d >= 0 and met >> d & 1:
                face[j] = -1
                s.desires[p][j] += 1
                if s.tell is not None:
                    s.tell(F.DesireClaimed(p, j))

    def _score_lyrics(self, s: State, p: int) -> None:
        """EX-LIP-2: the claimed tokens' stars + held lyrics matching a colour claimed now."""
        claimed = s.claiming
        colours = {C.LYRIC_COLOUR[t] for t in claimed}
        held = s.lyrics[p] if s.blood_from < 0 else s.lyrics[s.blood_from]  # EX-QUEEN-BLOOD
        points = sum(C.LYRIC_STARS[t] for t in claimed)
        points += sum(C.LYRIC_STARS[t] for t in held if C.LYRIC_COLOUR[t] in colours)
        s.lyrics[p] += claimed
        s.claiming = []
        s.blood_from = -1
        self._add_points(s, p, C.CARD_CATEGORY[s.stacks[p][-1]], points)  # EX-LIP-3: the top card's category

    def _reveal(self, s: State, p: int, r: int) -> None:
        """EX-REVEAL-1: free, once a turn; N = categories 10'd so far."""
        s.reveal_hands[p][r] -= 1
        s.revealed[p].append(r)
        s.revealed_turn = True
        n = sum(s.tens[p])
        reward = C.REVEAL_REWARD[r]
        front: list[Step] = []
        if reward == C.LIPS_REWARD:
            self._give_lips(s, p, n)
        elif reward == C.STONES_REWARD:
            front = [Step(Op.GIFT, p)] * n
        elif reward == C.STRUT_REWARD:
            s.strut += n
        elif n:  # bedazzle up to N empty nearby spaces, reading order
            spaces = [sp for sp in C.NEARBY[s.pos[p]] if s.stage[sp] < 0 and sp not in s.pos][:n]
            front = self._bedazzle(s, p, spaces)
        s.todo[0:0] = front

    def _end_turn(self, s: State, p: int) -> list[Step]:
        if self.tens_on and max(s.turn_points) >= 10:  # EX-TEN-2: 10+ points in a category this turn
            for j in _JUDGE_IDS:
                if s.turn_points[j] >= 10 and not s.tens[p][j] and s.tens_left[j]:
                    s.tens[p][j] = 1
                    s.tens_left[j] -= 1
                    if s.tell is not None:
                        s.tell(F.TenEarned(p, j))
        front = []
        if self.desires_on and -1 in s.desire_face:  # EX-DESIRE-3
            front = [Step(Op.DESIRE_DEAL, j) for j in range(C.NUM_JUDGES) if s.desire_face[j] < 0]
        nxt = (p + 1) % self.n  # EX-TURN-1: clockwise
        last = nxt == s.first
        if last and (s.end_triggered or s.turns[p] >= MAX_ROUNDS):  # EX-END-1, EX-DECIDE-ROUNDS
            s.todo.clear()
            self._finish(s)
            return []
        return front + [Step(Op.START_TURN, nxt)]

    # The end -----------------------------------------------------------------------------------

    def final_scores(self, s: State) -> list[int]:
        """Judge Deliberation (EX-FINAL-1..5), per seat."""
        extra = self.review_tokens(s)
        return [self.score_breakdown(s, q, extra[q])["total"] for q in range(self.n)]

    def review_tokens(self, s: State) -> list[list[int]]:
        """The Category Review's extra desire token per seat and judge (with Judge Desires)."""
        n = self.n
        extra = [[0] * C.NUM_JUDGES for _ in range(n)]
        if self.desires_on:  # EX-FINAL-3, EX-DECIDE-REVIEW: the highest in each category
            for j in range(C.NUM_JUDGES):
                top = max(s.scores[q][j] for q in range(n))
                if top > 0:
                    for q in range(n):
                        if s.scores[q][j] == top:
                            extra[q][j] += 1
        return extra

    def seat_facts(self, s: State) -> list[dict[str, Any]]:
        """Each seat's queen, points per category in play and final score by source (`d2r balance`)."""
        extra = self.review_tokens(s)
        out = []
        for q in range(self.n):
            facts: dict[str, Any] = {"queen": C.QUEENS[s.queen[q]] if s.queen[q] >= 0 else "none"}
            for j, cat in enumerate(s.cats):
                if cat >= 0:
                    facts[f"points {C.CATEGORIES[cat]}"] = s.scores[q][j]
            for key, value in self.score_breakdown(s, q, extra[q]).items():
                facts[f"final {key}"] = value
            facts["lyrics claimed"] = len(s.lyrics[q])
            out.append(facts)
        return out

    def score_breakdown(self, s: State, q: int, extra: list[int] | None = None) -> dict[str, int]:
        extra = extra or [0] * C.NUM_JUDGES
        scores = s.scores[q]
        tens = min(scores) if self.tens_on and all(s.tens[q]) else 0  # EX-FINAL-1
        diversity = C.LYRIC_DIVERSITY[len({C.LYRIC_COLOUR[t] for t in s.lyrics[q]})]  # EX-FINAL-2
        review = sum(scores)  # EX-FINAL-3
        tokens = [s.desires[q][j] + extra[j] for j in range(C.NUM_JUDGES)] if self.desires_on else [0] * 5
        sets = 10 * min(tokens)  # EX-FINAL-4
        judges = sum(t * pts for t, pts in zip(tokens, C.JUDGE_POINTS))  # EX-FINAL-5
        return {"tens": tens, "diversity": diversity, "review": review, "sets": sets, "judges": judges,
                "total": tens + diversity + review + sets + judges}

    def _finish(self, s: State) -> None:
        s.over = True
        s.final = self.final_scores(s)
        if s.tell is not None:
            s.tell(F.GameOver())

    def returns(self, s: State) -> list[float]:
        if not s.over:
            return [0.0] * self.n
        best = max(s.final)
        tied = s.final.count(best)
        if tied == 1:  # EX-FINAL-6
            return [1.0 if f == best else -1.0 for f in s.final]
        return [0.0 if f == best else -1.0 for f in s.final]  # EX-DECIDE-TIE

    def scores(self, s: State) -> list[float] | None:
        """Each seat's final score (EX-FINAL-6), None before the end."""
        return [float(f) for f in s.final] if s.over else None

    # Hidden information --------------------------------------------------------------------------

    def redeterminise(self, state: State, player: int, rng: Any) -> State:
        """EX-DECIDE-HIDDEN: the other hands and the decks are dealt anew, each deck from its own
        category's hidden cards keeping its size, the rest among the other hands keeping theirs (the
        cards a Handwerk has just shown stay put); the others' reveal cards with the unused ones."""
        t = self.clone(state)
        others = [q for q in range(self.n) if q != player]
        shown = set(t.shown)
        leftover: list[int] = []
        for j in range(C.NUM_JUDGES):
            if t.cats[j] < 0:
                continue
            deck = t.decks[j]
            pool = [k for k in C.category_cards(t.cats[j])
                    if deck.counts[k] or (k not in shown and any(t.hands[q][k] for q in others))]
            order = rng.permutation(len(pool))
            size = deck.n
            for k in pool:
                deck.counts[k] = 0
            for i in order[:size]:
                deck.counts[pool[i]] = 1
            deck.recount()
            leftover += [pool[i] for i in order[size:]]
        leftover.sort()
        sizes = []
        for q in others:
            hand = t.hands[q]
            sizes.append(sum(hand[k] for k in range(C.NUM_CARDS) if k not in shown))
            for k in range(C.NUM_CARDS):
                if k not in shown:
                    hand[k] = 0
        order = rng.permutation(len(leftover))
        i = 0
        for q, size in zip(others, sizes):
            for x in order[i:i + size]:
                t.hands[q][leftover[x]] += 1
            i += size
        if self.tens_on:
            deal_anew([t.reveal_hands[q] for q in others] + [t.reveal_box], rng)
        return t

    # Text -----------------------------------------------------------------------------------------

    def decision_name(self, s: State) -> str:
        if s.over:
            return "game over"
        code, arg = s.todo[0].op, s.todo[0].arg
        return narrate.decision_name(self, s, code, arg)

    def action_to_string(self, s: State, a: int) -> str:
        return narrate.action_to_string(self, s, a)

    def state_to_string(self, s: State) -> str:
        return narrate.state_to_string(self, s)
