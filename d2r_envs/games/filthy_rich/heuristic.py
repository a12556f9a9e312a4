"""A rule-of-thumb Filthy Rich player: `make_agent("heuristic", "filthy_rich")`.

No search: every decision is a short list of priorities over a few numbers, so a decision takes
about 0.03 ms. The numbers, in dollars:

- **hits per turn** of a sign card in slot s on page k: the book is on each page about a quarter of
  the time (the page die keeps it or moves it, evenly), page c rolls c dice and a die shows a given
  slot with chance 0.1, so a card that shows from pages k..c' gets the sum of 0.25 * c * 0.1 hits
  a turn (anyone's turn): 0.25 on page 1 if nothing covers it, 0.1 on page 4. Each page higher up
  counts `cover_risk` less, for the signs still to come, and a sign above ends the sum;
- **zeros per turn**: about 0.25 (2.5 dice on average), so a tax symbol costs $0.25 a turn, an
  Offshore Account earns $0.5 a turn, a Protection Racket $0.25 from each rival;
- the **horizon**: a business's rate is counted over `turns_per_player` turns per player still in
  (4 rounds), less 1.5 turns a player for each luxury bought (the end nears), at least 2 rounds.
  A business is worth (hits x pay + 0-payouts - taxes) x horizon, plus what this turn's roll may
  pay it, less launch cost and covering fees. Assets stay for good, so theirs is counted over
  `long_horizon` (2.5) horizons: that makes Yakuza Loan ($12 now, 2 tax symbols for good) a bad
  deal early (valued over one horizon, it was played three times a game and a variant that never
  played it won 33% against three such players), Offshore Account and Protection Racket good ones;
- a rival's loss counts `harm` as much as my gain: 1/(rivals in), doubled for the **leader** (most
  luxuries, then money plus what their businesses sell for) and for a **threat** (two luxuries and
  the money, with sales and Stock Portfolio, for the cheapest luxury left); knocking a rival out is
  worth `knockout` (at two players it wins the game);
- **safety**: a spend must leave `cash_floor` ($4: one Lawsuit) and at least the most a rival can
  make me pay at once (their roller-pays sign hit plus their Protection Rackets), and money plus
  sales must cover two 0s of taxes, since selling is the way out at tax time.

The weights were set by self-play matches (a variant in one seat against three, or one, baseline
heuristics, 2400 games): the luxury reserve, the long horizon for assets and the cash floor each
moved the variant's win share by 3 to 10 points; the other numbers matter little. Against random
players it wins about 96% of games at 2 players and at 4 (`d2r eval filthy_rich --agents
heuristic,random --players N --games 400`).

The rules of thumb:

1. **Luxury** (start of the turn): the third luxury wins, so buy the cheapest whenever the money,
   after selling businesses if need be, reaches it. Otherwise buy the cheapest when the money left
   keeps the reserve: `lux_reserve` ($1, plus $4 for each rival beyond the first: more rivals,
   more Lawsuits) plus twice my tax symbols after it. Buy it also when that takes the cheapest
   luxury out of a threat's reach.
2. **Two actions**, each the best of: play a card for its value (Windfall $4; Lawsuit $4 plus the
   harm; IRS Audit the harm; Mysterious Fire the harm plus my signs it uncovers; Advertising Blitz
   and Page Turner what one more die, or the best page, is worth to me; Networking $1.2 as a first
   action; assets their rate over the long horizon less cost, Yakuza Loan also when it brings the
   winning luxury in reach); open a business at its best placement (covering a rival's sign counts
   their loss and the fee, covering mine my loss); or discard the card least worth keeping for $1
   (keeping: a business half its worth, Windfall and Lawsuit $3, Networking $0.2). Spends must be
   safe (above); with two luxuries nothing is spent that puts the cheapest luxury out of reach.
3. **Targets**: Lawsuit and IRS Audit go to a rival they knock out, else a threat, else the leader
   (IRS Audit: most tax symbols among equals); Mysterious Fire burns the business whose loss is
   worth most (insured owners only lose their insurance); Business Scout takes the business card
   most worth keeping; Page Turner turns to the page best for this roll.
4. **Selling**: at tax time only when the money does not cover the taxes, and only if selling can
   save me (the least valuable business that closes the gap, else the one that closes most);
   before the roll only if the money is below what one die can make me pay a rival.
5. **Auctions**: bid the lowest legal bid while it is within the limit: all my money for my third
   luxury or to keep it from a rival's third, else the printed price (plus `bid_margin` for a
   second luxury) while keeping the reserve.

It acts only on what its seat may see: its own hand and the public table (money, the book, owners,
assets, luxuries, the discard pile, hand sizes). It never reads another hand or the deck, and it
uses no randomness.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.cards import Effect
from d2r_envs.games.filthy_rich.state import NO_OWNER, Ask, Phase, State, sign_places

PRICE = tuple(x.price for x in C.LUXURIES)
LUX_TAX = tuple(x.tax for x in C.LUXURIES)
CELLS = tuple(tuple(tuple(C.slots_of(m)) for m in C.PLACEMENTS[b]) for b in range(C.NUM_BUSINESSES))  # slots 1-9
MASK_SLOTS = tuple(tuple(i for i in range(C.SLOTS) if m >> i & 1) for m in range(1 << C.SLOTS))  # slots 0-8
ROLLERS = tuple(b for b in range(C.NUM_BUSINESSES) if C.BUSINESSES[b].hit == C.Hit.ROLLER)
FIRES = C.COPIES[C.EFFECT_KIND[Effect.FIRE]]
ZEROS = 0.25  # 0s rolled per turn: 2.5 dice on average, one in ten shows 0
DIE = 0.1  # the chance a die shows a given number
NOTHING = [-1] * C.SLOTS  # no sign in any slot


class View:
    """The public numbers a decision needs, worked out once."""

    def __init__(self, h: Heuristic, game: Any, s: State, me: int) -> None:
        n = s.num_players
        self.s, self.me = s, me
        self.alive = sum(s.alive)
        self.rivals = [q for q in range(n) if q != me and s.alive[q]]
        self.sale = [0] * n  # what each seat's businesses sell for
        for b, o in enumerate(s.owner):
            if o >= 0:
                self.sale[o] += C.SALE[b]
        self.lux = list(map(s.lux_owner.count, range(n)))
        for_sale = [PRICE[x] for x, o in enumerate(s.lux_owner) if o == NO_OWNER]  # the prices for sale, in order
        self.cheapest = for_sale[0] if for_sale else 999
        self.second = for_sale[1] if len(for_sale) > 1 else 999
        self.tax = [t if a else 0 for t, a in zip(game.tax_table(s), s.alive)]
        self.reach = [s.money[q] + self.sale[q] for q in range(n)]  # money, selling every business
        portfolio = C.EFFECT_KIND[Effect.PORTFOLIO]
        self.threat = [self.lux[q] >= 2 and self.reach[q] + 2 * s.assets[q][portfolio] >= self.cheapest
                       for q in range(n)]
        self.leader = max(self.rivals, key=lambda q: (self.lux[q], self.reach[q], -q)) if self.rivals else -1
        base = 1.0 / max(1, self.alive - 1)
        self.harm = [min(1.0, base * (2 if q == self.leader or self.threat[q] else 1)) for q in range(n)]
        bought = sum(1 for o in s.lux_owner if o >= 0)
        self.hz = self.alive * max(2.0, h.turns_per_player - 1.5 * bought / self.alive)
        roll = max((C.BUSINESSES[b].pay for b in ROLLERS if s.owner[b] >= 0 and s.owner[b] != me), default=0)
        self.exposure = roll + sum(s.assets[q][C.EFFECT_KIND[Effect.RACKET]] for q in self.rivals)
        self.knockout = 1000.0 if self.alive == 2 else h.knockout
        # The sign visible in each slot from each page (rows[-1]: below page 1, nothing); read only.
        self.rows = [game.visible_row(s, pg) for pg in range(C.PAGES)] + [NOTHING]
        self.pages, self.masks = sign_places(s.book)  # where each sign lies


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Heuristic:
    name = "heuristic"
    turns_per_player = 4.0  # the horizon: turns of income counted per player in
    long_horizon = 2.5  # assets stay for good: their income and taxes count this many horizons
    cover_risk = 0.85  # a sign's hits from each page higher up count this much less (signs to come)
    lux_reserve = (1, 4)  # money kept after buying a luxury: a base, plus this per rival beyond the first
    cash_floor = 4  # money kept after any spend: a Lawsuit takes $4
    bid_margin = 3  # an auction bid for a second luxury may go this far over the printed price
    insure = 1.0  # Fire Insurance: this share of my best business, times the share of Fires unseen
    knockout = 15.0  # knocking a rival out (more than two players in)
    keep = {Effect.WINDFALL: 3.0, Effect.LAWSUIT: 3.0, Effect.FIRE: 1.5, Effect.IRS_AUDIT: 1.0, Effect.SCOUT: 0.5,
            Effect.ADVERTISING: 0.5, Effect.PAGE_TURNER: 0.5, Effect.NETWORKING: 0.2}  # an action card kept in hand

    def act(self, game: Any, state: State, seat: int, rng: Any) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        a = self.choose(game, state, seat, legal)
        return a if a in legal else legal[0]

    def choose(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        """The rules of thumb for the decision at hand (`act` guards against an illegal choice)."""
        v = View(self, game, s, seat)
        ph = s.phase
        if ph == Phase.LUXURY:
            return self.luxury(v, legal)
        if ph == Phase.ACTIONS:
            return self.action(v, legal)
        if ph == Phase.TARGET:
            return self.target(v, legal)
        if ph == Phase.TAX_SELL:
            return self.tax_sale(game, v)
        if ph == Phase.AUCTION:
            return self.bid(v, legal)
        return legal[0]

    # Worth --------------------------------------------------------------------------------------

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

    @staticmethod
    def rate(s: State, p: int, b: int, hits: float) -> float:
        """$ per turn of business b for player p, with `hits` hits per turn on its sign."""
        biz = C.BUSINESSES[b]
        return hits * (biz.pay + s.assets[p][C.EFFECT_KIND[Effect.BILLBOARD]]) + ZEROS * (biz.zero_pay - biz.tax)

    def business_worth(self, v: View, b: int) -> float:
        """An open business's worth to its owner: its income over the horizon."""
        s, page = v.s, v.pages[b]
        hits = sum(self.cell_hits(s, page, i) for i in MASK_SLOTS[v.masks[b]])
        return max(0.0, self.rate(s, s.owner[b], b, hits) * v.hz)

    def safe(self, v: View, spend: int, sale_gain: int = 0, tax_gain: int = 0) -> bool:
        """Whether spending `spend` (for sale value and tax symbols) keeps me safe."""
        me = v.me
        left = v.s.money[me] - spend
        after = left + v.sale[me] + sale_gain  # what I could raise afterwards
        if left < max(self.cash_floor, v.exposure) or after < 2 * (v.tax[me] + tax_gain):
            return False
        return v.lux[me] < 2 or v.reach[me] < v.cheapest or after >= v.cheapest  # keep the win in reach

    def reserve(self, v: View) -> int:
        """Money to keep after buying a luxury: more rivals, more Lawsuits and Audits to come."""
        base, per_rival = self.lux_reserve
        return base + per_rival * (v.alive - 2) + 2 * v.tax[v.me]

    # Luxuries -----------------------------------------------------------------------------------

    def luxury(self, v: View, legal: list[int]) -> int:
        s, me = v.s, v.me
        cheap = A.LUXURY + PRICE.index(v.cheapest) if v.cheapest < 999 else -1
        if cheap not in legal:
            if v.lux[me] >= 2 and v.reach[me] >= v.cheapest:  # sell to reach the winning luxury
                return max((a for a in legal if A.SELL <= a < A.PLAY), key=lambda a: (C.SALE[a - A.SELL], -a))
            return A.DONE
        left = s.money[me] - v.cheapest
        if v.lux[me] >= 2:
            return cheap  # the third luxury wins
        if left < v.exposure:
            return A.DONE
        if left >= self.reserve(v) + 2 * LUX_TAX[cheap - A.LUXURY]:
            return cheap
        # A threat could buy the cheapest next turn but not the one after it: take it from them.
        if any(v.threat[q] and v.reach[q] < v.second for q in v.rivals):
            return cheap
        return A.DONE

    def bid(self, v: View, legal: list[int]) -> int:
        s, me = v.s, v.me
        low = PRICE[s.lot] if s.high < 0 else s.high + 1
        if v.lux[me] >= 2 or any(v.lux[q] >= 2 and s.money[q] >= low for q in v.rivals):
            limit = s.money[me]  # the winning luxury: mine, or one to keep from a rival
        else:
            limit = PRICE[s.lot] + (self.bid_margin if v.lux[me] == 1 else 0)
            limit = min(limit, s.money[me] - self.reserve(v))
        return A.BID if low <= limit and A.BID in legal else A.DONE

    # The two actions ----------------------------------------------------------------------------

    def action(self, v: View, legal: list[int]) -> int:
        s, me = v.s, v.me
        if not s.actions_left or not any(s.hands[me]):
            return self.before_roll(v, legal)
        best, best_v = legal[0], -1e9
        played: dict[int, float] = {}
        opened: dict[int, float] = {}
        row = v.rows[s.page - 1]  # what a new sign would cover
        hits = [self.cell_hits(s, s.page, i) for i in range(C.SLOTS)]
        for a in legal:
            if A.PLAY <= a < A.OPEN:
                k = a - A.PLAY + C.NUM_BUSINESSES
                val = played[k] = self.play_value(v, k)
            elif A.OPEN <= a < A.DISCARD:
                b, anchor = divmod(a - A.OPEN, C.SLOTS)
                val = self.open_value(v, b, anchor, row, hits)
                opened[b] = max(opened.get(b, -1e9), val)
            elif A.DISCARD <= a < A.PLAYER:
                val = C.DISCARD_PAY - self.keep_value(v, a - A.DISCARD, played, opened)
            else:
                continue
            if val > best_v:
                best, best_v = a, val
        return best

    def keep_value(self, v: View, k: int, played: dict, opened: dict) -> float:
        """What a card in hand is worth kept for later (plays and openings already valued)."""
        if k < C.NUM_BUSINESSES:
            if v.s.owner[k] >= 0:
                return 0.0  # its sign is in the book: it cannot be opened
            biz = C.BUSINESSES[k]
            generic = self.rate(v.s, v.me, k, 0.15 * biz.size) * v.hz - biz.cost
            return 0.5 * max(0.0, generic, opened.get(k, 0.0))
        card = C.card_of(k)
        if card.asset:
            return 0.5 * max(0.0, played.get(k, 0.0))
        return self.keep.get(card.effect, 0.0)

    def open_value(self, v: View, b: int, anchor: int, row: list[int], hits: list[float]) -> float:
        s, me = v.s, v.me
        biz = C.BUSINESSES[b]
        cost = biz.cost + sum(C.COVER_FEE for i in MASK_SLOTS[C.PLACEMENTS[b][anchor]]
                              if row[i] >= 0 and s.owner[row[i]] != me)
        if not self.safe(v, cost, C.SALE[b], biz.tax):
            return -1e9
        pay = biz.pay + s.assets[me][C.EFFECT_KIND[Effect.BILLBOARD]]
        dice = s.page + 1 + s.extra_dice
        h = 0.0
        val = -cost + dice * DIE * pay * biz.size  # this turn's roll
        for slot in CELLS[b][anchor]:
            i = slot - 1
            h += hits[i]
            under = row[i]
            if under >= 0:  # the covered sign loses these hits
                o = s.owner[under]
                loss = hits[i] * (C.BUSINESSES[under].pay + s.assets[o][C.EFFECT_KIND[Effect.BILLBOARD]]) * v.hz
                val += -loss if o == me else v.harm[o] * (loss + C.COVER_FEE)
        val += self.rate(s, me, b, h) * v.hz
        if biz.hit == C.Hit.ROLLER:  # rivals pay me for most of those hits
            val += 0.5 * h * biz.pay * v.hz * (1 - 1 / v.alive)
        return val

    def die_value(self, v: View, page: int) -> float:
        """What one business die rolled on `page` is worth to me (its hits, its 0)."""
        s, me = v.s, v.me
        val = 0.0
        for b in v.rows[page]:
            if b < 0:
                continue
            o = s.owner[b]
            pay = C.BUSINESSES[b].pay + s.assets[o][C.EFFECT_KIND[Effect.BILLBOARD]]
            if o == me:
                val += DIE * pay
            elif C.BUSINESSES[b].hit == C.Hit.ROLLER:
                val -= DIE * C.BUSINESSES[b].pay * (1 + v.harm[o])
            else:
                val -= DIE * pay * v.harm[o]
        zero = float(s.assets[me][C.EFFECT_KIND[Effect.OFFSHORE]] * 2 - v.tax[me])
        zero += s.assets[me][C.EFFECT_KIND[Effect.RACKET]] * (v.alive - 1)
        zero += sum(C.BUSINESSES[b].zero_pay for b in range(C.NUM_BUSINESSES) if s.owner[b] == me)
        zero += sum(v.harm[q] * v.tax[q] for q in v.rivals)
        return val + DIE * zero

    def best_page(self, v: View) -> tuple[float, int]:
        """(gain over the current page, page) of the best page for this turn's roll."""
        s = v.s
        worth = [(pg + 1 + s.extra_dice) * self.die_value(v, pg) for pg in range(C.PAGES)]
        return max((worth[pg] - worth[s.page], pg) for pg in range(C.PAGES) if pg != s.page)

    def play_value(self, v: View, k: int) -> float:
        s, me = v.s, v.me
        card = C.card_of(k)
        eff = card.effect
        if card.asset:
            long = v.hz * self.long_horizon
            if eff == Effect.LOAN:
                val = card.amount - card.tax * ZEROS * long
                if v.lux[me] >= 2 and v.reach[me] + card.amount >= v.cheapest:
                    val += 20.0  # the money for the winning luxury
                return val
            if not self.safe(v, card.cost, 0, card.tax):
                return -1e9
            if eff == Effect.RACKET:
                r = ZEROS * card.amount * (v.alive - 1) * (1 + v.harm[v.leader])
            elif eff == Effect.CONNECTIONS:
                r = ZEROS * min(card.amount, v.tax[me])
            elif eff == Effect.OFFSHORE:
                r = ZEROS * card.amount
            elif eff == Effect.BILLBOARD:
                r = card.amount * sum((self.cell_hits(s, v.pages[b], i)
                                       for b in range(C.NUM_BUSINESSES) if s.owner[b] == me
                                       for i in MASK_SLOTS[v.masks[b]]), 0.0)
            elif eff == Effect.PORTFOLIO:
                r = card.amount / v.alive
            else:  # Fire Insurance: my best business, times the share of Fires not yet seen
                best = max((self.business_worth(v, b) + C.SALE[b] for b in range(C.NUM_BUSINESSES) if s.owner[b] == me),
                           default=0.0)
                return self.insure * (FIRES - s.discard[C.EFFECT_KIND[Effect.FIRE]]) / FIRES * best - card.cost
            return (r - ZEROS * card.tax) * long - card.cost
        if eff == Effect.WINDFALL:
            return card.amount
        if eff in (Effect.LAWSUIT, Effect.IRS_AUDIT):
            q = self.player_target(v, eff)
            due = card.amount if eff == Effect.LAWSUIT else v.tax[q]
            paid = min(due, s.money[q])
            val = v.harm[q] * paid + (paid if eff == Effect.LAWSUIT else 0)
            return val + (v.knockout if s.money[q] < due else 0)
        if eff == Effect.FIRE:
            return self.fire_target(v)[0]
        if eff == Effect.SCOUT:
            return max([0.8] + [1.5 * self.keep_value(v, b, {}, {}) for b in range(C.NUM_BUSINESSES) if s.discard[b]])
        if eff == Effect.ADVERTISING:
            return self.die_value(v, s.page)
        if eff == Effect.PAGE_TURNER:
            return self.best_page(v)[0]
        return 1.2 if s.actions_left == 2 else 0.3  # Networking: more cards to choose from this turn

    def before_roll(self, v: View, legal: list[int]) -> int:
        """Sell before the roll only if one die could make me pay more than I have."""
        sells = [a for a in legal if A.SELL <= a < A.PLAY]
        if v.s.money[v.me] < v.exposure and sells:
            return min(sells, key=lambda a: (self.business_worth(v, a - A.SELL) - C.SALE[a - A.SELL], a))
        return A.DONE

    # Targets ------------------------------------------------------------------------------------

    def player_target(self, v: View, eff: int) -> int:
        s = v.s
        lawsuit = C.card_of(C.EFFECT_KIND[Effect.LAWSUIT]).amount
        due = {q: (lawsuit if eff == Effect.LAWSUIT else v.tax[q]) for q in v.rivals}
        return max(due, key=lambda q: (s.money[q] < due[q], v.threat[q], v.lux[q],
                                       due[q] if eff == Effect.IRS_AUDIT else 0, v.reach[q],
                                       -((q - v.me) % s.num_players)))

    def fire_target(self, v: View) -> tuple[float, int]:
        """(value, business) of the best business to burn."""
        s, me = v.s, v.me
        best = (-1e9, -1)
        for b in range(C.NUM_BUSINESSES):
            q = s.owner[b]
            if q < 0 or q == me:
                continue
            if s.assets[q][C.EFFECT_KIND[Effect.INSURANCE]]:
                val = 0.5  # the fire only burns their insurance
            else:
                val = v.harm[q] * (self.business_worth(v, b) + C.SALE[b])
                page = v.pages[b]
                for i in MASK_SLOTS[v.masks[b]]:  # my signs it uncovers
                    under = v.rows[page - 1][i]
                    if under >= 0 and s.owner[under] == me:
                        val += self.cell_hits(s, page, i) * C.BUSINESSES[under].pay * v.hz
            best = max(best, (val, b))
        return best

    def target(self, v: View, legal: list[int]) -> int:
        s = v.s
        eff = C.card_of(s.card).effect
        if s.ask == Ask.PLAYER:
            return A.PLAYER + (self.player_target(v, eff) - v.me) % s.num_players - 1
        if s.ask == Ask.BUSINESS:
            return A.BUSINESS + self.fire_target(v)[1]
        if s.ask == Ask.SCOUT:
            return max(legal, key=lambda a: (self.keep_value(v, a - A.BUSINESS, {}, {}), -a))
        return A.PAGE + self.best_page(v)[1]

    # Tax time -----------------------------------------------------------------------------------

    def tax_sale(self, game: Any, v: View) -> int:
        """Sell only what avoids a knock-out."""
        s, me = v.s, v.me
        zeros = game.zeros_taxed(s)
        mine = [b for b in range(C.NUM_BUSINESSES) if s.owner[b] == me]
        free = s.assets[me][C.EFFECT_KIND[Effect.CONNECTIONS]] * C.card_of(C.EFFECT_KIND[Effect.CONNECTIONS]).amount
        raw = sum(C.BUSINESSES[b].tax for b in mine) + sum(LUX_TAX[x] for x, o in enumerate(s.lux_owner) if o == me)
        raw += sum(s.assets[me][k] * C.card_of(k).tax for k in C.ASSET_KINDS)

        def gap(sold: list[int]) -> int:  # what I would still lack after selling `sold`
            symbols = max(0, raw - sum(C.BUSINESSES[b].tax for b in sold) - free)
            return zeros * symbols - s.money[me] - sum(C.SALE[b] for b in sold)

        if gap([]) <= 0 or gap(mine) > 0:
            return A.DONE  # safe, or out whatever I sell
        closes = [b for b in mine if gap([b]) <= 0]
        if closes:
            return A.SELL + min(closes, key=lambda b: (self.business_worth(v, b), b))
        return A.SELL + min(mine, key=lambda b: (gap([b]), b))
