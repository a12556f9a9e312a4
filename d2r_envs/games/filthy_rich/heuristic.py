"""A rule-of-thumb Filthy Rich player: `make_agent("heuristic", "filthy_rich")`.

No search: every decision is a short list of priorities over a few numbers, so a decision takes a
few microseconds. The numbers, in dollars:

- **hits per turn** of a sign card in slot s on page k: the book is on each page about a quarter of
  the time (the page die keeps or moves it uniformly), page c rolls c dice and each die shows a
  given slot with chance 0.1, so a card visible from pages k..c' gets sum (0.25 * c * 0.1) hits
  each turn (anyone's turn): 0.25 on page 1, 0.1 on page 4, less where a sign above already
  covers it. Each page above counts `cover_risk` less, for the signs still to come;
- **zeros per turn**: about 0.25 (2.5 dice on average), so a tax symbol costs $0.25 a turn, an
  Offshore Account earns $0.5, a Protection Racket $0.25 from each rival, and so on;
- the **horizon**: a rate per turn is worth `horizon` turns of it, `turns_per_player` turns for each
  player (about 4 rounds), less 1.5 turns per player for each luxury already bought, at least 2 a
  player. A business is worth (hits x pay - taxes) x horizon, plus this turn's roll, less its
  launch cost and covering fees;
- a rival's loss counts `harm` times as much as my gain: 1/(rivals in), doubled for the leader
  (most luxuries, then money plus what their businesses sell for) and for a **threat** (two
  luxuries and the money, with sales, to buy a third next turn); knocking a rival out is worth
  `knockout` (at two players it wins);
- **safety**: a spend must leave at least the largest payment a rival can demand at once (a
  rival's Fortune Teller-type sign hit, their Protection Rackets), and money plus sale value for
  two rounds of taxes, as selling is the way out at tax time.

The weights were set by short self-play matches at 4 players; against random players it wins
nearly every game (see tests/filthy_rich/test_heuristic.py).

The rules of thumb:

1. **Luxury** (start of the turn): the third luxury wins, so buy it whenever the money, after
   selling businesses if need be, reaches the cheapest one. Otherwise buy the cheapest when the
   money left is at least `lux_reserve` plus twice my tax symbols after it; buy it also, if
   affordable, when it takes the cheapest luxury out of a threat's reach.
2. **Two actions**, each the best of: play an action card or asset by its value (Windfall $4,
   Lawsuit $4 plus the harm, IRS Audit the harm, Mysterious Fire the harm plus any of my signs it
   uncovers, Advertising Blitz and Page Turner by what one more die or the best page pays me,
   Yakuza Loan $12 less its taxes over the horizon, the other assets by rate x horizon less cost);
   open a business at its best placement (which covers valuable rival signs when cheap, and loses
   what it covers of mine); or discard a card for $1 less what keeping it is worth (a business
   about half its value, Windfall and Lawsuit $3, junk $0). With two luxuries nothing is spent
   that drops money plus sales below the cheapest luxury.
3. **Targets**: Lawsuit and IRS Audit a rival it knocks out, else the threat, else the leader
   (IRS Audit: the most tax symbols among equal leaders); Mysterious Fire the business whose loss
   hurts most (owners weighted as above, insured owners skipped unless no other); Business Scout
   the best business card whose sign is not in the book; Page Turner the best page for this roll.
4. **Selling**: at tax time only when the money does not cover the taxes (the business whose sale
   closes the gap at least future income, else the one that closes most); before the roll only if
   the money is below what one die can make me pay a rival.
5. **Auctions**: bid the lowest legal bid while it is at most the limit: all my money for my third
   luxury or to keep a threat from it, else the printed price plus `bid_margin` for a second
   luxury, plus 0 for a first, keeping the luxury reserve.

It acts only on what its seat may see: its own hand and the public table (money, the book, owners,
assets, luxuries, the discard pile, hand sizes). It never reads another hand or the deck, and
uses no randomness.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.state import NO_OWNER, Ask, Phase, State

B = C.NUM_BUSINESSES
K = C.NUM_KINDS
E = C.Effect
BIZ = C.BUSINESSES
SALE = tuple(C.SELL_PER_CARD * b.size for b in BIZ)
PRICE = tuple(x.price for x in C.LUXURIES)
LUX_TAX = tuple(x.tax for x in C.LUXURIES)
CELLS = tuple(tuple(tuple(C.slots_of(m)) for m in C.PLACEMENTS[b]) for b in range(B))  # slots 1-9
EFFECT = {k: C.card_of(k).effect for k in range(B, K)}
KIND = C.EFFECT_KIND
ZEROS = 0.25  # 0s rolled per turn: 2.5 dice on average, one in ten shows 0
DIE = 0.1  # the chance a die shows a given number


def tax_raw(s: State, p: int) -> int:
    """Tax symbols before Government Connections."""
    n = sum(BIZ[b].tax for b in range(B) if s.owner[b] == p)
    n += sum(LUX_TAX[x] for x, o in enumerate(s.lux_owner) if o == p)
    return n + sum(s.assets[p][k] * C.card_of(k).tax for k in C.ASSET_KINDS)


class Heuristic:
    name = "heuristic"
    turns_per_player = 4.0  # horizon: turns of income counted, per player
    cover_risk = 0.85  # a sign's hits from each page higher up count this much less (signs to come)
    lux_reserve = 9  # money kept after buying a luxury (plus 2 x tax symbols)
    bid_margin = 3  # an auction bid for a second luxury may go this far over the printed price
    long_horizon = 2.5  # assets stay for good: their income and taxes count this many horizons
    insure = 1.0  # Fire Insurance: this share of my best business, times the share of Fires unseen
    cash_floor = 4  # money kept after any spend: a Lawsuit takes $4
    knockout = 15.0  # knocking a rival out (more than two players)
    keep = {E.WINDFALL: 3.0, E.LAWSUIT: 3.0, E.FIRE: 1.5, E.IRS_AUDIT: 1.0, E.SCOUT: 0.5,
            E.ADVERTISING: 0.5, E.PAGE_TURNER: 0.5, E.NETWORKING: 0.2}  # an action card kept in hand

    def act(self, game: Any, state: State, seat: int, rng: Any) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        ph = state.phase
        if ph == Phase.LUXURY:
            a = self.luxury(game, state, seat, legal)
        elif ph == Phase.ACTIONS:
            a = self.action(game, state, seat, legal)
        elif ph == Phase.TARGET:
            a = self.target(game, state, seat, legal)
        elif ph == Phase.TAX_SELL:
            a = self.tax_sale(game, state, seat)
        elif ph == Phase.AUCTION:
            a = self.bid(game, state, seat, legal)
        else:
            a = legal[0]
        return a if a in legal else legal[0]

    # Public numbers ----------------------------------------------------------------------------

    @staticmethod
    def sale(s: State, p: int) -> int:
        return sum(SALE[b] for b, o in enumerate(s.owner) if o == p)

    @staticmethod
    def luxuries(s: State, p: int) -> int:
        return s.lux_owner.count(p)

    @staticmethod
    def cheapest(s: State) -> int:
        """The price of the cheapest luxury for sale (999: none)."""
        return min((PRICE[x] for x, o in enumerate(s.lux_owner) if o == NO_OWNER), default=999)

    def horizon(self, s: State) -> float:
        bought = sum(1 for o in s.lux_owner if o >= 0)
        alive = sum(s.alive)
        return alive * max(2.0, self.turns_per_player - 1.5 * bought / alive)

    def rivals(self, s: State, me: int) -> list[int]:
        return [q for q in range(s.num_players) if q != me and s.alive[q]]

    def threat(self, s: State, q: int) -> bool:
        """Two luxuries and the money, with sales and Stock Portfolio, for the cheapest one."""
        income = s.assets[q][KIND[E.PORTFOLIO]] * 2
        return self.luxuries(s, q) >= 2 and s.money[q] + self.sale(s, q) + income >= self.cheapest(s)

    def leader(self, s: State, me: int) -> int:
        return max(self.rivals(s, me), key=lambda q: (self.luxuries(s, q), s.money[q] + self.sale(s, q), -q))

    def harm(self, s: State, me: int, q: int, leader: int) -> float:
        """What a dollar of rival q's loss is worth to me."""
        w = 1.0 / max(1, sum(s.alive) - 1)
        if q == leader or self.threat(s, q):
            w *= 2.0
        return min(1.0, w)

    def cell_hits(self, s: State, page: int, slot: int) -> float:
        """Hits per turn of a sign card on `page` (0-3) in `slot` (0-8), from the pages where it shows."""
        h, w = 0.0, 1.0
        for c in range(page, C.PAGES):
            if c > page:
                if s.book[c][slot] >= 0:
                    break
                w *= self.cover_risk
            h += w * 0.25 * (c + 1) * DIE
        return h

    def rate(self, s: State, p: int, b: int, hits: float) -> float:
        """$ per turn of business b for player p, with `hits` hits per turn on its sign."""
        biz = BIZ[b]
        pay = biz.pay + s.assets[p][KIND[E.BILLBOARD]]
        return hits * pay + ZEROS * (biz.zero_pay - biz.tax)

    def business_worth(self, s: State, b: int, hz: float) -> float:
        """An open business's worth to its owner: its income over the horizon."""
        p, page = s.owner[b], s.sign_page[b]
        hits = sum(self.cell_hits(s, page, i) for i in range(C.SLOTS) if s.sign_mask[b] >> i & 1)
        return max(0.0, self.rate(s, p, b, hits) * hz)

    def exposure(self, game: Any, s: State, me: int) -> int:
        """The most a rival can make me pay at once: a roller-pays sign hit, their Rackets on a 0."""
        roll = max((BIZ[b].pay for b, o in enumerate(s.owner) if o >= 0 and o != me and BIZ[b].hit == C.Hit.ROLLER),
                   default=0)
        racket = sum(s.assets[q][KIND[E.RACKET]] for q in self.rivals(s, me))
        return max(roll + racket, self.cash_floor)

    def safe(self, game: Any, s: State, me: int, spend: int, sale_gain: int = 0, tax_gain: int = 0) -> bool:
        """Whether spending `spend` (gaining sale value and tax symbols) keeps me safe."""
        left = s.money[me] - spend
        tax = game.tax_symbols(s, me) + tax_gain
        if left < self.exposure(game, s, me) or left + self.sale(s, me) + sale_gain < 2 * tax:
            return False
        if self.luxuries(s, me) >= 2 and s.money[me] + self.sale(s, me) >= self.cheapest(s):
            return left + self.sale(s, me) + sale_gain >= self.cheapest(s)  # keep the winning luxury in reach
        return True

    # Luxuries ----------------------------------------------------------------------------------

    def luxury(self, game: Any, s: State, me: int, legal: list[int]) -> int:
        buys = [a for a in legal if A.LUXURY <= a < A.SELL]
        price = self.cheapest(s)
        cheap = A.LUXURY + PRICE.index(price) if price < 999 else -1
        if self.luxuries(s, me) >= 2:
            if cheap in buys:
                return cheap  # the third luxury wins
            if s.money[me] + self.sale(s, me) >= price:  # sell to reach it, biggest sales first
                return max((a for a in legal if A.SELL <= a < A.PLAY), key=lambda a: (SALE[a - A.SELL], -a))
            return A.DONE
        if cheap not in buys:
            return A.DONE
        x = cheap - A.LUXURY
        left = s.money[me] - price
        if left >= self.lux_reserve + 2 * (game.tax_symbols(s, me) + LUX_TAX[x]) and left >= self.exposure(game, s, me):
            return cheap
        # A threat could buy the cheapest next turn but not the one after it: take it from them.
        rest = sorted(PRICE[y] for y, o in enumerate(s.lux_owner) if o == NO_OWNER)[1:]
        nxt = rest[0] if rest else 999
        for q in self.rivals(s, me):
            if self.threat(s, q) and s.money[q] + self.sale(s, q) < nxt and left >= self.exposure(game, s, me):
                return cheap
        return A.DONE

    def bid(self, game: Any, s: State, me: int, legal: list[int]) -> int:
        low = game._lowest_bid(s)
        mine = self.luxuries(s, me)
        rival_wins = any(self.luxuries(s, q) >= 2 and s.money[q] >= low for q in self.rivals(s, me))
        if mine >= 2 or rival_wins:
            limit = s.money[me]
        else:
            limit = PRICE[s.lot] + (self.bid_margin if mine == 1 else 0)
            limit = min(limit, s.money[me] - self.lux_reserve - 2 * game.tax_symbols(s, me))
        return A.BID if low <= limit and A.BID in legal else A.DONE

    # The two actions ---------------------------------------------------------------------------

    def action(self, game: Any, s: State, me: int, legal: list[int]) -> int:
        if not s.actions_left or not s.hand_n[me]:
            return self.before_roll(game, s, me, legal)
        hz = self.horizon(s)
        leader = self.leader(s, me)
        hand = s.hands[me]
        best, best_v = legal[0], -1e9
        played: dict[int, float] = {}
        open_best: dict[int, float] = {}
        for a in legal:
            if A.PLAY <= a < A.OPEN:
                v = self.play_value(game, s, me, a - A.PLAY + B, hz, leader)
                played[a - A.PLAY + B] = v
            elif A.OPEN <= a < A.DISCARD:
                b, anchor = divmod(a - A.OPEN, C.SLOTS)
                v = self.open_value(game, s, me, b, anchor, hz, leader)
                open_best[b] = max(open_best.get(b, -1e9), v)
            elif A.DISCARD <= a < A.PLAYER:
                k = a - A.DISCARD
                v = C.DISCARD_PAY - self.keep_value(s, me, k, hz, played, open_best)
            else:
                continue
            if v > best_v:
                best, best_v = a, v
        return best

    def keep_value(self, s: State, me: int, k: int, hz: float, played: dict, open_best: dict) -> float:
        """What a card in hand is worth kept for later (evaluated after the plays: see `action`)."""
        if k < B:
            if s.owner[k] >= 0:
                return 0.0  # its sign is in the book: it cannot be opened
            biz = BIZ[k]
            generic = self.rate(s, me, k, 0.15 * biz.size) * hz - biz.cost
            return 0.5 * max(0.0, generic, open_best.get(k, 0.0))
        card = C.card_of(k)
        if card.asset:
            return 0.5 * max(0.0, played.get(k, 0.0))
        return self.keep.get(card.effect, 0.0)

    def open_value(self, game: Any, s: State, me: int, b: int, anchor: int, hz: float, leader: int) -> float:
        biz = BIZ[b]
        cost, fees = game.open_cost(s, me, b, C.PLACEMENTS[b][anchor])
        if not self.safe(game, s, me, cost, SALE[b], biz.tax):
            return -1e9
        page = s.page
        dice = page + 1 + s.extra_dice
        hits = now = 0.0
        v = -cost
        for slot in CELLS[b][anchor]:
            i = slot - 1
            h = self.cell_hits(s, page, i)
            hits += h
            now += dice * DIE
            under = game.visible(s, i, page - 1)
            if under >= 0:  # the covered sign loses these hits
                o = s.owner[under]
                loss = h * (BIZ[under].pay + s.assets[o][KIND[E.BILLBOARD]]) * hz
                v += -loss if o == me else self.harm(s, me, o, leader) * (loss + C.COVER_FEE)
        pay = biz.pay + s.assets[me][KIND[E.BILLBOARD]]
        v += self.rate(s, me, b, hits) * hz + now * pay
        if biz.hit == C.Hit.ROLLER:  # rivals pay me for most of those hits
            v += 0.5 * hits * biz.pay * hz * (1 - 1 / sum(s.alive))
        return v

    def die_value(self, game: Any, s: State, me: int, page: int, leader: int) -> float:
        """What one business die rolled on `page` is worth to me (its hits, its 0)."""
        v = 0.0
        for i in range(C.SLOTS):
            b = game.visible(s, i, page)
            if b < 0:
                continue
            o = s.owner[b]
            pay = BIZ[b].pay + s.assets[o][KIND[E.BILLBOARD]]
            if o == me:
                v += DIE * pay
            elif BIZ[b].hit == C.Hit.ROLLER:
                v -= DIE * BIZ[b].pay * (1 + self.harm(s, me, o, leader))
            else:
                v -= DIE * pay * self.harm(s, me, o, leader)
        zero = s.assets[me][KIND[E.OFFSHORE]] * 2 - game.tax_symbols(s, me)
        zero += s.assets[me][KIND[E.RACKET]] * (sum(s.alive) - 1)
        zero += sum(BIZ[b].zero_pay for b in range(B) if s.owner[b] == me)
        for q in self.rivals(s, me):
            zero += self.harm(s, me, q, leader) * game.tax_symbols(s, q)
        return v + DIE * zero

    def best_page(self, game: Any, s: State, me: int, leader: int) -> tuple[float, int]:
        """(gain over the current page, page) of the best page for this turn's roll."""
        extra = s.extra_dice

        def worth(pg: int) -> float:
            return (pg + 1 + extra) * self.die_value(game, s, me, pg, leader)

        here = worth(s.page)
        return max((worth(pg) - here, pg) for pg in range(C.PAGES) if pg != s.page)

    def play_value(self, game: Any, s: State, me: int, k: int, hz: float, leader: int) -> float:
        card = C.card_of(k)
        eff = card.effect
        if card.asset:
            long = hz * self.long_horizon
            if eff == E.LOAN:
                v = card.amount - card.tax * ZEROS * long
                if self.luxuries(s, me) >= 2 and s.money[me] + self.sale(s, me) + card.amount >= self.cheapest(s):
                    v += 20.0  # the money for the winning luxury
                return v
            if not self.safe(game, s, me, card.cost, 0, card.tax):
                return -1e9
            alive = sum(s.alive)
            if eff == E.RACKET:
                r = ZEROS * card.amount * (alive - 1) * (1 + self.harm(s, me, leader, leader))
            elif eff == E.CONNECTIONS:
                r = ZEROS * min(card.amount, game.tax_symbols(s, me))
            elif eff == E.OFFSHORE:
                r = ZEROS * card.amount
            elif eff == E.BILLBOARD:
                r = card.amount * sum(self.cell_hits(s, s.sign_page[b], i) for b in range(B) if s.owner[b] == me
                                      for i in range(C.SLOTS) if s.sign_mask[b] >> i & 1)
            elif eff == E.PORTFOLIO:
                r = card.amount / alive
            else:  # Fire Insurance: a share of my best business
                best = max((self.business_worth(s, b, hz) + SALE[b] for b in range(B) if s.owner[b] == me), default=0.0)
                fires = C.COPIES[KIND[E.FIRE]] - s.discard[KIND[E.FIRE]]
                return self.insure * fires / C.COPIES[KIND[E.FIRE]] * best - card.cost
            return (r - ZEROS * card.tax) * long - card.cost
        if eff == E.WINDFALL:
            return card.amount
        if eff in (E.LAWSUIT, E.IRS_AUDIT):
            q = self.player_target(game, s, me, eff, leader)
            due = card.amount if eff == E.LAWSUIT else game.tax_symbols(s, q)
            v = self.harm(s, me, q, leader) * min(due, s.money[q])
            if eff == E.LAWSUIT:
                v += min(due, s.money[q])
            if s.money[q] < due:
                v += self.knockout_worth(s)
            return v
        if eff == E.FIRE:
            return self.fire_target(game, s, me, hz, leader)[0]
        if eff == E.SCOUT:
            return max([0.8] + [self.keep_value(s, me, b, hz, {}, {}) * 1.5 for b in range(B) if s.discard[b]])
        if eff == E.ADVERTISING:
            return self.die_value(game, s, me, s.page, leader)
        if eff == E.PAGE_TURNER:
            return self.best_page(game, s, me, leader)[0]
        return 1.2 if s.actions_left == 2 else 0.3  # Networking: more cards to choose from this turn

    def knockout_worth(self, s: State) -> float:
        return 1000.0 if sum(s.alive) == 2 else self.knockout

    def before_roll(self, game: Any, s: State, me: int, legal: list[int]) -> int:
        """Sell before the roll only if one die could make me pay more than I have."""
        risk = self.exposure(game, s, me)
        sells = [a for a in legal if A.SELL <= a < A.PLAY]
        if s.money[me] < risk and sells:
            hz = self.horizon(s)
            return min(sells, key=lambda a: (self.business_worth(s, a - A.SELL, hz) - SALE[a - A.SELL], a))
        return A.DONE

    # Targets -------------------------------------------------------------------------------------

    def player_target(self, game: Any, s: State, me: int, eff: E, leader: int) -> int:
        due = {q: (4 if eff == E.LAWSUIT else game.tax_symbols(s, q)) for q in self.rivals(s, me)}
        return max(due, key=lambda q: (s.money[q] < due[q], self.threat(s, q), self.luxuries(s, q),
                                       due[q] if eff == E.IRS_AUDIT else 0, s.money[q] + self.sale(s, q),
                                       -((q - me) % s.num_players)))

    def fire_target(self, game: Any, s: State, me: int, hz: float, leader: int) -> tuple[float, int]:
        """(value, business) of the best business to burn."""
        best = (-1e9, -1)
        for b in range(B):
            q = s.owner[b]
            if q < 0 or q == me:
                continue
            if s.assets[q][KIND[E.INSURANCE]]:
                v = 0.5  # the fire only burns their insurance
            else:
                v = self.harm(s, me, q, leader) * (self.business_worth(s, b, hz) + SALE[b])
                page = s.sign_page[b]
                for i in range(C.SLOTS):  # my signs it uncovers
                    if s.sign_mask[b] >> i & 1:
                        under = game.visible(s, i, page - 1)
                        if under >= 0 and s.owner[under] == me:
                            v += self.cell_hits(s, page, i) * BIZ[under].pay * hz
            best = max(best, (v, b))
        return best

    def target(self, game: Any, s: State, me: int, legal: list[int]) -> int:
        eff = EFFECT[s.card]
        leader = self.leader(s, me)
        if s.ask == Ask.PLAYER:
            q = self.player_target(game, s, me, eff, leader)
            return A.PLAYER + (q - me) % s.num_players - 1
        if s.ask == Ask.BUSINESS:
            return A.BUSINESS + self.fire_target(game, s, me, self.horizon(s), leader)[1]
        if s.ask == Ask.SCOUT:
            hz = self.horizon(s)
            return max(legal, key=lambda a: (self.keep_value(s, me, a - A.BUSINESS, hz, {}, {}), -a))
        return A.PAGE + self.best_page(game, s, me, leader)[1]

    # Tax time ------------------------------------------------------------------------------------

    def tax_sale(self, game: Any, s: State, me: int) -> int:
        """Sell only what avoids a knock-out."""
        zeros = game.zeros_taxed(s)
        mine = [b for b in range(B) if s.owner[b] == me]
        free = s.assets[me][KIND[E.CONNECTIONS]] * C.card_of(KIND[E.CONNECTIONS]).amount
        raw = tax_raw(s, me)

        def gap(sold: list[int]) -> int:  # what I would still lack after selling `sold`
            symbols = max(0, raw - sum(BIZ[b].tax for b in sold) - free)
            return zeros * symbols - s.money[me] - sum(SALE[b] for b in sold)

        if gap([]) <= 0 or gap(mine) > 0:
            return A.DONE  # safe, or out whatever I sell
        hz = self.horizon(s)
        closes = [b for b in mine if gap([b]) <= 0]
        if closes:
            b = min(closes, key=lambda b: (self.business_worth(s, b, hz), b))
        else:
            b = min(mine, key=lambda b: (gap([b]), b))
        return A.SELL + b
