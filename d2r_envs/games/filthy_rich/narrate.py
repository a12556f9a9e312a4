"""Filthy Rich narration: the event log of a transition (`events`) and what a legal action does (`explain`).

Read only by logs and people (d2r_envs.core.events), never by the rules' fast paths, and never stored in
the State. A transition can set off a cascade (the last die settles every hit, the 0-roll payouts, the
selling round, the Protection Racket dues, the taxes, knock-outs and auctions; a draw can end the turn
and start the next), so `events` replays it on `_Sim`, a light copy of the state before the action
that follows rules.Game step by step and says what each step does. The replay reads only the plain
fields of the state (never its caches), and its end is checked against the state after: money,
players still in, owners, luxuries, page and phase (tests/filthy_rich/test_narrate.py).

Who sees what follows encode.py: every seat sees money, the book, the table, the discard pile and the
hand sizes; a seat's hand is its own. A run of draws is announced once, to all, by the transition that
queues it, with its count ("each player is dealt 5 cards", "player_2 draws back up to 5: 2 cards",
"player_1 plays Networking: they draw 3 cards"), and the draws themselves say nothing to the others. The
drawer is told each card as it comes, except at the deal, where every hand starts empty: each seat is
told its whole hand once, at its last deal draw. A run the deck and the discard pile cannot fill says so,
when it is announced and when the draws run out. Every card that is played, opened, discarded or goes to
the discard pile at a knock-out is named for all, since it lies face up.
"""

from __future__ import annotations

from d2r_envs.core.events import Event, public, secret
from d2r_envs.core.words import indefinite, plural
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.state import NO_OWNER, ON_AUCTION, REMOVED, Ask, Phase, State

K, B = C.NUM_KINDS, C.NUM_BUSINESSES
E = C.Effect
_KIND = {c.effect: B + i for i, c in enumerate(C.CARDS)}
_CONNECTIONS, _INSURANCE, _BILLBOARD = _KIND[E.CONNECTIONS], _KIND[E.INSURANCE], _KIND[E.BILLBOARD]
_OFFSHORE, _RACKET, _PORTFOLIO = _KIND[E.OFFSHORE], _KIND[E.RACKET], _KIND[E.PORTFOLIO]
_ASSET_KINDS = C.ASSET_KINDS
_SALE = [C.SELL_PER_CARD * b.size for b in C.BUSINESSES]
_TAX_MEN = [b for b, x in enumerate(C.BUSINESSES) if x.hit == C.Hit.TAX_MAN]
_PLAY_ASK = {E.IRS_AUDIT: Ask.PLAYER, E.LAWSUIT: Ask.PLAYER, E.FIRE: Ask.BUSINESS, E.SCOUT: Ask.SCOUT,
             E.PAGE_TURNER: Ask.PAGE}


def who(p: int) -> str:
    return f"player_{p}"


def _money(x: int) -> str:
    return f"${x}"


def _slots(mask: int) -> str:
    """'slot 5' or 'slots 1+4'."""
    slots = C.slots_of(mask)
    return ("slot " if len(slots) == 1 else "slots ") + "+".join(map(str, slots))


def _row(book: list[list[int]], page: int) -> list[int]:
    """The business whose sign is visible in each slot looking from `page` (-1: none)."""
    row = list(book[page])
    for pg in range(page - 1, -1, -1):
        below = book[pg]
        row = [b if b >= 0 else below[i] for i, b in enumerate(row)]
    return row


def _cards(counts) -> str:
    return C.counts_to_string(counts)


def _tax_symbols(owner, lux_owner, assets, p: int) -> int:
    """Player p's tax symbols: businesses, luxuries and assets, less Government Connections."""
    t = sum(C.BUSINESSES[b].tax for b, o in enumerate(owner) if o == p)
    t += sum(C.LUXURIES[x].tax for x, o in enumerate(lux_owner) if o == p)
    t += sum(assets[p][k] * C.card_of(k).tax for k in _ASSET_KINDS)
    cut = assets[p][_CONNECTIONS] * C.card_of(_CONNECTIONS).amount
    return max(0, t - cut)


class _Sim:
    """The state before a transition, as plain lists, stepped through the rules with a running commentary."""

    def __init__(self, game, s: State) -> None:
        self.game = game
        self.n = game.n
        self.one_tax = bool(game.config.one_tax_per_turn)
        self.money = list(s.money)
        self.alive = list(s.alive)
        self.owner = list(s.owner.of)
        self.sign_page = list(s.sign_page)
        self.sign_mask = list(s.sign_mask)
        self.book = [list(pg) for pg in s.book.rows]
        self.lux_owner = list(s.lux_owner.of)
        self.assets = [bytearray(a) for a in s.assets.counts]
        self.hands = [bytearray(h) for h in s.hands]
        self.discard = bytearray(s.discard)
        self.deck_n = s.deck.n
        self.phase = s.phase
        self.ask = s.ask
        self.page = s.page
        self.first = s.first
        self.turn = s.turn
        self.actor = s.actor
        self.actions_left = s.actions_left
        self.card = s.card
        self.extra_dice = s.extra_dice
        self.dice = list(s.dice)
        self.sellers = list(s.sellers)
        self.draws = list(s.draws)
        self.resume = s.resume
        self.lots = list(s.lots)
        self.lot = s.lot
        self.seller = s.seller
        self.high = s.high
        self.high_bidder = s.high_bidder
        self.passes = s.passes
        self.winner = s.winner
        self.out: list[Event] = []

    # Commentary --------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.out.append(public(text))

    def biz(self, b: int) -> str:
        o = self.owner[b]
        return f"{C.BUSINESSES[b].name} ({who(o)})" if o >= 0 else C.BUSINESSES[b].name

    # Money ------------------------------------------------------------------------------------

    def gain(self, p: int, amount: int, why: str) -> None:
        self.money[p] += amount
        self.say(f"{who(p)} collects {_money(amount)} from the bank ({why})")

    def spend(self, p: int, amount: int, why: str) -> None:
        """A payment the player chose and can afford, to the bank."""
        self.money[p] -= amount
        if amount:
            self.say(f"{who(p)} pays the bank {_money(amount)} ({why})")

    def owe(self, p: int, amount: int, why: str, to: int = -1) -> None:
        """A forced payment to the bank (to = -1) or a player; one who cannot pay it all pays what they
        have and is out."""
        if not self.alive[p] or amount <= 0:
            return
        paid = min(amount, self.money[p])
        self.money[p] -= paid
        receiver = "the bank" if to < 0 else who(to)
        if to >= 0:
            self.money[to] += paid
        if paid < amount:
            pays = f"pays {receiver} {_money(paid)} and " if paid else ""
            self.say(f"{who(p)} owes {receiver} {_money(amount)} ({why}) but has only {_money(paid)}: "
                     f"{who(p)} {pays}is knocked out")
            self.knock_out(p)
        else:
            self.say(f"{who(p)} pays {receiver} {_money(paid)} ({why})")

    def tax_symbols(self, p: int) -> int:
        return _tax_symbols(self.owner, self.lux_owner, self.assets, p)

    # Players ----------------------------------------------------------------------------------

    def in_turn_order(self) -> list[int]:
        n = self.n
        return [q % n for q in range(self.turn, self.turn + n) if self.alive[q % n]]

    def next_alive(self, p: int) -> int:
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if self.alive[q]:
                return q
        return p

    def knock_out(self, p: int) -> None:
        self.alive[p] = False
        hand, assets = self.hands[p], self.assets[p]
        gone = []
        if any(hand):
            gone.append(f"hand {_cards(hand)}")
        if any(assets):
            gone.append(f"assets {_cards(assets)}")
        for k in range(K):
            self.discard[k] += hand[k] + assets[k]
        self.hands[p] = bytearray(K)
        self.assets[p] = bytearray(K)
        if gone:
            self.say(f"{who(p)} is out: their cards go to the discard pile ({'; '.join(gone)})")
        else:
            self.say(f"{who(p)} is out")
        closed = [b for b, o in enumerate(self.owner) if o == p]
        if closed:
            self.say(f"{who(p)}'s businesses close, their signs leaving the book: "
                     + ", ".join(f"{C.BUSINESSES[b].name} (page {self.sign_page[b] + 1})" for b in closed))
        for b in closed:
            self.close(b)
        self.money[p] = 0
        left = [q for q in range(self.n) if self.alive[q]]
        mine = sorted((x for x, o in enumerate(self.lux_owner) if o == p), key=lambda x: C.LUXURIES[x].price)
        names = ", ".join(C.LUXURIES[x].name for x in mine)
        if len(left) == 1:
            for x in mine:
                self.lux_owner[x] = REMOVED
            if mine:
                self.say(f"{who(p)}'s luxuries leave the game, with nobody left to bid: {names}")
            self.win(left[0])
            return
        for x in mine:
            self.lux_owner[x] = ON_AUCTION
            self.lots.append((x, p))
        if mine:
            self.say(f"{who(p)}'s luxuries will be auctioned, cheapest first: {names}")

    def win(self, p: int) -> None:
        self.winner = p
        self.phase = Phase.OVER
        self.actor = -1
        self.lots = []
        self.lot = -1
        self.lux_owner = [REMOVED if o == ON_AUCTION else o for o in self.lux_owner]

    # Businesses -------------------------------------------------------------------------------

    def close(self, b: int) -> None:
        page = self.book[self.sign_page[b]]
        for slot in range(C.SLOTS):
            if self.sign_mask[b] >> slot & 1:
                page[slot] = -1
        self.owner[b] = -1
        self.sign_page[b] = -1
        self.sign_mask[b] = 0
        self.discard[b] += 1

    def sell(self, p: int, b: int, when: str) -> None:
        name = C.BUSINESSES[b].name
        self.say(f"{who(p)} sells {name}{when}: its sign leaves page {self.sign_page[b] + 1}")
        self.close(b)
        self.gain(p, _SALE[b], f"sale of {name}, {plural(C.SIZE[b], 'sign card')}")

    def open(self, p: int, b: int, anchor: int) -> None:
        mask = C.PLACEMENTS[b][anchor]
        biz = C.BUSINESSES[b]
        self.say(f"{who(p)} opens {biz.name}: {indefinite(biz.shape)} sign on page {self.page + 1}, {_slots(mask)}")
        fees: dict[int, list[tuple[int, int]]] = {}
        if self.page:
            below = _row(self.book, self.page - 1)
            for slot in C.SLOTS_OF[mask]:
                c = below[slot]
                if c >= 0 and self.owner[c] != p:
                    fees.setdefault(self.owner[c], []).append((slot, c))
        self.hands[p][b] -= 1
        self.spend(p, biz.cost, f"launch cost of {biz.name}")
        for q, covered in fees.items():
            fee = C.COVER_FEE * len(covered)
            self.money[p] -= fee
            self.money[q] += fee
            what = ", ".join(f"slot {slot + 1} over {C.BUSINESSES[c].name}" for slot, c in covered)
            self.say(f"{who(p)} pays {who(q)} {_money(fee)} (covering fee: {what})")
        self.owner[b] = p
        self.sign_page[b] = self.page
        self.sign_mask[b] = mask
        for slot in C.SLOTS_OF[mask]:
            self.book[self.page][slot] = b

    # Turns ------------------------------------------------------------------------------------

    def dice_count(self) -> int:
        return self.page + 1 + self.extra_dice

    def start_turn(self, p: int) -> None:
        self.turn = self.actor = p
        self.extra_dice = 0
        self.dice = []
        self.actions_left = C.ACTIONS_PER_TURN
        self.phase = Phase.ACTIONS
        self.say(f"{who(p)}'s turn: the book is on page {self.page + 1} ({who(p)} has {_money(self.money[p])})")
        if self.assets[p][_PORTFOLIO]:
            copies = self.assets[p][_PORTFOLIO]
            why = "Stock Portfolio" + (f" x{copies}" if copies > 1 else "")
            self.gain(p, copies * C.card_of(_PORTFOLIO).amount, why)
        prices = [C.LUXURIES[x].price for x, o in enumerate(self.lux_owner) if o == NO_OWNER]
        if prices:
            reach = self.money[p]
            if reach < min(prices) and p in self.owner:
                reach += sum(_SALE[b] for b, o in enumerate(self.owner) if o == p)
            if reach >= min(prices):
                self.phase = Phase.LUXURY

    def roll(self, why: str = "") -> None:
        self.actions_left = 0
        self.phase = Phase.DICE
        self.dice = []
        self.say(f"{who(self.turn)} rolls {plural(self.dice_count(), 'business die')}{why}")

    def end_turn(self) -> None:
        p = self.turn
        self.phase = Phase.DRAW
        hand_n = sum(self.hands[p])
        if self.alive[p] and hand_n < C.HAND_SIZE:
            self.draws = [p] * (C.HAND_SIZE - hand_n)
            self.say(f"{who(p)} draws back up to {C.HAND_SIZE}: {plural(len(self.draws), 'card')}" + self.short())

    # Draws --------------------------------------------------------------------------------------

    def short(self) -> str:
        """What the queued draws will really bring, where the deck and the discard pile cannot fill them
        ("" where they can; nothing else moves cards in or out of them during a run of draws)."""
        left = self.deck_n + sum(self.discard)
        if not left or left >= len(self.draws):
            return ""  # (none left at all: the line that drops the draws follows at once)
        got = {q: self.draws[:left].count(q) for q in dict.fromkeys(self.draws)}
        cut = [f"{who(q)} gets {got[q]}" for q in got if got[q] < self.draws.count(q)]
        return f" (only {plural(left, 'card')} left in the deck and the discard pile: {', '.join(cut)})"

    def drop_draws(self) -> None:
        """The deck and the discard pile are empty: the draws still due are lost."""
        due = {q: self.draws.count(q) for q in dict.fromkeys(self.draws)}
        text = "the deck and the discard pile are empty: no more cards to draw"
        self.say(text + "".join(f"; {who(q)} gets {plural(m, 'card')} fewer than due" for q, m in due.items()))
        if self.phase == Phase.DEAL:  # a hand cut short is told here, as its last deal draw will not come
            for q in due:
                if any(self.hands[q]):
                    self.out.append(secret(q, f"{who(q)} is dealt {_cards(self.hands[q])}"))
        self.draws = []

    def draw(self, k: int) -> None:
        """One card drawn: the others are told nothing (the run was announced); the drawer is told the card,
        or at the deal, once their last card is in, their whole hand (which started empty)."""
        p = self.draws.pop(0)
        self.deck_n -= 1
        self.hands[p][k] += 1
        if self.phase != Phase.DEAL:
            self.out.append(secret(p, f"{who(p)} draws {C.KIND_NAMES[k]}"))
        elif p not in self.draws:
            self.out.append(secret(p, f"{who(p)} is dealt {_cards(self.hands[p])}"))

    def zeros_taxed(self) -> int:
        zeros = self.dice.count(0)
        return min(zeros, 1) if self.one_tax else zeros

    def hits(self) -> None:
        roller = self.turn
        row = _row(self.book, self.page)
        for i, d in enumerate(self.dice):
            if d == 0 or row[d - 1] < 0:
                continue
            b = row[d - 1]
            o = self.owner[b]
            biz = C.BUSINESSES[b]
            why = f"{biz.name} hit by die {i + 1}"
            if biz.hit == C.Hit.ROLLER and o != roller:
                if not self.alive[roller]:
                    self.say(f"{who(roller)} is out and pays nothing for the hit on {self.biz(b)}")
                self.owe(roller, biz.pay, why, to=o)
                if self.phase == Phase.OVER:
                    return
                if not self.alive[roller]:
                    row = _row(self.book, self.page)
            else:
                self.gain(o, biz.pay, why + (", the bank paying for the roller's own business"
                                             if biz.hit == C.Hit.ROLLER else ""))
            if self.assets[o][_BILLBOARD]:
                self.gain(o, self.assets[o][_BILLBOARD] * C.card_of(_BILLBOARD).amount, f"Billboard, {why}")
        zeros = self.zeros_taxed()
        for z in range(zeros):
            for b in _TAX_MEN:
                o = self.owner[b]
                if o >= 0:
                    self.gain(o, C.BUSINESSES[b].zero_pay, f"{C.BUSINESSES[b].name}: a 0 was rolled")
            for q in self.in_turn_order():
                if self.assets[q][_OFFSHORE]:
                    pay = self.assets[q][_OFFSHORE] * C.card_of(_OFFSHORE).amount
                    self.gain(q, pay, "Offshore Account: a 0 was rolled")
        if zeros:
            self.say(f"taxes are due ({plural(zeros, 'zero')}): players running a business may first sell, "
                     f"in turn order from {who(roller)}")
            self.sellers = self.in_turn_order()
            self.phase = Phase.TAX_SELL
        else:
            self.phase = Phase.PAGE_DIE

    def next_seller(self) -> bool:
        while self.sellers and not (self.alive[self.sellers[0]] and self.sellers[0] in self.owner):
            self.sellers.pop(0)
        if self.sellers:
            self.actor = self.sellers[0]
            return True
        self.pay_taxes()
        return False

    def pay_taxes(self) -> None:
        zeros = self.zeros_taxed()
        for _ in range(zeros):
            for q in self.in_turn_order():
                if self.assets[q][_RACKET]:
                    due = self.assets[q][_RACKET] * C.card_of(_RACKET).amount
                    for r in self.in_turn_order():
                        if r != q and self.alive[q]:
                            self.owe(r, due, "Protection Racket dues", to=q)
                            if self.phase == Phase.OVER:
                                return
        taxes = [self.tax_symbols(q) if self.alive[q] else 0 for q in range(self.n)]
        for q in self.in_turn_order():
            symbols = taxes[q]
            times = f" x {plural(zeros, 'zero')}" if zeros > 1 else ""
            self.owe(q, zeros * symbols, f"taxes: {plural(symbols, 'tax symbol')}{times}")
            if self.phase == Phase.OVER:
                return
        self.actor = self.turn
        self.phase = Phase.PAGE_DIE

    # Auctions ---------------------------------------------------------------------------------

    def lowest_bid(self) -> int:
        return C.LUXURIES[self.lot].price if self.high < 0 else self.high + 1

    def next_lot(self) -> None:
        self.lot, self.seller = self.lots.pop(0)
        self.high = self.high_bidder = -1
        self.passes = 0
        self.phase = Phase.AUCTION
        self.actor = self.next_alive(self.seller)
        lux = C.LUXURIES[self.lot]
        self.say(f"auction of {who(self.seller)}'s {lux.name} (price ${lux.price}, tax {lux.tax}): "
                 f"bidding starts with {who(self.actor)}, at ${lux.price} or more")

    def auction_step(self) -> bool:
        bidders = sum(self.alive)
        lux = C.LUXURIES[self.lot]
        while True:
            if self.high_bidder >= 0 and self.passes >= bidders - 1:
                x, q = self.lot, self.high_bidder
                self.say(f"{who(q)} wins the auction of {lux.name} for {_money(self.high)}")
                self.spend(q, self.high, f"auction of {lux.name}")
                self.lux_owner[x] = q
                self.lot = -1
                if self.lux_owner.count(q) >= 3:
                    self.say(f"{lux.name} is {who(q)}'s third luxury")
                    self.win(q)
                    return True
                break
            if self.high_bidder < 0 and self.passes >= bidders:
                self.say(f"nobody bids for {lux.name}: it leaves the game")
                self.lux_owner[self.lot] = REMOVED
                self.lot = -1
                break
            if self.lowest_bid() > self.money[self.actor] or self.actor == self.high_bidder:
                if self.actor != self.high_bidder:
                    self.say(f"{who(self.actor)} cannot pay {_money(self.lowest_bid())} and passes")
                self.passes += 1
                self.actor = self.next_alive(self.actor)
                continue
            return False
        self.high = self.high_bidder = -1
        self.passes = 0
        if self.lots:
            self.next_lot()
            return True
        self.phase = self.resume
        self.actor = self.turn
        return True

    # The flow (rules.Game._advance) -------------------------------------------------------------

    def advance(self) -> None:
        while True:
            ph = self.phase
            if ph == Phase.ACTIONS:
                if not (self.draws or self.lots):
                    p = self.actor
                    if self.actions_left and sum(self.hands[p]) or p in self.owner:
                        return
                    why = " (no cards left to play and no business to sell)" if self.actions_left else ""
                    self.roll(why)
                    continue
            elif ph == Phase.OVER:
                self.draws = []
                return
            if self.draws:
                if self.deck_n:
                    return
                if any(self.discard):
                    self.deck_n = sum(self.discard)
                    self.discard = bytearray(K)
                    self.say(f"the deck is empty: the discard pile ({plural(self.deck_n, 'card')}) is shuffled "
                             "into a new deck")
                    return
                self.drop_draws()
                continue
            if self.lots and ph != Phase.AUCTION:
                self.resume = ph
                self.next_lot()
                continue
            if ph == Phase.DEAL:
                self.start_turn(self.first)
            elif ph == Phase.DRAW:
                self.start_turn(self.next_alive(self.turn))
            elif ph == Phase.ACTIONS:
                continue
            elif ph == Phase.TAX_SELL:
                if self.next_seller():
                    return
            elif ph == Phase.AUCTION:
                if not self.auction_step():
                    return
            else:
                return

    # One transition -----------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        if self.draws:
            self.draw(action)
        elif self.phase == Phase.FIRST_PLAYER:
            self.first = action
            self.phase = Phase.DEAL
            self.draws = [(p + action) % self.n for _ in range(C.HAND_SIZE) for p in range(self.n)]
            self.say(f"{who(action)} goes first; each player is dealt {C.HAND_SIZE} cards" + self.short())
        elif self.phase == Phase.DICE:
            self.die(action)
        elif self.phase == Phase.PAGE_DIE:
            if action <= C.PAGES and action - 1 != self.page:
                self.say(f"the page die shows {action}: the book turns to page {action}")
                self.page = action - 1
            else:
                self.say(f"the page die shows {action}: the book stays on page {self.page + 1}")
            self.end_turn()
        else:
            self.decide(action)
        self.advance()

    def die(self, d: int) -> None:
        self.dice.append(d)
        count = self.dice_count()
        head = f"business die {len(self.dice)} of {count} shows {d}"
        if d == 0:
            taxed = not self.one_tax or self.dice.count(0) == 1
            self.say(head + (": taxes!" if taxed else ": a 0, but taxes were already called this turn"))
        else:
            b = _row(self.book, self.page)[d - 1]
            self.say(head + (f": it hits {self.biz(b)}" if b >= 0 else f": slot {d} is empty"))
        if len(self.dice) == count:
            self.hits()

    def decide(self, a: int) -> None:
        ph = self.phase
        p = self.actor
        if A.SELL <= a < A.PLAY:
            self.sell(p, a - A.SELL, " before taxes" if ph == Phase.TAX_SELL else "")
            return
        if ph == Phase.LUXURY:
            if a == A.DONE:
                self.say(f"{who(p)} buys no luxury")
                self.phase = Phase.ACTIONS
                return
            x = a - A.LUXURY
            lux = C.LUXURIES[x]
            self.say(f"{who(p)} buys {lux.name}")
            self.spend(p, lux.price, f"price of {lux.name}")
            self.lux_owner[x] = p
            count = self.lux_owner.count(p)
            if count >= 3:
                self.say(f"{lux.name} is {who(p)}'s third luxury")
                self.win(p)
            else:
                self.phase = Phase.ACTIONS
        elif ph == Phase.ACTIONS:
            if a == A.DONE:
                self.roll()
                return
            self.actions_left -= 1
            if a < A.OPEN:
                self.play(p, a - A.PLAY + B)
            elif a < A.DISCARD:
                b, anchor = divmod(a - A.OPEN, C.SLOTS)
                self.open(p, b, anchor)
            else:
                k = a - A.DISCARD
                self.hands[p][k] -= 1
                self.discard[k] += 1
                self.say(f"{who(p)} discards {C.KIND_NAMES[k]}")
                self.gain(p, C.DISCARD_PAY, "discarding a card")
        elif ph == Phase.TARGET:
            self.target(p, a)
        elif ph == Phase.TAX_SELL:
            self.say(f"{who(p)} sells no more businesses")
            self.sellers.pop(0)
        elif ph == Phase.AUCTION:
            lux = C.LUXURIES[self.lot]
            if a == A.DONE:
                self.say(f"{who(p)} passes on {lux.name}")
                self.passes += 1
            else:
                self.high = self.lowest_bid() + A.BID_STEPS[a - A.BID]
                self.high_bidder = p
                self.passes = 0
                self.say(f"{who(p)} bids {_money(self.high)} for {lux.name}")
            self.actor = self.next_alive(p)

    def play(self, p: int, k: int) -> None:
        card = C.card_of(k)
        self.hands[p][k] -= 1
        if card.asset:
            self.say(f"{who(p)} plays {card.name} ({card.text})")
            self.spend(p, card.cost, f"cost of {card.name}")
            self.assets[p][k] += 1
            if card.effect == E.LOAN:
                self.gain(p, card.amount, card.name)
            return
        self.discard[k] += 1
        eff = card.effect
        if eff == E.NETWORKING:  # its text is the draw: "player_1 plays Networking: they draw 3 cards"
            self.draws += [p] * card.amount
            self.say(f"{who(p)} plays {card.name}: they draw {plural(card.amount, 'card')}" + self.short())
            return
        self.say(f"{who(p)} plays {card.name} ({card.text})")
        if eff == E.WINDFALL:
            self.gain(p, card.amount, card.name)
        elif eff == E.ADVERTISING:
            self.extra_dice += 1
            self.say(f"{who(p)} will roll {self.dice_count()} business dice this turn")
        elif eff == E.SCOUT and not any(self.discard[:B]):
            self.draws.append(p)
            self.say(f"no business card lies in the discard pile: {who(p)} draws a card instead" + self.short())
        else:
            self.card = k
            self.ask = _PLAY_ASK[eff]
            self.phase = Phase.TARGET

    def target(self, p: int, a: int) -> None:
        card = C.card_of(self.card)
        eff = card.effect
        self.phase = Phase.ACTIONS
        self.ask = Ask.NONE
        self.card = -1
        if eff == E.IRS_AUDIT or eff == E.LAWSUIT:
            q = (p + 1 + a - A.PLAYER) % self.n
            self.say(f"{who(p)} aims {card.name} at {who(q)}")
            if eff == E.IRS_AUDIT:
                symbols = self.tax_symbols(q)
                if symbols:
                    self.owe(q, symbols, f"IRS Audit: taxes once, {plural(symbols, 'tax symbol')}")
                else:
                    self.say(f"{who(q)} has no tax symbols and pays nothing")
            else:
                self.owe(q, card.amount, "Lawsuit", to=p)
        elif eff == E.FIRE:
            b = a - A.BUSINESS
            q = self.owner[b]
            if self.assets[q][_INSURANCE]:
                self.say(f"{who(p)} sets a Mysterious Fire at {self.biz(b)}, but {who(q)}'s Fire Insurance "
                         "stops it; the Fire Insurance goes to the discard pile")
                self.assets[q][_INSURANCE] -= 1
                self.discard[_INSURANCE] += 1
            else:
                self.say(f"{who(p)}'s Mysterious Fire burns {self.biz(b)}: its card goes to the discard pile and "
                         f"its sign leaves page {self.sign_page[b] + 1}")
                self.close(b)
        elif eff == E.SCOUT:
            b = a - A.BUSINESS
            self.discard[b] -= 1
            self.hands[p][b] += 1
            self.say(f"{who(p)}'s Business Scout takes {C.BUSINESSES[b].name} from the discard pile into their hand")
        else:
            self.page = a - A.PAGE
            self.say(f"{who(p)}'s Page Turner turns the book to page {self.page + 1}")


def trace(game, before: State, action: int) -> _Sim:
    """The replay of one transition from `before` (a state the action is legal in), with its commentary
    in `.out`; the state after is not needed (the tests compare the replay's end with it)."""
    sim = _Sim(game, before)
    sim.apply(action)
    return sim


def _end_events(game, s: State) -> list[Event]:
    w = s.winner
    mine = [C.LUXURIES[x].name for x, o in enumerate(s.lux_owner.of) if o == w]
    if len(mine) >= 3:
        head = f"game over: {who(w)} wins with three luxuries ({', '.join(mine)})"
    else:
        head = f"game over: {who(w)} wins as the last player in"
    lines = []
    for p in range(game.n):
        if not s.alive[p]:
            lines.append(f"{who(p)} out")
            continue
        lux = [C.LUXURIES[x].name for x, o in enumerate(s.lux_owner.of) if o == p]
        lines.append(f"{who(p)} {_money(s.money[p])}, {plural(len(lux), 'luxury')}"
                     + (f" ({', '.join(lux)})" if lux else ""))
    return [public(head), public("final standings: " + "; ".join(lines))]


def events(game, before: State, action: int, after: State) -> list[Event]:
    """What happened in `before` --action--> `after`, in order, as each seat may see it."""
    sim = trace(game, before, action)
    out = sim.out
    if sim.money != list(after.money):  # a replay out of step with the rules (a bug): say where the money stands
        out.append(public("money now: " + ", ".join(f"{who(p)} {_money(m)}" for p, m in enumerate(after.money))))
    if after.phase == Phase.OVER:
        out += _end_events(game, after)
    return out


# Explanations -----------------------------------------------------------------------------------


def _fees(s: State, p: int, mask: int) -> dict[int, int]:
    """The covering fees that `p` would pay per receiving seat for a sign at `mask` on the current page."""
    out: dict[int, int] = {}
    if s.page:
        below = _row(s.book.rows, s.page - 1)
        for slot in C.SLOTS_OF[mask]:
            c = below[slot]
            if c >= 0 and s.owner.of[c] != p:
                out[s.owner.of[c]] = out.get(s.owner.of[c], 0) + C.COVER_FEE
    return out


def explain(game, s: State, a: int) -> str:
    """What the legal action `a` does at this node, for a person about to choose it ("" where its name
    says it all)."""
    if s.draws or s.phase in (Phase.FIRST_PLAYER, Phase.DICE, Phase.PAGE_DIE, Phase.OVER, Phase.DEAL, Phase.DRAW):
        return ""
    p = s.actor
    seg, index = A.ACTIONS.decode(a)
    ph = s.phase
    if seg == "done":
        if ph == Phase.LUXURY:
            return "buy no luxury this turn; go on to your two actions"
        if ph == Phase.ACTIONS:
            count = s.page + 1 + s.extra_dice
            return (f"end your actions and roll {plural(count, 'business die')}: each die hits "
                    "the sign visible in its slot, and each 0 makes everyone pay $1 per tax symbol; then the page die")
        if ph == Phase.TAX_SELL:
            zeros = s.dice.count(0)
            if game.config.one_tax_per_turn:
                zeros = min(zeros, 1)
            symbols = _tax_symbols(s.owner.of, s.lux_owner.of, s.assets.counts, p)
            due = zeros * symbols
            text = f"keep your businesses; your taxes will be {_money(due)} ({plural(symbols, 'tax symbol')}"
            text += f" x {zeros} zeros)" if zeros > 1 else ")"
            dues = zeros * sum(s.assets.counts[q][_RACKET] * C.card_of(_RACKET).amount
                               for q in range(game.n) if q != p and s.alive[q])
            if dues:
                text += f", after {_money(dues)} of Protection Racket dues"
                due += dues
            if due > s.money[p]:
                text += f": more than your {_money(s.money[p])}, which would knock you out"
            return text
        if ph == Phase.AUCTION:
            return (f"pass on {C.LUXURIES[s.lot].name}: the auction ends when every other player passes in a row "
                    "after the high bid")
        return ""
    i = index[0]
    if seg == "luxury":
        lux = C.LUXURIES[i]
        count = s.lux_owner.of.count(p) + 1
        text = f"pay the bank ${lux.price} for {lux.name} (tax {lux.tax} at every 0)"
        return text + (": your third luxury, which wins the game" if count >= 3 else f": your luxury {count} of 3")
    if seg == "sell":
        biz = C.BUSINESSES[i]
        return (f"collect {_money(_SALE[i])} from the bank ({plural(biz.size, 'sign card')} at $2); its sign leaves "
                "the book, uncovering what lies beneath, and its card goes to the discard pile; "
                f"you lose its income ({biz.text})")
    if seg == "play":
        card = C.CARDS[i]
        text = f"{card.name}: {card.text}"
        if card.asset:
            text += f"; it stays on your table (its tax symbols count at every tax)"
        return text
    if seg == "open":
        b, anchor = index
        biz = C.BUSINESSES[b]
        mask = C.PLACEMENTS[b][anchor]
        fees = _fees(s, p, mask)
        text = f"{biz.name}: {biz.text}; sign on page {s.page + 1}, {_slots(mask)}"
        if fees:
            total = sum(fees.values())
            text += "; covering fees " + ", ".join(f"{_money(f)} to {who(q)}" for q, f in fees.items())
            text += f" (total {_money(biz.cost + total)} with the launch cost)"
        return text
    if seg == "discard":
        text = C.card_of(i).text if i >= B else C.BUSINESSES[i].text
        return f"collect $1 from the bank; {C.KIND_NAMES[i]} ({text}) goes face up to the discard pile"
    if seg == "player":
        q = (p + 1 + i) % game.n
        if s.card < 0:
            return ""
        card = C.card_of(s.card)
        if card.effect == E.IRS_AUDIT:
            due = _tax_symbols(s.owner.of, s.lux_owner.of, s.assets.counts, q)
            text = (f"{who(q)} pays the bank {_money(due)} now ({plural(due, 'tax symbol')}); "
                    f"they have {_money(s.money[q])}")
        else:
            due = card.amount
            text = f"{who(q)} pays you {_money(due)} now; they have {_money(s.money[q])}"
        return text + (": it knocks them out" if due > s.money[q] else "")
    if seg == "business":
        biz = C.BUSINESSES[i]
        if s.ask == Ask.SCOUT:
            return f"take {biz.name} from the discard pile into your hand ({biz.text})"
        q = s.owner.of[i]
        if q >= 0 and s.assets.counts[q][_INSURANCE]:
            return f"{who(q)} has Fire Insurance: the fire fails and their Fire Insurance is discarded"
        return (f"burn {who(q)}'s {biz.name} on page {s.sign_page[i] + 1}: its card is discarded and its sign "
                "leaves the book, uncovering what lies beneath")
    if seg == "page":
        return (f"turn the book to page {i + 1} now: the signs visible from it are the ones the dice hit, and "
                f"you roll {plural(i + 1 + s.extra_dice, 'business die')}")
    if seg == "bid" and s.lot >= 0:
        lux = C.LUXURIES[s.lot]
        low = C.LUXURIES[s.lot].price if s.high < 0 else s.high + 1
        bid = low + A.BID_STEPS[i]
        count = s.lux_owner.of.count(p) + 1
        text = (f"bid {_money(bid)} for {lux.name} (price ${lux.price}, tax {lux.tax}): "
                "if nobody bids more, you pay the bank")
        return text + (" and win the game with your third luxury" if count >= 3 else "")
    return ""
