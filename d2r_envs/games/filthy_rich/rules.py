"""Filthy Rich rules: the transition system. Plain Python; knows nothing of PettingZoo or numpy.

Where something happens, the rules tell it (facts.py) to the state's sink, `s.tell`, when one is set
(narrate.py sets one on the copy it narrates); otherwise no fact is built.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from d2r_envs.core import game as core
from d2r_envs.core.game import CHANCE, TERMINAL, GameSpec
from d2r_envs.core.words import seat_name
from d2r_envs.core.zones import Deck, Zones, card_count
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich import facts as F
from d2r_envs.games.filthy_rich.cards import Effect
from d2r_envs.games.filthy_rich.config import Config
from d2r_envs.games.filthy_rich.state import ASK_NAMES, NO_OWNER, ON_AUCTION, REMOVED, ZONES, Ask, Phase, State

NAME = "filthy_rich"
VERSION = 0
MAX_GAME_LENGTH = 4000  # player decisions; the adapter truncates beyond it

_CHANCE_PHASES = (Phase.FIRST_PLAYER, Phase.DICE, Phase.PAGE_DIE)  # chance acts there (and on any draw)
# What a played action card asks its player to choose (FR-DATA-3).
_ASKS = {Effect.IRS_AUDIT: Ask.PLAYER, Effect.LAWSUIT: Ask.PLAYER, Effect.FIRE: Ask.BUSINESS,
         Effect.SCOUT: Ask.SCOUT, Effect.PAGE_TURNER: Ask.PAGE}


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
            max_chance_outcomes=C.NUM_KINDS,
            max_game_length=MAX_GAME_LENGTH,
            min_return=-1.0,
            max_return=1.0,
        )

    # Set-up -----------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        n = self.n
        return State(
            num_players=n,
            hands=[bytearray(C.NUM_KINDS) for _ in range(n)],
            assets=[bytearray(C.NUM_KINDS) for _ in range(n)],
            deck=Deck(C.COPIES),  # FR-SETUP-1: shuffled (every draw is a chance event)
            discard=bytearray(C.NUM_KINDS),
            money=[C.START_MONEY] * n,  # FR-SETUP-2
            alive=[True] * n,
            owner=[-1] * C.NUM_BUSINESSES,
            book=[[-1] * C.SLOTS for _ in range(C.PAGES)],  # FR-COMP-2
            lux_owner=[NO_OWNER] * C.NUM_LUXURIES,
        )

    # Who acts ---------------------------------------------------------------------------------

    def current_player(self, s: State) -> int:
        if s.draws:
            return CHANCE
        ph = s.phase
        if ph == Phase.OVER:
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
        """The core's loop (sample_chance, then apply), with the draws and the business dice taken in
        place: the same `rng.random()` gives the same card (Deck.draw is kind_at and take in one) and
        the same die. Between two draws from a deck that still has cards, and between two dice, there
        is nothing for `_advance` to do."""
        while self.current_player(s) == CHANCE:
            if s.draws:
                while s.draws and s.deck.n:
                    self._drawn(s, s.deck.draw(rng.random()))
            elif s.phase == Phase.DICE:
                while s.phase == Phase.DICE:  # (the last die brings the hits, which move the phase on)
                    self._die(s, int(rng.random() * 10))
            else:
                self.apply_legal(s, self.sample_chance(s, rng))
                continue
            self._advance(s)

    # Legal actions ----------------------------------------------------------------------------

    def legal_actions(self, s: State) -> list[int]:
        if s.draws:
            return []
        ph = s.phase
        p = s.actor
        if ph == Phase.ACTIONS:
            acting = s.actions_left and any(s.hands[p])
            out = [] if acting else [A.DONE]  # FR-ACT-1: no roll before both actions
            out += self._sells(s, p)  # FR-SELL-2: own turn, before the roll
            if acting:
                money = s.money[p]
                bizs = []  # the businesses it may open
                discards = []
                for k in compress(range(C.NUM_KINDS), s.hands[p]):  # the kinds in hand
                    if k >= C.NUM_BUSINESSES:
                        if self._playable(s, p, k):
                            out.append(A.PLAY + k - C.NUM_BUSINESSES)
                    elif s.owner[k] < 0 and C.BUSINESSES[k].cost <= money:  # FR-SIGN-4, FR-DECIDE-1
                        bizs.append(k)
                    discards.append(A.DISCARD + k)
                if bizs:
                    out += self._openings(s, p, bizs, money)
                out += discards
            return out
        if ph == Phase.LUXURY:
            money = s.money[p]
            out = [A.DONE]  # FR-LUX-3: optional; FR-LUX-1, FR-SETUP-5: any luxury for sale
            out += [A.LUXURY + x for x, o in enumerate(s.lux_owner) if o == NO_OWNER and C.LUXURIES[x].price <= money]
            return out + self._sells(s, p)  # FR-SELL-2
        if ph == Phase.TAX_SELL:
            return [A.DONE] + self._sells(s, p)  # FR-TAX-1, FR-SELL-2: tax time
        if ph == Phase.TARGET:
            return self._targets(s, p)
        if ph == Phase.AUCTION:
            low = self.lowest_bid(s)  # FR-DECIDE-4: only bids the bidder can pay
            money = s.money[p]
            return [A.DONE] + [A.BID + i for i, step in enumerate(A.BID_STEPS) if low + step <= money]
        return []

    def _sells(self, s: State, p: int) -> list[int]:  # FR-SELL-3: businesses only
        if p not in s.owner:
            return []
        return [A.SELL + b for b, o in enumerate(s.owner) if o == p]

    def _playable(self, s: State, p: int, k: int) -> bool:  # FR-DECIDE-1
        """Whether `p` may play action or asset card `k`: an asset only if its cost is affordable, a
        Mysterious Fire only if another player runs a business."""
        card = C.card_of(k)
        if card.asset:
            return card.cost <= s.money[p]
        return card.effect != Effect.FIRE or any(o >= 0 and o != p for o in s.owner)

    def _fee_owners(self, s: State, p: int) -> list[int]:  # FR-SIGN-5, FR-SIGN-6, FR-SIGN-7, FR-BOOK-3
        """Per slot of the current page, the player that a sign of `p` placed there owes a covering
        fee: the owner of the sign visible there from the page below, unless it is `p` (-1: none)."""
        if s.page == 0:
            return [-1] * C.SLOTS
        return [s.owner[b] if b >= 0 and s.owner[b] != p else -1 for b in self.visible_row(s, s.page - 1)]

    def _openings(self, s: State, p: int, bizs: list[int], money: int) -> list[int]:  # FR-DECIDE-1
        """Open actions for businesses `bizs` (in hand, not in the book, launch cost affordable)."""
        used = sum([1 << slot for slot, b in enumerate(s.book[s.page]) if b >= 0])  # the slots holding a sign card
        fees = None  # the covering fee per slot, worked out only when a fee could matter
        out = []
        # Each anchor where the sign's shape fits (FR-SIGN-2) on empty slots only (FR-SIGN-1, FR-SIGN-3).
        for b in bizs:
            spare = money - C.BUSINESSES[b].cost
            first = A.OPEN + b * C.SLOTS  # (its open action at anchor 0)
            if not s.page or spare >= C.COVER_FEE * C.SIZE[b]:  # (enough to cover every card of the sign)
                out += [first + anchor for anchor, mask in C.FITS[b] if not mask & used]
                continue
            if fees is None:
                fees = [C.COVER_FEE if q >= 0 else 0 for q in self._fee_owners(s, p)]
            out += [first + anchor for anchor, mask in C.FITS[b]
                    if not mask & used and sum([fees[slot] for slot in C.SLOTS_OF[mask]]) <= spare]
        return out

    def _targets(self, s: State, p: int) -> list[int]:
        ask = s.ask
        n = self.n
        if ask == Ask.PLAYER:
            return [A.PLAYER + i for i in range(n - 1) if s.alive[(p + 1 + i) % n]]
        if ask == Ask.BUSINESS:
            return [A.BUSINESS + b for b, o in enumerate(s.owner) if o >= 0 and o != p]
        if ask == Ask.SCOUT:
            return [A.BUSINESS + b for b in range(C.NUM_BUSINESSES) if s.discard[b]]
        return [A.PAGE + pg for pg in range(C.PAGES) if pg != s.page]

    def lowest_bid(self, s: State) -> int:
        """The lowest bid allowed now on the luxury being auctioned."""
        return C.LUXURIES[s.lot].price if s.high < 0 else s.high + 1  # FR-AUCT-2

    # The book ---------------------------------------------------------------------------------

    def visible(self, s: State, slot: int, page: int | None = None) -> int:
        """The business whose sign is visible in `slot` looking from `page` (default: the current page)."""
        book = s.book
        for pg in range(s.page if page is None else page, -1, -1):  # FR-BOOK-1: pages above do not count
            b = book[pg][slot]
            if b >= 0:
                return b  # FR-BOOK-2: the top sign covers those below
        return -1

    def visible_row(self, s: State, page: int | None = None) -> list[int]:
        """`visible` for slots 1-9 at once."""
        book = s.book
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
        symbols = [0] * self.n
        for b, o in enumerate(s.owner):
            if o >= 0:
                symbols[o] += C.TAX[b]
        for x, o in enumerate(s.lux_owner):
            if o >= 0:
                symbols[o] += C.LUXURIES[x].tax
        for k in C.ASSET_KINDS:
            if C.TAX[k]:
                for q, assets in enumerate(s.assets):
                    symbols[q] += assets[k] * C.TAX[k]
        connections = C.EFFECT_KIND[Effect.CONNECTIONS]
        cut = C.card_of(connections).amount
        for q, assets in enumerate(s.assets):
            if assets[connections]:
                symbols[q] = max(0, symbols[q] - assets[connections] * cut)
        return symbols

    def dice_count(self, s: State) -> int:
        """The business dice this turn: the page's number, one more per Advertising Blitz."""
        return s.page + 1 + s.extra_dice  # FR-DICE-1

    # Applying ---------------------------------------------------------------------------------

    def apply_legal(self, s: State, action: int) -> None:
        if s.draws:
            s.deck.take(action)
            self._drawn(s, action)
        elif s.phase not in _CHANCE_PHASES:  # a decision
            self._decide(s, action)
        elif s.phase == Phase.FIRST_PLAYER:
            s.first = action  # FR-SETUP-4
            s.phase = Phase.DEAL
            s.draws = [p % self.n for _ in range(C.HAND_SIZE) for p in range(action, action + self.n)]  # FR-SETUP-1
            if s.tell is not None:
                s.tell(F.Began(action))
        elif s.phase == Phase.DICE:
            self._die(s, action)
        else:
            self._page_die(s, action)
        self._advance(s)

    def _drawn(self, s: State, k: int) -> None:
        """The next player due a card gets `k`, taken from the deck."""
        p = s.draws.pop(0)
        s.hands[p][k] += 1
        if s.tell is not None:
            s.tell(F.Drawn(p, k))

    def _die(self, s: State, d: int) -> None:
        """A business die shows `d`; the last of the turn's dice brings the hits."""
        s.dice.append(d)
        if s.tell is not None:
            b = self.visible(s, d - 1) if d else -1
            s.tell(F.Die(d, len(s.dice), self.dice_count(s), b, self.zeros_taxed(s) == s.dice.count(0)))
        if len(s.dice) == self.dice_count(s):  # FR-DICE-1
            self._hits(s)

    def _page_die(self, s: State, d: int) -> None:
        was = s.page
        if d <= C.PAGES:  # FR-DICE-6: 1-4 turn to that page, 5-6 stay
            s.page = d - 1
        if s.tell is not None:
            s.tell(F.PageDie(d, was, s.page))
        self._end_turn(s)

    def _advance(self, s: State) -> None:
        """Move on through steps that need no decision: reshuffles, the turn's start and end, auctions."""
        while True:
            ph = s.phase
            if ph == Phase.ACTIONS:
                if not (s.draws or s.lots):
                    p = s.actor
                    if s.actions_left and any(s.hands[p]) or p in s.owner:
                        return
                    if s.tell is not None:
                        s.tell(F.Rolls(s.turn, self.dice_count(s), s.actions_left > 0))
                    self._roll(s)  # no actions left (or an empty hand) and nothing to sell
                    continue
            elif ph == Phase.OVER:
                s.draws = []
                return
            if s.draws:
                if s.deck.n:
                    return
                if any(s.discard):  # the deck ran out: shuffle the discards into a new deck (FR-DRAW-2)
                    s.deck.refill(s.discard)
                    s.discard = bytearray(C.NUM_KINDS)
                    if s.tell is not None:
                        s.tell(F.Reshuffled())
                    return
                if s.tell is not None:
                    s.tell(F.DrawsLost(tuple(s.draws)))
                s.draws = []  # every card is in a hand or on the table: no more to draw (FR-DECIDE-3)
                continue
            if s.lots and ph != Phase.AUCTION:  # FR-DECIDE-8: auctions first, whatever comes next
                s.resume = ph
                self._next_lot(s)
                continue
            if ph == Phase.DEAL:
                self._start_turn(s, s.first)
            elif ph == Phase.DRAW:
                self._start_turn(s, self._next_alive(s, s.turn))  # FR-TURN-1
            elif ph == Phase.ACTIONS:
                continue  # (draws or lots were handled above)
            elif ph == Phase.TAX_SELL:
                if self._next_seller(s):
                    return
            elif ph == Phase.AUCTION:
                if not self._auction_step(s):
                    return
            else:
                return

    def _start_turn(self, s: State, p: int) -> None:  # FR-TURN-2: luxury, two actions, roll, draw
        s.turn = s.actor = p
        s.extra_dice = 0
        s.dice = []
        s.actions_left = C.ACTIONS_PER_TURN  # FR-ACT-1
        s.phase = Phase.ACTIONS
        if s.tell is not None:
            s.tell(F.TurnBegan(p))
        portfolio = C.EFFECT_KIND[Effect.PORTFOLIO]
        copies = s.assets[p][portfolio]
        if copies:
            self._gain(s, p, copies * C.card_of(portfolio).amount, F.Portfolio(copies) if s.tell is not None else None)
        # The luxury decision only where one is within reach, selling every business if need be (FR-LUX-1).
        if NO_OWNER in s.lux_owner:
            price = C.LUXURIES[s.lux_owner.index(NO_OWNER)].price  # the cheapest: they are in price order
            if s.money[p] >= price or s.money[p] + sum([C.SALE[b] for b, o in enumerate(s.owner) if o == p]) >= price:
                s.phase = Phase.LUXURY

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
            closed = tuple((b, page[b]) for b, o in enumerate(s.owner) if o == p)
            s.tell(F.KnockedOut(p, bytes(s.hands[p]), bytes(s.assets[p]), closed))
        s.alive[p] = False
        for k in range(C.NUM_KINDS):  # FR-OUT-2: cards discarded, then signs out of the book
            s.discard[k] += s.hands[p][k] + s.assets[p][k]
        s.hands[p] = bytearray(C.NUM_KINDS)
        s.assets[p] = bytearray(C.NUM_KINDS)
        for b, o in enumerate(s.owner):
            if o == p:
                self._close(s, b)
        s.money[p] = 0  # nothing left: _owe took it all
        left = [q for q in range(self.n) if s.alive[q]]
        mine = [x for x, o in enumerate(s.lux_owner) if o == p]  # FR-AUCT-1: in price order, as listed
        if len(left) == 1:  # FR-OUT-3; no one to bid: the luxuries leave the game
            for x in mine:
                s.lux_owner[x] = REMOVED
            if s.tell is not None and mine:
                s.tell(F.LuxuriesLeave(p, tuple(mine)))
            self._win(s, left[0])
            return
        for x in mine:
            s.lux_owner[x] = ON_AUCTION
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
        for y, o in enumerate(s.lux_owner):
            if o == ON_AUCTION:
                s.lux_owner[y] = REMOVED
        if s.tell is not None:
            s.tell(F.Won(p, x))

    # Businesses ---------------------------------------------------------------------------------

    def _close(self, s: State, b: int) -> None:
        """The business's card goes to the discard pile and its sign leaves the book."""
        for page in s.book:
            for slot, x in enumerate(page):
                if x == b:
                    page[slot] = -1
        s.owner[b] = -1  # FR-TAX-4: a closed business pays no tax
        s.discard[b] += 1

    def _sell(self, s: State, p: int, b: int) -> None:  # FR-SELL-1
        if s.tell is not None:
            s.tell(F.Sold(p, b, s.sign_page[b], s.phase == Phase.TAX_SELL))
        self._close(s, b)
        self._gain(s, p, C.SALE[b], F.Sale(b) if s.tell is not None else None)

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
        s.owner[b] = p
        pg = s.page  # FR-SIGN-1: the current page
        for slot in C.SLOTS_OF[mask]:
            s.book[pg][slot] = b
        if s.tell is not None:
            covered = [(slot, owed[slot]) for slot in C.SLOTS_OF[mask] if owed[slot] >= 0]
            below = self.visible_row(s, pg - 1) if covered else []
            fees = tuple((slot, q, below[slot], C.COVER_FEE) for slot, q in covered)
            s.tell(F.Opened(p, b, pg, mask, C.BUSINESSES[b].cost, fees))

    # Decisions ----------------------------------------------------------------------------------

    def _decide(self, s: State, a: int) -> None:
        ph = s.phase
        p = s.actor
        if A.SELL <= a < A.PLAY:  # FR-SELL-2 (legal_actions says when)
            self._sell(s, p, a - A.SELL)
            return
        if ph == Phase.LUXURY:
            if a == A.DONE:
                s.phase = Phase.ACTIONS
                if s.tell is not None:
                    s.tell(F.NoLuxury(p))
            else:
                x = a - A.LUXURY
                price = C.LUXURIES[x].price
                self._spend(s, p, price)  # FR-LUX-1
                s.lux_owner[x] = p
                if s.tell is not None:
                    s.tell(F.Bought(p, x, price))
                if s.lux_owner.count(p) >= 3:  # FR-LUX-2
                    self._win(s, p, x)
                else:
                    s.phase = Phase.ACTIONS
        elif ph == Phase.ACTIONS:
            if a == A.DONE:
                if s.tell is not None:
                    s.tell(F.Rolls(s.turn, self.dice_count(s), False))
                self._roll(s)
                return
            s.actions_left -= 1  # FR-ACT-1
            if a < A.OPEN:
                self._play(s, p, a - A.PLAY + C.NUM_BUSINESSES)
            elif a < A.DISCARD:
                b, anchor = divmod(a - A.OPEN, C.SLOTS)
                self._open(s, p, b, anchor)
            else:  # FR-ACT-2: discard for $1
                k = a - A.DISCARD
                s.hands[p][k] -= 1
                s.discard[k] += 1
                s.money[p] += C.DISCARD_PAY
                s.from_bank += C.DISCARD_PAY
                if s.tell is not None:
                    s.tell(F.Discarded(p, k, C.DISCARD_PAY))
        elif ph == Phase.TARGET:
            self._resolve_target(s, p, a)
        elif ph == Phase.TAX_SELL:
            s.sellers.pop(0)  # FR-TAX-1: this player sells no more
            if s.tell is not None:
                s.tell(F.KeepsBusinesses(p))
        elif ph == Phase.AUCTION:
            if a == A.DONE:
                s.passes += 1
                if s.tell is not None:
                    s.tell(F.PassedOn(p, s.lot))
            else:
                s.high = self.lowest_bid(s) + A.BID_STEPS[a - A.BID]
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
            s.assets[p][k] += 1
            if s.tell is not None:
                s.tell(F.AssetPlayed(p, k, card.cost))
            if card.effect == Effect.LOAN:
                self._gain(s, p, card.amount, F.ByCard(k) if s.tell is not None else None)
            return
        s.discard[k] += 1  # an action card's effect happens, then it lies in the discard pile (FR-ACT-3)
        eff = card.effect
        if s.tell is not None and eff != Effect.NETWORKING:  # (Networking is told with its draws)
            s.tell(F.Played(p, k))
        if eff == Effect.WINDFALL:
            self._gain(s, p, card.amount, F.ByCard(k) if s.tell is not None else None)
        elif eff == Effect.ADVERTISING:
            s.extra_dice += 1
            if s.tell is not None:
                s.tell(F.ExtraDie(p, self.dice_count(s)))
        elif eff == Effect.NETWORKING:
            s.draws += [p] * card.amount
            if s.tell is not None:
                s.tell(F.Networking(p, k, card.amount))
        elif eff == Effect.SCOUT and not any(s.discard[: C.NUM_BUSINESSES]):
            s.draws.append(p)
            if s.tell is not None:
                s.tell(F.NothingToScout(p))
        else:
            s.card = k
            s.ask = _ASKS[eff]
            s.phase = Phase.TARGET

    def _resolve_target(self, s: State, p: int, a: int) -> None:  # FR-DATA-3
        card = C.card_of(s.card)
        eff = card.effect
        s.phase = Phase.ACTIONS
        s.ask = Ask.NONE
        s.card = -1
        if eff == Effect.IRS_AUDIT or eff == Effect.LAWSUIT:
            q = (p + 1 + a - A.PLAYER) % self.n
            if s.tell is not None:
                s.tell(F.Aimed(p, C.EFFECT_KIND[eff], q))
            if eff == Effect.IRS_AUDIT:
                symbols = self.tax_symbols(s, q)
                self._owe(s, q, symbols, why=F.Audit(symbols) if s.tell is not None else None)
            else:
                self._owe(s, q, card.amount, to=p, why=F.ByCard(C.EFFECT_KIND[eff]) if s.tell is not None else None)
        elif eff == Effect.FIRE:
            b = a - A.BUSINESS
            q = s.owner[b]
            insurance = C.EFFECT_KIND[Effect.INSURANCE]
            insured = s.assets[q][insurance]
            if s.tell is not None:
                s.tell(F.Fire(p, b, q, s.sign_page[b], bool(insured)))
            if insured:
                s.assets[q][insurance] -= 1
                s.discard[insurance] += 1
            else:
                self._close(s, b)
        elif eff == Effect.SCOUT:
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
        s.phase = Phase.DICE
        s.dice = []

    def zeros_taxed(self, s: State) -> int:
        zeros = s.dice.count(0)
        return min(zeros, 1) if self.config.one_tax_per_turn else zeros  # FR-OPT-1

    def _hits(self, s: State) -> None:
        """Hits on the visible signs, die by die, then each 0's payouts; then the taxes begin."""
        roller = s.turn
        billboard = C.EFFECT_KIND[Effect.BILLBOARD]
        for i, d in enumerate(s.dice):  # FR-DICE-4: each die a separate hit
            b = self.visible(s, d - 1) if d else -1  # FR-DICE-2: the sign visible in slot d
            if b < 0:
                continue
            o = s.owner[b]
            biz = C.BUSINESSES[b]  # FR-DICE-3: pays as its card says
            roller_pays = biz.hit == C.Hit.ROLLER
            if roller_pays and o != roller:
                self._owe(s, roller, biz.pay, o, F.Hit(b, i, False) if s.tell is not None else None)
                if s.phase == Phase.OVER:
                    return
            else:
                s.money[o] += biz.pay
                s.from_bank += biz.pay
                if s.tell is not None:
                    s.tell(F.Gained(o, biz.pay, F.Hit(b, i, roller_pays)))
            if s.assets[o][billboard]:
                why = F.Billboard(b, i) if s.tell is not None else None
                self._gain(s, o, s.assets[o][billboard] * C.card_of(billboard).amount, why)
        zeros = self.zeros_taxed(s)  # FR-DECIDE-6: 0-roll payouts with the hits (FR-OPT-1)
        offshore = C.EFFECT_KIND[Effect.OFFSHORE]
        for _ in range(zeros):
            for b in C.TAX_MEN:
                o = s.owner[b]
                if o >= 0:
                    self._gain(s, o, C.BUSINESSES[b].zero_pay, F.ZeroPaid(b) if s.tell is not None else None)
            for q in self._in_turn_order(s):
                if s.assets[q][offshore]:
                    pay = s.assets[q][offshore] * C.card_of(offshore).amount
                    self._gain(s, q, pay, F.ZeroPaid(offshore) if s.tell is not None else None)
        if zeros:  # FR-DICE-5: hits settled, now the taxes
            s.sellers = self._in_turn_order(s)  # FR-TAX-1
            s.phase = Phase.TAX_SELL  # after the auctions of anyone knocked out by the hits (FR-DECIDE-8)
            if s.tell is not None:
                s.tell(F.TaxesDue(zeros))
        else:
            s.phase = Phase.PAGE_DIE

    def _in_turn_order(self, s: State) -> list[int]:
        """Players still in, in turn order from the player whose turn it is."""
        return [q % self.n for q in range(s.turn, s.turn + self.n) if s.alive[q % self.n]]

    def _next_seller(self, s: State) -> bool:
        """Tax time: the next player who may sell becomes the actor (True), or, when no one is left
        to ask, the taxes are paid (False)."""
        while s.sellers and not (s.alive[s.sellers[0]] and s.sellers[0] in s.owner):  # FR-DECIDE-8
            s.sellers.pop(0)
        if s.sellers:
            s.actor = s.sellers[0]
            return True
        self._pay_taxes(s)
        return False

    def _pay_taxes(self, s: State) -> None:
        zeros = self.zeros_taxed(s)
        racket = C.EFFECT_KIND[Effect.RACKET]
        for _ in range(zeros):  # FR-DECIDE-6: Protection Racket dues, then the taxes
            for q in self._in_turn_order(s):
                if s.assets[q][racket]:
                    due = s.assets[q][racket] * C.card_of(racket).amount
                    for r in self._in_turn_order(s):
                        if r != q and s.alive[q]:
                            self._owe(s, r, due, q, F.Dues() if s.tell is not None else None)
                            if s.phase == Phase.OVER:
                                return
        taxes = self.tax_table(s)  # a knock-out below changes only the taxes of the player knocked out
        for q in self._in_turn_order(s):
            why = F.Taxes(taxes[q], zeros) if s.tell is not None else None
            self._owe(s, q, zeros * taxes[q], -1, why)  # FR-TAX-2, FR-TAX-3: $1 per symbol, once per 0
            if s.phase == Phase.OVER:
                return
        s.actor = s.turn
        s.phase = Phase.PAGE_DIE

    def _end_turn(self, s: State) -> None:
        p = s.turn
        s.phase = Phase.DRAW
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
                s.lux_owner[x] = q
                s.lot = -1
                if s.tell is not None:
                    s.tell(F.AuctionWon(q, x, s.high))
                if s.lux_owner.count(q) >= 3:  # FR-DECIDE-5
                    self._win(s, q, x)
                    return True
                break
            if s.high_bidder < 0 and s.passes >= bidders:  # FR-AUCT-5, FR-DECIDE-4
                s.lux_owner[s.lot] = REMOVED
                if s.tell is not None:
                    s.tell(F.Unsold(s.lot))
                s.lot = -1
                break
            if self.lowest_bid(s) > s.money[s.actor] or s.actor == s.high_bidder:  # FR-DECIDE-4
                if s.tell is not None and s.actor != s.high_bidder:
                    s.tell(F.CannotBid(s.actor, self.lowest_bid(s)))
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
        if s.phase != Phase.OVER:
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
            return f"chance: business die {len(s.dice) + 1} of {self.dice_count(s)}"
        if ph == Phase.PAGE_DIE:
            return "chance: page die"
        p = f"player_{s.actor}"
        if ph == Phase.TARGET:
            return f"{p} chooses {ASK_NAMES[s.ask]} for {C.KIND_NAMES[s.card]}"
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
            return f"sell {C.BUSINESSES[i].name} (${C.SALE[i]})"
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
        low = self.lowest_bid(s) if s.lot >= 0 else 0
        return f"bid ${low + A.BID_STEPS[i]}"

    def book_to_string(self, s: State) -> list[str]:
        lines = []
        for pg in range(C.PAGES - 1, -1, -1):
            cells = [f"{b + 1:>2}" if b >= 0 else " ." for b in s.book[pg]]
            rows = " | ".join(" ".join(cells[r * 3 : r * 3 + 3]) for r in range(3))
            lines.append(f"page {pg + 1}{' *' if pg == s.page else '  '} {rows}")
        return lines

    def seat_lines(self, s: State, shown: int) -> list[str]:
        """One line per seat (money, luxuries, businesses, assets, hand), then the piles. The hand's
        cards are shown for seat `shown` (-1: every seat), the others' as a count."""
        lines = []
        for p in range(self.n):
            biz = ", ".join(C.BUSINESSES[b].name for b, o in enumerate(s.owner) if o == p) or "-"
            lux = ", ".join(C.LUXURIES[x].name for x, o in enumerate(s.lux_owner) if o == p) or "-"
            hand = C.counts_to_string(s.hands[p]) if shown in (-1, p) else str(card_count(s.hands[p]))
            lines.append(f"p{p}{'' if s.alive[p] else ' OUT'}: ${s.money[p]} | luxuries: {lux} | businesses: {biz}"
                         f" | assets: {C.counts_to_string(s.assets[p])} | hand: {hand}")
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
