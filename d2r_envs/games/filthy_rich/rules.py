"""Filthy Rich rules: the transition system. Plain Python; knows nothing of PettingZoo or numpy.

Where something happens, the rules tell it (facts.py) to the state's sink, `s.tell`, when one is set
(narrate.py sets one on the copy it narrates); otherwise that costs one test of `s.tell`.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from d2r_envs.core import game as core
from d2r_envs.core.game import CHANCE, TERMINAL, GameSpec
from d2r_envs.core.stamped import Grid, Owners, SeatCounts
from d2r_envs.core.zones import Deck, Zones, card_count
from d2r_envs.core.words import seat_name
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich import facts as F
from d2r_envs.games.filthy_rich.config import Config
from d2r_envs.games.filthy_rich.state import NO_OWNER, ON_AUCTION, REMOVED, ZONES, Ask, Phase, State

NAME = "filthy_rich"
VERSION = 0
MAX_GAME_LENGTH = 4000  # player decisions; the adapter truncates beyond it

K = C.NUM_KINDS
B = C.NUM_BUSINESSES
E = C.Effect
_CHANCE_PHASES = (Phase.FIRST_PLAYER, Phase.DICE, Phase.PAGE_DIE)
_DICE, _PAGE_DIE, _ACTIONS, _OVER = Phase.DICE, Phase.PAGE_DIE, Phase.ACTIONS, Phase.OVER
_LUXURY, _TAX_SELL, _TARGET, _AUCTION = Phase.LUXURY, Phase.TAX_SELL, Phase.TARGET, Phase.AUCTION
_DEAL, _DRAW, _FIRST_PLAYER = Phase.DEAL, Phase.DRAW, Phase.FIRST_PLAYER
_KINDS = range(K)
_NO_CARDS = bytes(K)  # an empty hand
_SLOT_BITS = [1 << i for i in range(C.SLOTS)]  # slot i+1 -> its bit in a sign's mask
_FILLED = (-1).__lt__  # a book cell holding a sign card (b >= 0)
_DONE, _SELL, _DISCARD, _LUXURY_A, _PLAY_B = A.DONE, A.SELL, A.DISCARD, A.LUXURY, A.PLAY - B
_PLAY, _OPEN = A.PLAY, A.OPEN
_TAX = [b.tax for b in C.BUSINESSES]
_LUX_TAX = [x.tax for x in C.LUXURIES]
_PRICE = [x.price for x in C.LUXURIES]
_SALE = [C.SELL_PER_CARD * b.size for b in C.BUSINESSES]  # FR-SELL-1
_SELLS = [A.SELL + b for b in range(B)]  # per business: its sell action
_LUXES = range(C.NUM_LUXURIES)
_CONNECTIONS = C.EFFECT_KIND[E.CONNECTIONS]
_INSURANCE = C.EFFECT_KIND[E.INSURANCE]
_BILLBOARD = C.EFFECT_KIND[E.BILLBOARD]
_OFFSHORE = C.EFFECT_KIND[E.OFFSHORE]
_RACKET = C.EFFECT_KIND[E.RACKET]
_PORTFOLIO = C.EFFECT_KIND[E.PORTFOLIO]
_TAX_MEN = [b for b, x in enumerate(C.BUSINESSES) if x.hit == C.Hit.TAX_MAN]
_PAY = [x.pay for x in C.BUSINESSES]
_MAX_FEE = [C.COVER_FEE * x.size for x in C.BUSINESSES]  # covering every card of the sign
_NOBODY = [-1] * C.SLOTS
_ROLLER_PAYS = [x.hit == C.Hit.ROLLER for x in C.BUSINESSES]
_BILLBOARD_PAY = C.CARDS[_BILLBOARD - B].amount
# Per business: (open action, slot mask, slots) for each anchor where its sign fits on a page (FR-SIGN-2).
_FITS = [[(A.OPEN + b * C.SLOTS + anchor, mask, C.SLOTS_OF[mask]) for anchor, mask in enumerate(C.PLACEMENTS[b]) if mask]
         for b in range(B)]
_A0, _A1 = C.ASSET_KINDS[0], C.ASSET_KINDS[-1] + 1  # asset kinds are contiguous (encode_fast.py checks)
_ASSET_TAX = [C.card_of(k).tax if _A0 <= k < _A1 else 0 for k in range(K)]  # per kind: tax symbols on the table
_CONNECTIONS_CUT = C.CARDS[_CONNECTIONS - B].amount
_COST = [x.cost for x in C.BUSINESSES] + [c.cost for c in C.CARDS]
# What playing a card kind needs: 0 nothing, 1 its cost (assets), 2 another player's business (Fire).
_NEEDS = [0] * B + [1 if c.asset else 2 if c.effect == E.FIRE else 0 for c in C.CARDS]


class Game(core.Game[State]):
    zones: Zones | None = ZONES  # redeterminise deals the other hands and the deck anew (README, deviation 28)

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
            max_chance_outcomes=K,
            max_game_length=MAX_GAME_LENGTH,
            min_return=-1.0,
            max_return=1.0,
        )

    # Set-up -----------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        n = self.n
        return State(
            num_players=n,
            hands=[bytearray(K) for _ in range(n)],
            assets=SeatCounts(n, K, _ASSET_TAX),  # (tax symbols, FR-TAX-2)
            deck=Deck(C.COPIES),  # FR-SETUP-1: shuffled (every draw is a chance event)
            discard=bytearray(K),
            money=[C.START_MONEY] * n,  # FR-SETUP-2
            alive=[True] * n,
            owner=Owners([-1] * B, n, _TAX),
            book=Grid(C.PAGES, C.SLOTS, B),  # FR-COMP-2
            lux_owner=Owners([NO_OWNER] * C.NUM_LUXURIES, n, _LUX_TAX),
        )

    # Who acts ---------------------------------------------------------------------------------

    def current_player(self, s: State) -> int:
        if s.draws:
            return CHANCE
        ph = s.phase
        if ph == _OVER:
            return TERMINAL
        if ph in _CHANCE_PHASES:
            return CHANCE
        return s.actor

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if s.draws:
            return s.deck.outcomes()
        if s.phase == Phase.FIRST_PLAYER:
            return [(p, 1.0 / self.n) for p in range(self.n)]  # FR-SETUP-4
        if s.phase == Phase.DICE:
            return [(d, 0.1) for d in range(10)]
        if s.phase == Phase.PAGE_DIE:
            return [(d, 1.0 / 6) for d in range(1, 7)]  # FR-DICE-6
        raise ValueError("not a chance node")

    def sample_chance(self, s: State, rng: Any) -> int:
        u = rng.random()
        if s.draws:
            return s.deck.kind_at(u)
        if s.phase == Phase.FIRST_PLAYER:
            return int(u * self.n)
        if s.phase == Phase.DICE:
            return int(u * 10)
        return 1 + int(u * 6)

    def resolve_chance(self, s: State, rng: Any) -> None:
        """The generic loop of sample_chance + apply_legal, inlined for the draws and the dice."""
        draws = s.draws
        if not draws and s.phase not in _CHANCE_PHASES:
            return
        random = rng.random
        deck = s.deck  # (a reshuffle refills it in place)
        draw = deck.draw
        while True:
            if draws:
                k = draw(random())  # sample_chance's draw, taken
                p = draws.pop(0)
                s.hands[p][k] += 1
                if draws and deck.n:
                    continue
            else:
                ph = s.phase
                if ph == _DICE:  # every die still to roll, one chance event each
                    dice, count = s.dice, s.page + 1 + s.extra_dice  # FR-DICE-1 (+ Advertising Blitz)
                    while len(dice) < count:
                        dice.append(int(random() * 10))
                    self._hits(s)
                elif ph == _PAGE_DIE:
                    d = 1 + int(random() * 6)
                    if d <= C.PAGES:  # FR-DICE-6: 1-4 turn to that page, 5-6 stay
                        s.page = d - 1
                    self._end_turn(s)
                    draws = s.draws
                    if draws and deck.n:  # the draws come next (what _advance would find)
                        continue
                elif ph == _FIRST_PLAYER:
                    self.apply_legal(s, self.sample_chance(s, rng))
                    draws = s.draws
                    continue
                else:
                    return
            self._advance(s)
            draws = s.draws

    # Legal actions ----------------------------------------------------------------------------

    def legal_actions(self, s: State) -> list[int]:
        if s.draws:
            return []
        ph = s.phase
        p = s.actor
        if ph == _ACTIONS:
            owner = s.owner.of
            acting = s.actions_left and s.hands[p] != _NO_CARDS
            out = [] if acting else [_DONE]  # FR-ACT-1: no roll before both actions
            runs = s.owner.held[p]
            if 1 in runs:  # FR-SELL-2: own turn, before the roll
                out += compress(_SELLS, runs)
            if acting:
                kinds = list(compress(_KINDS, s.hands[p]))
                money = s.money[p]
                bizs = []
                for k in kinds:
                    if k < B:
                        if owner[k] < 0 and _COST[k] <= money:  # FR-SIGN-4, FR-DECIDE-1
                            bizs.append(k)
                    else:
                        need = _NEEDS[k]  # FR-DECIDE-1: an asset only if its cost is affordable
                        if need == 0 or (need == 1 and _COST[k] <= money) or (need == 2 and self._rival_business(s, p)):
                            out.append(_PLAY_B + k)
                if bizs:
                    out += self._openings(s, p, bizs, money)
                out += [_DISCARD + k for k in kinds]
            return out
        if ph == _LUXURY:
            money = s.money[p]
            out = [_DONE]  # FR-LUX-3: optional; FR-LUX-1, FR-SETUP-5: any luxury for sale
            out += [_LUXURY_A + x for x in compress(_LUXES, s.lux_owner.free) if _PRICE[x] <= money]
            return out + self._sells(s, p)  # FR-SELL-2
        if ph == _TAX_SELL:
            return [_DONE] + self._sells(s, p)  # FR-TAX-1, FR-SELL-2: tax time
        if ph == _TARGET:
            return self._targets(s, p)
        if ph == _AUCTION:
            low = self._lowest_bid(s)  # FR-DECIDE-4: only bids the bidder can pay
            money = s.money[p]
            return [_DONE] + [A.BID + i for i, step in enumerate(A.BID_STEPS) if low + step <= money]
        return []

    def _sells(self, s: State, p: int) -> list[int]:  # FR-SELL-3: businesses only
        return list(compress(_SELLS, s.owner.held[p]))

    def _rival_business(self, s: State, p: int) -> bool:
        owner = s.owner.of
        return owner.count(-1) + owner.count(p) < B

    def _fee_owners(self, s: State, p: int) -> list[int]:  # FR-SIGN-5, FR-SIGN-6, FR-SIGN-7, FR-BOOK-3
        """Per slot of the current page, the player that a sign of `p` placed there owes a covering
        fee: the owner of the sign visible there from the page below, unless it is `p` (-1: none)."""
        if s.page == 0:
            return _NOBODY
        owner = s.owner.of
        return [owner[b] if b >= 0 and owner[b] != p else -1 for b in self.visible_row(s, s.page - 1)]

    def _openings(self, s: State, p: int, bizs: list[int], money: int) -> list[int]:  # FR-DECIDE-1
        """Open actions for businesses `bizs` (in hand, not in the book, launch cost affordable)."""
        used = sum(compress(_SLOT_BITS, map(_FILLED, s.book.rows[s.page])))  # the slots holding a sign card
        fees = None  # the covering fee per slot, worked out only when a fee could matter
        out = []
        for b in bizs:
            spare = money - _COST[b]
            if not s.page or spare >= _MAX_FEE[b]:
                out += [a for a, mask, _ in _FITS[b] if not mask & used]  # FR-SIGN-1, FR-SIGN-3: empty slots only
                continue
            if fees is None:
                fees = [C.COVER_FEE if q >= 0 else 0 for q in self._fee_owners(s, p)]
            out += [a for a, mask, slots in _FITS[b] if not mask & used and sum(map(fees.__getitem__, slots)) <= spare]
        return out

    def _targets(self, s: State, p: int) -> list[int]:
        ask = s.ask
        n = self.n
        if ask == Ask.PLAYER:
            return [A.PLAYER + i for i in range(n - 1) if s.alive[(p + 1 + i) % n]]
        if ask == Ask.BUSINESS:
            return [A.BUSINESS + b for b, o in enumerate(s.owner.of) if o >= 0 and o != p]
        if ask == Ask.SCOUT:
            return [A.BUSINESS + b for b in range(B) if s.discard[b]]
        return [A.PAGE + pg for pg in range(C.PAGES) if pg != s.page]

    def _lowest_bid(self, s: State) -> int:
        return _PRICE[s.lot] if s.high < 0 else s.high + 1  # FR-AUCT-2

    # The book ---------------------------------------------------------------------------------

    def visible(self, s: State, slot: int, page: int | None = None) -> int:
        """The business whose sign is visible in `slot` looking from `page` (default: the current page)."""
        book = s.book.rows
        for pg in range(s.page if page is None else page, -1, -1):  # FR-BOOK-1: pages above do not count
            b = book[pg][slot]
            if b >= 0:
                return b  # FR-BOOK-2: the top sign covers those below
        return -1

    def visible_row(self, s: State, page: int | None = None) -> list[int]:
        """`visible` for slots 1-9 at once."""
        book = s.book.rows
        top = s.page if page is None else page
        row = book[top][:]
        for pg in range(top - 1, -1, -1):  # FR-BOOK-1, FR-BOOK-2, FR-BOOK-3: card by card
            if -1 not in row:
                break
            below = book[pg]
            row = [b if b >= 0 else below[i] for i, b in enumerate(row)]
        return row

    def tax_symbols(self, s: State, p: int) -> int:
        return self.tax_table(s)[p]

    def tax_table(self, s: State) -> list[int]:
        """Each player's tax symbols: businesses, luxuries and assets, less Government Connections."""  # FR-TAX-2
        return [max(0, t + u + v - a[_CONNECTIONS] * _CONNECTIONS_CUT) if a[_CONNECTIONS] else t + u + v
                for t, u, v, a in zip(s.owner.totals, s.lux_owner.totals, s.assets.totals, s.assets.counts)]

    # Applying ---------------------------------------------------------------------------------

    def apply_legal(self, s: State, action: int) -> None:
        if not s.draws and s.phase not in _CHANCE_PHASES:  # a decision (the usual case)
            self._decide(s, action)
            self._advance(s)
            return
        if s.draws:
            self._draw(s, action)
        elif s.phase == _FIRST_PLAYER:
            s.first = action  # FR-SETUP-4
            s.phase = _DEAL
            s.draws = [p for _ in range(C.HAND_SIZE) for p in range(action, action + self.n)]  # FR-SETUP-1
            s.draws = [p % self.n for p in s.draws]
            if s.tell is not None:
                s.tell(F.Began(action))
        elif s.phase == _DICE:
            s.dice.append(action)
            if s.tell is not None:
                b = self.visible(s, action - 1) if action else -1
                s.tell(F.Die(action, len(s.dice), s.page + 1 + s.extra_dice, b, self.zeros_taxed(s) == s.dice.count(0)))
            if len(s.dice) == s.page + 1 + s.extra_dice:  # FR-DICE-1
                self._hits(s)
        elif s.phase == _PAGE_DIE:
            was = s.page
            if action <= C.PAGES:  # FR-DICE-6
                s.page = action - 1
            if s.tell is not None:
                s.tell(F.PageDie(action, was, s.page))
            self._end_turn(s)
        else:
            self._decide(s, action)
        self._advance(s)

    def _draw(self, s: State, k: int) -> None:
        p = s.draws.pop(0)
        s.deck.take(k)
        s.hands[p][k] += 1
        if s.tell is not None:
            s.tell(F.Drawn(p, k))

    def _advance(self, s: State) -> None:
        """Move on through steps that need no decision: reshuffles, the turn's start and end, auctions."""
        while True:
            ph = s.phase
            if ph == _ACTIONS:
                if not (s.draws or s.lots):
                    p = s.actor
                    if s.actions_left and s.hands[p] != _NO_CARDS or 1 in s.owner.held[p]:
                        return
                    if s.tell is not None:
                        s.tell(F.Rolls(s.turn, s.page + 1 + s.extra_dice, s.actions_left > 0))
                    self._roll(s)  # no actions left (or an empty hand) and nothing to sell
                    continue
            elif ph == _OVER:
                s.draws = []
                return
            if s.draws:
                if s.deck.n:
                    return
                if any(s.discard):  # the deck ran out: shuffle the discards into a new deck (FR-DRAW-2)
                    s.deck.refill(s.discard)
                    s.discard = bytearray(K)
                    if s.tell is not None:
                        s.tell(F.Reshuffled())
                    return
                if s.tell is not None:
                    s.tell(F.DrawsLost(tuple(s.draws)))
                s.draws = []  # every card is in a hand or on the table: no more to draw (FR-DECIDE-3)
                continue
            if s.lots and ph != _AUCTION:  # FR-DECIDE-8: auctions first, whatever comes next
                s.resume = ph
                self._next_lot(s)
                continue
            if ph == _DEAL:
                self._start_turn(s, s.first)
            elif ph == _DRAW:
                self._start_turn(s, self._next_alive(s, s.turn))  # FR-TURN-1
            elif ph == _ACTIONS:
                continue  # (draws or lots were handled above)
            elif ph == _TAX_SELL:
                if self._next_seller(s):
                    return
            elif ph == _AUCTION:
                if not self._auction_step(s):
                    return
            else:
                return

    def _start_turn(self, s: State, p: int) -> None:  # FR-TURN-2: luxury, two actions, roll, draw
        s.turn = s.actor = p
        s.extra_dice = 0
        s.dice = []
        s.actions_left = C.ACTIONS_PER_TURN  # FR-ACT-1
        s.phase = _ACTIONS
        if s.tell is not None:
            s.tell(F.TurnBegan(p))
        copies = s.assets.counts[p][_PORTFOLIO]
        if copies:
            self._gain(s, p, copies * C.card_of(_PORTFOLIO).amount, F.Portfolio(copies) if s.tell is not None else None)
        # The luxury decision only where one is within reach, selling every business if need be (FR-LUX-1).
        cheapest = s.lux_owner.free.find(1)  # the luxuries are in price order
        if cheapest >= 0:
            reach = s.money[p]
            if reach < _PRICE[cheapest]:
                reach += sum(compress(_SALE, s.owner.held[p]))
            if reach >= _PRICE[cheapest]:
                s.phase = _LUXURY

    def _next_alive(self, s: State, p: int) -> int:  # FR-TURN-1: clockwise = to the left
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if s.alive[q]:
                return q
        return p

    # Money --------------------------------------------------------------------------------------

    def _gain(self, s: State, p: int, amount: int, why: tuple | None = None) -> None:
        """`why`: what pays (a facts.py reason), given only while the state is narrated."""
        s.money[p] += amount
        s.from_bank += amount
        if s.tell is not None:
            s.tell(F.Gained(p, amount, why))

    def _spend(self, s: State, p: int, amount: int) -> None:
        """A payment the player chose and can afford, to the bank."""
        s.money[p] -= amount
        s.to_bank += amount

    def _owe(self, s: State, p: int, amount: int, to: int = -1, why: tuple | None = None) -> None:
        """A forced payment to the bank (to = -1) or a player; a player who cannot pay it all pays
        what they have and is knocked out. `why`: what is owed (a facts.py reason), given only while
        the state is narrated."""
        if not s.alive[p] or amount <= 0:
            if s.tell is not None:
                s.tell(F.Owed(p, amount, 0, to, why))
            return
        paid = min(amount, s.money[p])  # FR-DECIDE-2
        s.money[p] -= paid
        if to >= 0:
            s.money[to] += paid
        else:
            s.to_bank += paid
        if s.tell is not None:
            s.tell(F.Owed(p, amount, paid, to, why))
        if paid < amount:  # FR-OUT-1
            self._knock_out(s, p)

    def _knock_out(self, s: State, p: int) -> None:
        if s.tell is not None:
            page = s.sign_page
            closed = tuple((b, page[b]) for b, o in enumerate(s.owner.of) if o == p)
            s.tell(F.KnockedOut(p, bytes(s.hands[p]), bytes(s.assets.counts[p]), closed))
        s.alive[p] = False
        for k in range(K):  # FR-OUT-2: cards discarded, then signs out of the book
            s.discard[k] += s.hands[p][k] + s.assets.counts[p][k]
        s.hands[p] = bytearray(K)
        s.assets.empty(p)
        for b, o in enumerate(s.owner.of):
            if o == p:
                self._close(s, b)
        s.money[p] = 0  # nothing left: _owe took it all
        left = [q for q in range(self.n) if s.alive[q]]
        mine = sorted((x for x, o in enumerate(s.lux_owner.of) if o == p), key=_PRICE.__getitem__)  # FR-AUCT-1
        if len(left) == 1:  # FR-OUT-3; no one to bid: the luxuries leave the game
            for x in mine:
                s.lux_owner.set(x, REMOVED)
            if s.tell is not None and mine:
                s.tell(F.LuxuriesLeave(p, tuple(mine)))
            self._win(s, left[0])
            return
        for x in mine:
            s.lux_owner.set(x, ON_AUCTION)
            s.lots.append((x, p))
        if s.tell is not None and mine:
            s.tell(F.ToAuction(p, tuple(mine)))

    def _win(self, s: State, p: int, x: int = -1) -> None:
        """`p` wins: with luxury `x` its third, or (x = -1) as the last player in."""
        s.winner = p
        s.phase = Phase.OVER
        s.actor = -1
        s.lots = []
        s.lot = -1
        lux = s.lux_owner
        for y, o in enumerate(lux.of):
            if o == ON_AUCTION:
                lux.set(y, REMOVED)
        if s.tell is not None:
            s.tell(F.Won(p, x))

    # Businesses ---------------------------------------------------------------------------------

    def _close(self, s: State, b: int) -> None:
        """The business's card goes to the discard pile and its sign leaves the book."""
        s.book.remove(b)
        s.owner.set(b, -1)  # FR-TAX-4: a closed business pays no tax
        s.discard[b] += 1

    def _sell(self, s: State, p: int, b: int) -> None:  # FR-SELL-1
        if s.tell is not None:
            s.tell(F.Sold(p, b, s.sign_page[b], s.phase == _TAX_SELL))
        self._close(s, b)
        self._gain(s, p, _SALE[b], F.Sale(b) if s.tell is not None else None)

    def _open(self, s: State, p: int, b: int, anchor: int) -> None:
        mask = C.PLACEMENTS[b][anchor]
        owed = self._fee_owners(s, p)
        s.hands[p][b] -= 1
        self._spend(s, p, C.BUSINESSES[b].cost)  # FR-ACT-5
        for slot in C.SLOTS_OF[mask]:
            q = owed[slot]
            if q >= 0:
                s.money[p] -= C.COVER_FEE  # FR-SIGN-5
                s.money[q] += C.COVER_FEE
        s.owner.set(b, p)
        put, pg = s.book.put, s.page  # FR-SIGN-1: the current page
        for slot in C.SLOTS_OF[mask]:
            put(pg, slot, b)
        if s.tell is not None:
            covered = [(slot, owed[slot]) for slot in C.SLOTS_OF[mask] if owed[slot] >= 0]
            below = self.visible_row(s, pg - 1) if covered else []
            fees = tuple((slot, q, below[slot], C.COVER_FEE) for slot, q in covered)
            s.tell(F.Opened(p, b, pg, mask, C.BUSINESSES[b].cost, fees))

    # Decisions ----------------------------------------------------------------------------------

    def _decide(self, s: State, a: int) -> None:
        ph = s.phase
        p = s.actor
        if _SELL <= a < _PLAY:  # FR-SELL-2 (legal_actions says when)
            self._sell(s, p, a - _SELL)
            return
        if ph == _LUXURY:
            if a == _DONE:
                s.phase = _ACTIONS
                if s.tell is not None:
                    s.tell(F.NoLuxury(p))
            else:
                x = a - _LUXURY_A
                self._spend(s, p, _PRICE[x])  # FR-LUX-1
                s.lux_owner.set(x, p)
                if s.tell is not None:
                    s.tell(F.Bought(p, x, _PRICE[x]))
                if s.lux_owner.held[p].count(1) >= 3:  # FR-LUX-2
                    self._win(s, p, x)
                else:
                    s.phase = _ACTIONS
        elif ph == _ACTIONS:
            if a == _DONE:
                if s.tell is not None:
                    s.tell(F.Rolls(s.turn, s.page + 1 + s.extra_dice, False))
                self._roll(s)
                return
            s.actions_left -= 1  # FR-ACT-1
            if a < _OPEN:
                self._play(s, p, a - _PLAY_B)
            elif a < _DISCARD:
                b, anchor = divmod(a - _OPEN, C.SLOTS)
                self._open(s, p, b, anchor)
            else:  # FR-ACT-2: discard for $1
                k = a - _DISCARD
                s.hands[p][k] -= 1
                s.discard[k] += 1
                s.money[p] += C.DISCARD_PAY
                s.from_bank += C.DISCARD_PAY
                if s.tell is not None:
                    s.tell(F.Discarded(p, k, C.DISCARD_PAY))
        elif ph == _TARGET:
            self._resolve_target(s, p, a)
        elif ph == _TAX_SELL:
            s.sellers.pop(0)  # FR-TAX-1: this player sells no more
            if s.tell is not None:
                s.tell(F.KeepsBusinesses(p))
        elif ph == _AUCTION:
            if a == _DONE:
                s.passes += 1
                if s.tell is not None:
                    s.tell(F.PassedOn(p, s.lot))
            else:
                s.high = self._lowest_bid(s) + A.BID_STEPS[a - A.BID]
                s.high_bidder = p
                s.passes = 0
                if s.tell is not None:
                    s.tell(F.Bid(p, s.lot, s.high))
            s.actor = self._next_bidder(s, p)  # FR-AUCT-4: clockwise; one who passed may bid later

    def _play(self, s: State, p: int, k: int) -> None:  # FR-ACT-3, FR-ACT-4, FR-DATA-3
        card = C.card_of(k)
        s.hands[p][k] -= 1
        if card.asset:  # FR-ACT-4: paid to the bank, stays on the table
            self._spend(s, p, card.cost)
            s.assets.add(p, k)
            if s.tell is not None:
                s.tell(F.AssetPlayed(p, k, card.cost))
            if card.effect == E.LOAN:
                self._gain(s, p, card.amount, F.ByCard(k) if s.tell is not None else None)
            return
        s.discard[k] += 1  # an action card's effect happens, then it lies in the discard pile (FR-ACT-3)
        eff = card.effect
        if s.tell is not None and eff != E.NETWORKING:  # (Networking is told with its draws)
            s.tell(F.Played(p, k))
        if eff == E.WINDFALL:
            self._gain(s, p, card.amount, F.ByCard(k) if s.tell is not None else None)
        elif eff == E.ADVERTISING:
            s.extra_dice += 1
            if s.tell is not None:
                s.tell(F.ExtraDie(p, s.page + 1 + s.extra_dice))
        elif eff == E.NETWORKING:
            s.draws += [p] * card.amount
            if s.tell is not None:
                s.tell(F.Networking(p, k, card.amount))
        elif eff == E.SCOUT and not any(s.discard[:B]):
            s.draws.append(p)
            if s.tell is not None:
                s.tell(F.NothingToScout(p))
        else:
            s.card = k
            s.ask = {E.IRS_AUDIT: Ask.PLAYER, E.LAWSUIT: Ask.PLAYER, E.FIRE: Ask.BUSINESS,
                     E.SCOUT: Ask.SCOUT, E.PAGE_TURNER: Ask.PAGE}[eff]
            s.phase = _TARGET

    def _resolve_target(self, s: State, p: int, a: int) -> None:  # FR-DATA-3
        card = C.card_of(s.card)
        eff = card.effect
        s.phase = _ACTIONS
        s.ask = Ask.NONE
        s.card = -1
        if eff == E.IRS_AUDIT or eff == E.LAWSUIT:
            q = (p + 1 + a - A.PLAYER) % self.n
            if s.tell is not None:
                s.tell(F.Aimed(p, C.EFFECT_KIND[eff], q))
            if eff == E.IRS_AUDIT:
                symbols = self.tax_symbols(s, q)
                self._owe(s, q, symbols, why=F.Audit(symbols) if s.tell is not None else None)
            else:
                self._owe(s, q, card.amount, to=p, why=F.ByCard(C.EFFECT_KIND[eff]) if s.tell is not None else None)
        elif eff == E.FIRE:
            b = a - A.BUSINESS
            q = s.owner.of[b]
            insured = s.assets.counts[q][_INSURANCE]
            if s.tell is not None:
                s.tell(F.Fire(p, b, q, s.sign_page[b], bool(insured)))
            if insured:
                s.assets.add(q, _INSURANCE, -1)
                s.discard[_INSURANCE] += 1
            else:
                self._close(s, b)
        elif eff == E.SCOUT:
            b = a - A.BUSINESS
            s.discard[b] -= 1
            s.hands[p][b] += 1
            if s.tell is not None:
                s.tell(F.Scouted(p, b))
        else:
            s.page = a - A.PAGE
            if s.tell is not None:
                s.tell(F.PageTurned(p, s.page))

    # The roll -----------------------------------------------------------------------------------

    def _roll(self, s: State) -> None:
        s.actions_left = 0
        s.phase = _DICE
        s.dice = []

    def zeros_taxed(self, s: State) -> int:
        zeros = s.dice.count(0)
        return min(zeros, 1) if self.config.one_tax_per_turn else zeros  # FR-OPT-1

    def _hits(self, s: State) -> None:
        """Hits on the visible signs, die by die, then each 0's payouts; then the taxes begin."""
        roller = s.turn
        owner, assets, visible = s.owner.of, s.assets.counts, self.visible
        for i, d in enumerate(s.dice):  # FR-DICE-4: each die a separate hit
            b = visible(s, d - 1) if d else -1  # FR-DICE-2: the sign visible in slot d
            if b < 0:
                continue
            o = owner[b]
            pay = _PAY[b]  # FR-DICE-3: as the business card says
            if _ROLLER_PAYS[b] and o != roller:
                self._owe(s, roller, pay, o, F.Hit(b, i, False) if s.tell is not None else None)
                if s.phase == _OVER:
                    return
            else:
                s.money[o] += pay
                s.from_bank += pay
                if s.tell is not None:
                    s.tell(F.Gained(o, pay, F.Hit(b, i, _ROLLER_PAYS[b])))
            if assets[o][_BILLBOARD]:
                why = F.Billboard(b, i) if s.tell is not None else None
                self._gain(s, o, assets[o][_BILLBOARD] * _BILLBOARD_PAY, why)
        zeros = self.zeros_taxed(s)  # FR-DECIDE-6: 0-roll payouts with the hits (FR-OPT-1)
        for _ in range(zeros):
            for b in _TAX_MEN:
                o = s.owner.of[b]
                if o >= 0:
                    self._gain(s, o, C.BUSINESSES[b].zero_pay, F.ZeroPaid(b) if s.tell is not None else None)
            for q in self._in_turn_order(s):
                if s.assets.counts[q][_OFFSHORE]:
                    pay = s.assets.counts[q][_OFFSHORE] * C.card_of(_OFFSHORE).amount
                    self._gain(s, q, pay, F.ZeroPaid(_OFFSHORE) if s.tell is not None else None)
        if zeros:  # FR-DICE-5: hits settled, now the taxes
            s.sellers = self._in_turn_order(s)  # FR-TAX-1
            s.phase = _TAX_SELL  # after the auctions of anyone knocked out by the hits (FR-DECIDE-8)
            if s.tell is not None:
                s.tell(F.TaxesDue(zeros))
        else:
            s.phase = _PAGE_DIE

    def _in_turn_order(self, s: State) -> list[int]:
        """Players still in, in turn order from the player whose turn it is."""
        return [q % self.n for q in range(s.turn, s.turn + self.n) if s.alive[q % self.n]]

    def _next_seller(self, s: State) -> bool:
        """Tax time: the next player who may sell becomes the actor (True), or, when no one is left
        to ask, the taxes are paid (False)."""
        while s.sellers and not (s.alive[s.sellers[0]] and 1 in s.owner.held[s.sellers[0]]):  # FR-DECIDE-8
            s.sellers.pop(0)
        if s.sellers:
            s.actor = s.sellers[0]
            return True
        self._pay_taxes(s)
        return False

    def _pay_taxes(self, s: State) -> None:
        zeros = self.zeros_taxed(s)
        for _ in range(zeros):  # FR-DECIDE-6: Protection Racket dues, then the taxes
            for q in self._in_turn_order(s):
                if s.assets.counts[q][_RACKET]:
                    due = s.assets.counts[q][_RACKET] * C.card_of(_RACKET).amount
                    for r in self._in_turn_order(s):
                        if r != q and s.alive[q]:
                            self._owe(s, r, due, q, F.Dues() if s.tell is not None else None)
                            if s.phase == _OVER:
                                return
        taxes = self.tax_table(s)  # a knock-out below changes only the taxes of the player knocked out
        for q in self._in_turn_order(s):
            why = F.Taxes(taxes[q], zeros) if s.tell is not None else None
            self._owe(s, q, zeros * taxes[q], -1, why)  # FR-TAX-2, FR-TAX-3: $1 per symbol, once per 0
            if s.phase == _OVER:
                return
        s.actor = s.turn
        s.phase = _PAGE_DIE

    def _end_turn(self, s: State) -> None:
        p = s.turn
        s.phase = _DRAW
        held = card_count(s.hands[p])
        if s.alive[p] and held < C.HAND_SIZE:  # FR-DRAW-1, FR-DECIDE-3, FR-DECIDE-7
            s.draws = [p] * (C.HAND_SIZE - held)
            if s.tell is not None:
                s.tell(F.DrawsBackUp(p, C.HAND_SIZE - held))

    # Auctions -----------------------------------------------------------------------------------

    def _next_lot(self, s: State) -> None:
        s.lot, s.seller = s.lots.pop(0)
        s.high = s.high_bidder = -1
        s.passes = 0
        s.phase = Phase.AUCTION
        s.actor = self._next_bidder(s, s.seller)  # FR-AUCT-3: the seller's left first
        if s.tell is not None:
            s.tell(F.AuctionOpens(s.lot, s.seller, s.actor))

    def _next_bidder(self, s: State, p: int) -> int:
        return self._next_alive(s, p)

    def _auction_step(self, s: State) -> bool:
        """Auto-pass a bidder who cannot afford the lowest bid; settle a finished auction.
        Returns True when there is no decision to wait for."""
        bidders = sum(s.alive)
        while True:
            if s.high_bidder >= 0 and s.passes >= bidders - 1:  # FR-AUCT-4, FR-DECIDE-4
                x, q = s.lot, s.high_bidder
                self._spend(s, q, s.high)
                s.lux_owner.set(x, q)
                s.lot = -1
                if s.tell is not None:
                    s.tell(F.AuctionWon(q, x, s.high))
                if s.lux_owner.held[q].count(1) >= 3:  # FR-DECIDE-5
                    self._win(s, q, x)
                    return True
                break
            if s.high_bidder < 0 and s.passes >= bidders:  # FR-AUCT-5, FR-DECIDE-4
                s.lux_owner.set(s.lot, REMOVED)
                if s.tell is not None:
                    s.tell(F.Unsold(s.lot))
                s.lot = -1
                break
            if self._lowest_bid(s) > s.money[s.actor] or s.actor == s.high_bidder:  # FR-DECIDE-4
                if s.tell is not None and s.actor != s.high_bidder:
                    s.tell(F.CannotBid(s.actor, self._lowest_bid(s)))
                s.passes += 1
                s.actor = self._next_bidder(s, s.actor)
                continue
            return False
        s.high = s.high_bidder = -1
        s.passes = 0
        if s.lots:
            self._next_lot(s)
            return True
        s.phase = s.resume
        s.actor = s.turn  # at tax time _advance moves it on to the next seller
        return True

    # Results ------------------------------------------------------------------------------------

    def returns(self, s: State) -> list[float]:
        if s.phase != _OVER:
            return [0.0] * self.n
        return [1.0 if p == s.winner else -1.0 for p in range(self.n)]

    # Text ---------------------------------------------------------------------------------------

    def decision_name(self, s: State) -> str:
        ph = s.phase
        if ph == Phase.OVER:
            return "game over"
        if s.draws:
            return f"chance: player_{s.draws[0]} draws"
        if ph == Phase.FIRST_PLAYER:
            return "chance: first player"
        if ph == Phase.DICE:
            return f"chance: business die {len(s.dice) + 1} of {s.page + 1 + s.extra_dice}"
        if ph == Phase.PAGE_DIE:
            return "chance: page die"
        p = f"player_{s.actor}"
        if ph == Phase.TARGET:
            return f"{p} chooses {s.ask.name.lower()} for {C.KIND_NAMES[s.card]}"
        if ph == Phase.AUCTION:
            return f"{p} bids on {C.LUXURIES[s.lot].name} (high bid {s.high if s.high >= 0 else '-'})"
        if ph == Phase.ACTIONS:
            return f"{p} takes actions ({s.actions_left} left)" if s.actions_left else f"{p} sells or rolls"
        return p + {Phase.LUXURY: " may buy a luxury", Phase.TAX_SELL: " may sell businesses before taxes"}[ph]

    def action_to_string(self, s: State, a: int) -> str:
        if self.current_player(s) == CHANCE:
            if s.draws:
                return f"player_{s.draws[0]} draws {C.KIND_NAMES[a]}"
            if s.phase == Phase.FIRST_PLAYER:
                return f"first player: player_{a}"
            if s.phase == Phase.DICE:
                return f"business die: {a}"
            return f"page die: {a}"
        seg, index = A.ACTIONS.decode(a)
        me = max(s.actor, 0)
        if seg == "done":
            return {Phase.LUXURY: "buy no luxury", Phase.AUCTION: "pass",
                    Phase.TAX_SELL: "sell no more"}.get(s.phase, "roll the dice")
        i = index[0]
        if seg == "luxury":
            return f"buy {C.LUXURIES[i].name} (${C.LUXURIES[i].price})"
        if seg == "sell":
            return f"sell {C.BUSINESSES[i].name} (${_SALE[i]})"
        if seg == "play":
            return f"play {C.CARDS[i].name}"
        if seg == "open":
            b, anchor = index
            slots = C.slots_of(C.PLACEMENTS[b][anchor])
            return f"open {C.BUSINESSES[b].name} in slots {'+'.join(map(str, slots)) or '-'}"
        if seg == "discard":
            return f"discard {C.KIND_NAMES[i]} for $1"
        if seg == "player":
            return f"target player_{(me + 1 + i) % self.n} (+{i + 1})"
        if seg == "business":
            return f"{'take' if s.ask == Ask.SCOUT else 'burn'} {C.BUSINESSES[i].name}"
        if seg == "page":
            return f"turn to page {i + 1}"
        low = self._lowest_bid(s) if s.lot >= 0 else 0
        return f"bid ${low + A.BID_STEPS[i]}"

    def book_to_string(self, s: State) -> list[str]:
        lines = []
        for pg in range(C.PAGES - 1, -1, -1):
            cells = [f"{s.book.rows[pg][i] + 1:>2}" if s.book.rows[pg][i] >= 0 else " ." for i in range(C.SLOTS)]
            rows = " | ".join(" ".join(cells[r * 3 : r * 3 + 3]) for r in range(3))
            lines.append(f"page {pg + 1}{' *' if pg == s.page else '  '} {rows}")
        return lines

    def seat_lines(self, s: State, shown: int) -> list[str]:
        """One line per seat (money, luxuries, businesses, assets, hand), then the piles. The hand's
        cards are shown for seat `shown` (-1: every seat), the others' as a count."""
        lines = []
        for p in range(self.n):
            biz = ", ".join(C.BUSINESSES[b].name for b, o in enumerate(s.owner.of) if o == p) or "-"
            lux = ", ".join(C.LUXURIES[x].name for x, o in enumerate(s.lux_owner.of) if o == p) or "-"
            hand = C.counts_to_string(s.hands[p]) if shown in (-1, p) else str(card_count(s.hands[p]))
            lines.append(f"p{p}{'' if s.alive[p] else ' OUT'}: ${s.money[p]} | luxuries: {lux} | businesses: {biz}"
                         f" | assets: {C.counts_to_string(s.assets.counts[p])} | hand: {hand}")
        lines.append(f"deck {s.deck.n} | discard: {C.counts_to_string(s.discard)}")
        if s.phase == Phase.AUCTION:
            lines.append(f"auction: {C.LUXURIES[s.lot].name}, " + (f"high bid {s.high} by {seat_name(s.high_bidder)}" if s.high >= 0 else "no bid yet"))
        return lines

    def state_to_string(self, s: State) -> str:
        lines = [f"page {s.page + 1} | turn {seat_name(s.turn, 'not begun')} | {self.decision_name(s)} | dice "
                 + (" ".join(map(str, s.dice)) or "-")]
        lines += self.book_to_string(s)
        lines += self.seat_lines(s, -1)
        if s.phase == Phase.OVER:
            lines.append(f"winner: player_{s.winner}")
        return "\n".join(lines)
