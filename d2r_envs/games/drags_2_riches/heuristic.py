"""A rule-of-thumb Drags 2 Riches player: `make_agent("heuristic", "drags_2_riches")`.

No search: every decision is a short list of priorities over a few numbers, so a decision takes
about 0.01 ms. The numbers:

- a card's **activation worth**, in coins: its coin symbols, plus about a coin per card it draws,
  a little over a coin for a Read (a card stolen), half a coin for Spill the Tea's discard, the
  best card a Vintage can Return, and a little for a Hand-me-down's Lend;
- the **Look weight** `w`: what one point of Look is worth against one coin. It grows with the
  game, from `look_weight[0]` = 0 in deck I (events of 3-4 prestige: the economy comes first, only
  cards that do nothing activated are worn) to `look_weight[1]` = 1 in the last deck (events of 8
  to 12), and is 1.2 in the Sell-Out Tour, where coins only buy more Look;
- a card's **buy score**: `coin_buy * (activation worth) + look_buy * (Look value) - dilution`,
  where the coin weight falls and the Look weight rises as the game goes on. The dilution (2)
  keeps weak cards out of a small deck: early on only Luxe, Tuck, Hand-me-down, Vintage, Spill the
  Tea, Read and Clapback are worth a buy, late also Couture, Mirror and (barely) the 2s;
- the **chance to win the Event**: my Look's value against each rival Look. A rival's filled slot
  is taken to be a card of that type from the cards that may be there (their hand, Wardrobe and
  Look together, which everyone can count from the face-up moves), drawn with weight
  value**`rival_bias` (rivals wear their better cards); the slots are independent, so their sum is
  a convolution. Each rival is taken to compete with probability `rival_up`; ties go by seat order
  from the first player, as the rules say.

The weights were set by self-play matches (a variant against the rest, 600 games at 2 and 4
players, duplicate deals): the dilution, the deck-I Look weight and the rival model each moved the
win share by 5 to 15 points; the other numbers matter little. Against random players it wins every
game (400 of 400 at 2 players and at 4, `d2r eval drags_2_riches --agents heuristic,random`).

The rules of thumb, in the order they are tried on my turn:

1. Use Cheeks Illustra's draw 3 at the start of a last-deck turn. Activate Vintage (Return the best
   card worth 2 or less: Gold first) and the draw cards (Quick Change, Tuck, Clapback) that I do not
   mean to wear, so that I see more cards before deciding.
2. **Wear** the card of each type that gains most: `w * (value - value now in the slot)` against
   its activation worth; Starters go into empty slots for free, coin producers are kept for coins
   unless the Look weight makes the slot gain worth more.
3. Use a one-shot Look boost (Ho Couture, Shessica, Kenya Feelit) when competing for a big Event
   (the Sell-Out Tour, or 9+ prestige with a Look of 3+ cards); Glam Stoker's +2 is kept for the
   thumbs, where it is added when it matters.
4. Activate the Shades (Read, Spill the Tea) on the **leader** (most prestige, then most Look
   cards), never on an unused Kelisha Keys nor on an empty hand; then coins; then Hand-me-down
   last, so it Lends a useless card (a Starter whose slot is better filled), or nothing.
5. Catastrophoebe takes the top Market card early; Bi Felicia trashes Starters, then Silvers.
6. **Buy** the best affordable set of Market cards by buy score (a small knapsack, at most one
   card of a type in the Sell-Out Tour, where purchases are worn straight away and the score is
   the Look gain); then end the turn.

Elsewhere: always **block or reverse** a Shade (Reverse Shade card first, then a Block Shade card,
then Kelisha Keys); Borrow or Return the best card, Lend the worst, Trash Starters first.
**Thumbs up** when the chance to win is at least `up_threshold` (always in the Sell-Out Tour),
adding Glam Stoker's +2 in the Sell-Out Tour or where it lifts the chance a lot on a big Event.
Last Minute Additions: the same wear rule (everything that helps in the Sell-Out Tour).
Category Is: award a tie to myself, else to the tied player with the least prestige.

It acts only on what its seat may see: its own hand, Wardrobe, Floordrobe and Look, the public
zones (Floordrobes, Market, trash, Events, prestige, hand sizes, which Look slots are filled,
Characters and their one-round effects) and its own Peek. A rival's Look is judged only through
the contents of that rival's hand, Wardrobe and Look together, which `redeterminise` keeps, and the
rivals' undeclared thumbs are never read. It uses no randomness.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.cards import Character, Op
from d2r_envs.games.drags_2_riches.state import Ask, Phase, State

OP = tuple(int(k.op) for k in C.KINDS)
AMOUNT = tuple(k.amount for k in C.KINDS)
STARTER = tuple(k.group == "starter" for k in C.KINDS)
DRAWS = tuple(k.amount if k.op == Op.DRAW else 0 for k in C.KINDS)
SHADE = tuple(k.shade for k in C.KINDS)
REVERSER = tuple(k.reverse for k in C.KINDS)
BLOCKER = tuple(k.block for k in C.KINDS)

# Characters in order of preference, as measured in self-play (4 players, random picking order):
# Kelisha Keys won 39% (Shades avoid an unused Kelisha), Glam Stoker 27%, Catastrophoebe 26%,
# Bi Felicia 24%, Ho Couture 23%, Shessica 21%, Cheeks Illustra 20%, Kenya Feelit 19%.
CHARACTER_ORDER = (Character.KELISHA_KEYS, Character.GLAM_STOKER, Character.CATASTROPHOEBE, Character.BI_FELICIA,
                   Character.HO_COUTURE, Character.SHESSICA, Character.CHEEKS_ILLUSTRA, Character.KENYA_FEELIT)
LOOK_BOOSTS = (Character.HO_COUTURE, Character.SHESSICA, Character.KENYA_FEELIT)


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Heuristic:
    name = "heuristic"
    look_weight = (0.0, 1.0)  # a Look point in coins: first deck, last deck (linear between)
    sell_out_weight = 1.2  # a Look point in the Sell-Out Tour (a coin buys at most one)
    coin_buy = (1.0, 0.3)  # buy score: weight of a card's activation worth, first / last deck
    look_buy = (0.25, 0.9)  # buy score: weight of a card's Look value, first / last deck
    dilution = 2.0  # buy score: the cost of one more card in the deck (a Basic is not worth it early)
    draw_worth = 1.0  # a drawn card, in coins
    read_worth = 1.3  # Read: Peek and Borrow the best card
    spill_worth = 0.5  # Spill the Tea's discard (besides its coin)
    lend_worth = 0.3  # Hand-me-down's Lend (besides its coin): a useless card out of the deck
    rival_up = 0.6  # the chance a rival with a Look competes
    rival_bias = 1.5  # a rival's worn card: a card of the slot's type drawn with weight value**bias
    up_threshold = 0.5  # thumbs up from this chance to win
    big_event = 9  # prestige from which the one-shot Look boosts are spent

    def act(self, game: Any, state: State, seat: int, rng: Any) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        ph = state.phase
        if ph == Phase.PLAY:
            a = self.play(game, state, seat, legal)
        elif ph == Phase.WERK:
            a = self.buy(game, state, seat, legal)
        elif ph == Phase.CARD:
            a = self.answer(game, state, seat, legal)
        elif ph == Phase.REACT:
            a = self.react(state, seat, legal)
        elif ph == Phase.THUMBS:
            a = self.thumbs(game, state, seat, legal)
        elif ph == Phase.LAST_MINUTE:
            a = self.last_minute(game, state, seat, legal)
        elif ph == Phase.JUDGE:
            a = self.judge(game, state, seat, legal)
        elif ph == Phase.CHARACTERS:
            a = self.character(legal)
        else:
            a = legal[0]
        return a if a in legal else legal[0]

    # The game's progress ------------------------------------------------------------------------

    def level(self, s: State) -> float:
        """0 in the first deck of Events, 1 in the last (the Sell-Out Tour's)."""
        if s.event < 0:
            return 0.0
        last = len(s.stages) - 1
        if s.event == C.SELL_OUT or last <= 0:
            return 1.0
        deck = C.EVENTS[s.event].deck
        pos = s.stages.index(deck) if deck in s.stages else last
        return pos / last

    def look_w(self, s: State) -> float:
        if s.event == C.SELL_OUT:
            return self.sell_out_weight
        lo, hi = self.look_weight
        return lo + (hi - lo) * self.level(s)

    def prestige(self, s: State, p: int) -> int:
        return sum(C.EVENTS[e].prestige for e in s.won[p])

    # Card worth --------------------------------------------------------------------------------

    def return_worth(self, s: State, seat: int, limit: int) -> tuple[float, int]:
        """(worth, kind) of the best card of value <= limit in my Floordrobe."""
        floor = s.floors[seat]
        best, kind = -1.0, -1
        for k in range(C.NUM_KINDS):
            if floor[k] and C.VALUE[k] <= limit:
                w = self.activation_worth(s, seat, k, nested=True)
                if STARTER[k] and s.looks[seat][C.TYPE_OF[k]] < 0:
                    w = max(w, 0.5)
                if w > best:
                    best, kind = w, k
        return best, kind

    def action_worth(self, k: int, returned: float) -> float:
        """Coins plus what the card's action is worth (`returned`: the worth of its Return)."""
        w = float(C.COINS[k])
        op = OP[k]
        if op == Op.DRAW:
            w += self.draw_worth * DRAWS[k]
        elif op == Op.PEEK_BORROW:
            w += self.read_worth
        elif op == Op.DISCARD:
            w += self.spill_worth
        elif op == Op.RETURN:
            w += returned
        elif op == Op.LEND:
            w += self.lend_worth
        return w

    def activation_worth(self, s: State, seat: int, k: int, nested: bool = False) -> float:
        if OP[k] != Op.RETURN or nested:
            return self.action_worth(k, 1.0)
        return self.action_worth(k, max(0.0, self.return_worth(s, seat, AMOUNT[k])[0]))

    def slot_value(self, s: State, seat: int, t: int) -> int:
        k = s.looks[seat][t]
        return C.VALUE[k] if k >= 0 else 0

    def wear_plan(self, s: State, seat: int, w: float) -> list[int]:
        """For each type, the hand card to wear (or -1): the best net gain over activating it."""
        hand = s.hands[seat]
        best = [-1] * C.NUM_TYPES
        gain = [0.0] * C.NUM_TYPES
        for k in range(2, C.NUM_KINDS):
            if not hand[k]:
                continue
            t = C.TYPE_OF[k]
            diff = C.VALUE[k] - self.slot_value(s, seat, t)
            if diff <= 0:
                continue
            worth = self.activation_worth(s, seat, k)
            net = w * diff - worth
            if worth <= 0:
                net += 0.01  # a card that does nothing activated (a Starter, Couture): wear it
            if net > gain[t] + 1e-9:
                best[t], gain[t] = k, net
        return best

    def buy_score(self, s: State, k: int, lv: float) -> float:
        return self.card_score(k, lv) - self.dilution

    def card_score(self, k: int, lv: float) -> float:
        cw = self.coin_buy[0] + (self.coin_buy[1] - self.coin_buy[0]) * lv
        lw = self.look_buy[0] + (self.look_buy[1] - self.look_buy[0]) * lv
        w = self.action_worth(k, 1.5)
        if REVERSER[k] or BLOCKER[k]:
            w += 0.3
        return cw * w + lw * C.VALUE[k]

    # Playing Phase -------------------------------------------------------------------------------

    def play(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        hand = s.hands[seat]
        sell_out = s.event == C.SELL_OUT
        ch = s.characters[seat] if s.characters else -1
        can_ability = A.ABILITY in legal
        lv = self.level(s)
        w = self.look_w(s)

        # 1. Cheeks Illustra draws 3 at the start of a last-deck turn.
        if can_ability and ch == Character.CHEEKS_ILLUSTRA and lv >= 1.0:
            return A.ABILITY

        plan = self.wear_plan(s, seat, w)
        planned = [0] * C.NUM_KINDS
        for k in plan:
            if k >= 0:
                planned[k] += 1

        # Vintage first (the returned card is played this turn), then the draw cards.
        for k in range(2, C.NUM_KINDS):
            if hand[k] > planned[k] and OP[k] == Op.RETURN and self.return_worth(s, seat, AMOUNT[k])[0] > 0:
                return A.ACTIVATE + k
        for k in range(2, C.NUM_KINDS):
            if hand[k] > planned[k] and OP[k] == Op.DRAW:
                return A.ACTIVATE + k

        # 2. Wear.
        for k in plan:
            if k >= 0:
                return A.WEAR + k

        # 3. One-shot Look boosts for a big Event.
        if can_ability and ch in LOOK_BOOSTS and self.wants_boost(s, seat):
            return A.ABILITY

        # 4. Shades, coins, then Hand-me-down.
        others = self.others_with_cards(s, seat)
        for k in range(2, C.NUM_KINDS):
            if hand[k] > planned[k] and SHADE[k] and (others or C.COINS[k]):
                return A.ACTIVATE + k
        for k in range(C.NUM_KINDS):
            if hand[k] > planned[k] and C.COINS[k] and OP[k] != Op.LEND:
                return A.ACTIVATE + k
        for k in range(2, C.NUM_KINDS):
            if hand[k] > planned[k] and OP[k] == Op.LEND:
                return A.ACTIVATE + k

        # 5. Catastrophoebe, Bi Felicia.
        if can_ability and ch == Character.CATASTROPHOEBE and not sell_out:
            top = max(C.VALUE[k] for k in range(C.NUM_KINDS) if s.market[k])
            if top >= 6 or lv > 0:
                return A.ABILITY
        if can_ability and ch == Character.BI_FELICIA and not sell_out:
            junk = sum(s.floors[seat][k] for k in C.STARTERS) + s.floors[seat][C.SILVER]
            if junk >= 3 or (lv > 0 and junk >= 1):
                return A.ABILITY

        # 6. Buy, then end.
        return self.buy(game, s, seat, legal)

    def others_with_cards(self, s: State, seat: int) -> bool:
        return any(q != seat and any(s.hands[q]) for q in range(s.num_players))

    def wants_boost(self, s: State, seat: int) -> bool:
        if s.event < 0 or C.EVENTS[s.event].kind == C.EventKind.SPREE:
            return False
        cards = sum(1 for k in s.looks[seat] if k >= 0)
        if s.event == C.SELL_OUT:
            return cards > 0
        return C.EVENTS[s.event].prestige >= self.big_event and cards >= 3

    # Werk Phase ----------------------------------------------------------------------------------

    def buy(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        buys = [a - A.BUY for a in legal if A.BUY <= a < A.ABILITY]
        if not buys:
            return A.END
        if s.event == C.SELL_OUT:
            return self.buy_look(s, seat, buys)
        lv = self.level(s)
        if s.coins < min(C.VALUE[k] for k in buys):  # Thrifting: a free card
            k = max(buys, key=lambda k: (self.buy_score(s, k, lv), -k))
            return A.BUY + k if self.buy_score(s, k, lv) > 0 else A.END
        items = []
        for k in range(C.NUM_KINDS):
            if s.market[k] and C.VALUE[k] <= s.coins:
                sc = self.buy_score(s, k, lv)
                if sc > 0:
                    items += [(k, sc)] * s.market[k]
        if not items:
            return A.END
        best = self.knapsack(items, s.coins)
        if not best:
            return A.END
        k = max(best, key=lambda k: (self.buy_score(s, k, lv), C.VALUE[k], -k))
        return A.BUY + k

    @staticmethod
    def knapsack(items: list[tuple[int, float]], budget: int) -> list[int]:
        """The kinds of the best-scoring subset of items that costs at most `budget`."""
        best: dict[int, tuple[float, list[int]]] = {0: (0.0, [])}
        for k, sc in items:
            cost = C.VALUE[k]
            for spent, (total, chosen) in list(best.items()):
                c = spent + cost
                if c <= budget and (c not in best or best[c][0] < total + sc):
                    best[c] = (total + sc, chosen + [k])
        return max(best.values(), key=lambda v: v[0])[1]

    def buy_look(self, s: State, seat: int, buys: list[int]) -> int:
        """Sell-Out Tour: buy what gains most Look now, one card per type, within the coins."""
        hand = s.hands[seat]
        base = [self.slot_value(s, seat, t) for t in range(C.NUM_TYPES)]
        for k in range(2, C.NUM_KINDS):  # cards in hand will be worn too
            if hand[k] and C.VALUE[k] > base[C.TYPE_OF[k]]:
                base[C.TYPE_OF[k]] = C.VALUE[k]
        best_gain, best_cost, best_k = 0, 0, -1
        free = s.coins < min(C.VALUE[k] for k in buys)
        # One card per type: for each type the affordable card of highest gain per coin spent;
        # then the pairs, which is enough for a turn's coins.
        cands = []
        for k in set(buys):
            g = C.VALUE[k] - base[C.TYPE_OF[k]]
            if g > 0:
                cands.append((k, g, 0 if free else C.VALUE[k]))
        for i, (k, g, c) in enumerate(cands):
            if (g, -c) > (best_gain, -best_cost):
                best_gain, best_cost, best_k = g, c, k
            for k2, g2, c2 in cands[i + 1:]:
                if (C.TYPE_OF[k2] != C.TYPE_OF[k] and c + c2 <= s.coins
                        and (g + g2, -(c + c2)) > (best_gain, -best_cost)):
                    best_gain, best_cost, best_k = g + g2, c + c2, (k if g >= g2 else k2)
        return A.BUY + best_k if best_k >= 0 else A.END

    # Questions inside a card or Character action --------------------------------------------------

    def answer(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        ask = s.ask
        n = s.num_players
        if ask == Ask.SHADE_TARGET:
            return A.TARGET + self.rel(seat, self.shade_target(s, seat), n)
        if ask == Ask.BORROW:
            lv = self.level(s)
            return max(legal, key=lambda a: (self.buy_score(s, a - A.CARD, lv), -a))
        if ask == Ask.RETURN:
            k = self.return_worth(s, seat, AMOUNT[s.card])[1]
            return A.CARD + k
        if ask == Ask.LEND_CARD:
            return A.CARD + self.worst_card(s, seat, [a - A.CARD for a in legal])
        if ask == Ask.LEND_TARGET:
            k = s.picked
            junk = STARTER[k] or C.VALUE[k] <= 1
            others = [q for q in range(n) if q != seat]
            if junk:
                q = max(others, key=lambda q: (self.prestige(s, q), -((q - seat) % n)))
            else:
                q = min(others, key=lambda q: (self.prestige(s, q), (q - seat) % n))
            return A.TARGET + self.rel(seat, q, n)
        if ask == Ask.TRASH:
            return A.CARD + self.worst_card(s, seat, [a - A.CARD for a in legal], trash=True)
        if ask == Ask.TAKE:
            lv = self.level(s)
            return max(legal, key=lambda a: (self.buy_score(s, a - A.CARD, lv), -a))
        if ask == Ask.KENYA_TYPE:
            return A.LOOK_TYPE + self.kenya_type(s, seat)
        if ask == Ask.SHESSICA_TYPE:
            t = max(range(C.NUM_TYPES), key=lambda t: (self.slot_value(s, seat, t), -t))
            return A.LOOK_TYPE + t
        if ask == Ask.SHESSICA_TARGET:
            t = s.chosen_type
            others = [q for q in range(n) if q != seat]
            q = min(others, key=lambda q: (s.looks[q][t] >= 0, sum(1 for x in s.looks[q] if x >= 0),
                                           self.prestige(s, q), (q - seat) % n))
            return A.TARGET + self.rel(seat, q, n)
        return legal[0]

    @staticmethod
    def rel(seat: int, q: int, n: int) -> int:
        return (q - seat) % n - 1

    def shade_target(self, s: State, seat: int) -> int:
        n = s.num_players
        read = OP[s.card] == Op.PEEK_BORROW

        def key(q: int) -> tuple:
            size = sum(s.hands[q])
            kelisha = s.characters[q] == Character.KELISHA_KEYS and not s.used[q]
            return (size > 0, not kelisha, self.prestige(s, q), sum(1 for x in s.looks[q] if x >= 0),
                    size if read else 0, -((q - seat) % n))

        return max((q for q in range(n) if q != seat), key=key)

    def worst_card(self, s: State, seat: int, kinds: list[int], trash: bool = False) -> int:
        """The card I least want: a Starter whose slot is filled better first."""
        lv = self.level(s)

        def key(k: int) -> tuple:
            if STARTER[k]:
                useful = not trash and self.slot_value(s, seat, C.TYPE_OF[k]) < 1
                return (1 if useful else 0, k)
            if k == C.SILVER:
                return (2, 0)
            return (3, self.buy_score(s, k, lv), -k)

        return min(kinds, key=key)

    def kenya_type(self, s: State, seat: int) -> int:
        """The type whose cards are worth most in the rivals' Looks."""
        worth = [0.0] * C.NUM_TYPES
        for q in range(s.num_players):
            if q == seat:
                continue
            for t in range(C.NUM_TYPES):
                if s.looks[q][t] >= 0:
                    dist = self.slot_dist(s, q, t)
                    worth[t] += sum(v * p for v, p in enumerate(dist))
        return max(range(C.NUM_TYPES), key=lambda t: (worth[t], -t))

    # Shade received ----------------------------------------------------------------------------

    def react(self, s: State, seat: int, legal: list[int]) -> int:
        hand = s.hands[seat]
        if A.REVERSE in legal and any(hand[k] for k in C.REVERSERS):
            return A.REVERSE
        if A.BLOCK in legal:
            return A.BLOCK
        if A.REVERSE in legal:
            return A.REVERSE
        return A.TAKE

    # Event Phase -------------------------------------------------------------------------------

    def slot_dist(self, s: State, q: int, t: int) -> list[float]:
        """The distribution of the value of rival q's card in slot t: a random card of type t among
        q's hand, Wardrobe and Look together (public counts), with this round's effects."""
        counts = [0.0] * (2 * max(C.VALUE) + C.HO_BONUS + 1)
        hand, wardrobe = s.hands[q], s.wardrobes[q]
        worn = s.looks[q][t]
        zero = s.zeroed[q] >> t & 1
        double = s.doubled[q] >> t & 1
        ho = 1 if s.ho[q] else 0
        bias = self.rival_bias
        for k in C.SLOT_KINDS[t]:
            c = hand[k] + wardrobe[k] + (1 if worn == k else 0)
            if c:
                v = 0 if zero else C.VALUE[k] * (2 if double else 1) + ho
                counts[v] += c * (C.VALUE[k] ** bias if bias else 1)
        total = sum(counts)
        return [c / total for c in counts]

    def rival_dist(self, s: State, q: int) -> list[float]:
        dist = [1.0]
        for t in range(C.NUM_TYPES):
            if s.looks[q][t] < 0:
                continue
            sd = self.slot_dist(s, q, t)
            new = [0.0] * (len(dist) + len(sd) - 1)
            for i, a in enumerate(dist):
                if a:
                    for j, b in enumerate(sd):
                        if b:
                            new[i + j] += a * b
            dist = new
        bonus = s.bonus[q]
        if s.characters[q] == Character.GLAM_STOKER and not s.used[q]:  # may add Deathdrop Diva's +2
            half = [0.0] * (len(dist) + C.GLAM_BONUS)
            for i, a in enumerate(dist):
                half[i] += 0.5 * a
                half[i + C.GLAM_BONUS] += 0.5 * a
            dist = half
        return [0.0] * bonus + dist

    def win_chance(self, game: Any, s: State, seat: int, value: int) -> float:
        n = s.num_players
        first = s.first
        mine = (seat - first) % n
        p = 1.0
        for q in range(n):
            if q == seat or all(x < 0 for x in s.looks[q]):
                continue
            dist = self.rival_dist(s, q)
            tie_mine = mine < (q - first) % n
            lose = sum(dist[value + 1:]) + (0.0 if tie_mine else (dist[value] if value < len(dist) else 0.0))
            p *= 1.0 - self.rival_up * lose
        return p

    def thumbs(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        value = game.look_value(s, seat)
        glam = A.UP_GLAM in legal
        if s.event == C.SELL_OUT:
            return A.UP_GLAM if glam else A.UP
        p = self.win_chance(game, s, seat, value)
        if glam and C.EVENTS[s.event].prestige >= self.big_event - 1:
            pg = self.win_chance(game, s, seat, value + C.GLAM_BONUS)
            if pg >= self.up_threshold and pg - p >= 0.2:
                return A.UP_GLAM
        return A.UP if p >= self.up_threshold else A.DOWN

    def last_minute(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        w = self.look_w(s) if s.event != C.SELL_OUT else 100.0
        for k in self.wear_plan(s, seat, w):
            if k >= 0 and A.WEAR + k in legal:
                return A.WEAR + k
        return A.END

    def judge(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        n = s.num_players
        if A.WINNER in legal:
            return A.WINNER
        return min(legal, key=lambda a: (self.prestige(s, (seat + a - A.WINNER) % n), a))

    def character(self, legal: list[int]) -> int:
        for c in CHARACTER_ORDER:
            if A.CHARACTER + c in legal:
                return A.CHARACTER + c
        return legal[0]
