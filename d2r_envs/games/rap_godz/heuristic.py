"""A rule-of-thumb Rap Godz player: `make_agent("heuristic", "rap_godz")`.

It values a card by what it brings now, and plays by these rules:

    worth(card) = plaques + res_weight * (resources gained) + colour_weight (my Rapper's bonus colour)
                  + city_weight (my Hometown's colour) + icon_weight * (icons, Come Upz have two)

- **Draft**: keep the Rapper with the best ability and goal; then the City whose colour is the Rapper's
  bonus colour (its icons then count twice), else the one with the most starting resources.
- **Get a card**: buy a face-up Come Upz I can play when it is worth more than the cards it costs (the
  least worth in my hand, Beef cards and cards I cannot unlock first) by a margin; otherwise draw.
- **Play**: the card worth most among those I can play; a Beef card instead when its expected swing
  against the best target (the starter wins about 69% of Beef once ties are rerolled) beats that.
- **Pick Upz and abilities**: draw with +1 Card and the extra-draw ability at once; put +3 Resources
  where it unlocks a card in my hand, else on my lowest resource.
- **Beef window**: boost (or reroll) only when I am behind or tied and it can change the result.

It acts only on what its seat may see: its own hand and offer, and the face-up table.

`Tuned` ("heuristic:tuned") is the same player with its constants tuned by self-play and a card's worth
also counting the end-game majorities it moves (standing.py): the shipped opponent's teacher. `outlook`
is how much it prefers each action of a decision (`weighed`), as the observation shows it (encode.py,
option `outlook`).
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import standing
from d2r_envs.games.rap_godz.state import Phase, State

_ABILITY_WORTH = {C.Ability.HAND6: 3.0, C.Ability.EXTRA_DRAW: 3.0, C.Ability.BOOST: 2.0,
                  C.Ability.REROLL: 1.5, C.Ability.DISCOUNT: 1.0}
STARTER_WINS = 125 / 180  # P(max of two dice > one die | no tie)
FAR = 1000.0  # `weighed`: how far below its choice the rest of a decision it takes by rule lies


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Heuristic:
    name = "heuristic"
    res_weight = 0.6
    colour_weight = 1.0
    city_weight = 0.5
    icon_weight = 0.3
    plaque_weight = 1.0
    come_margin = -6.0  # a Come Upz is worth buying even at 6 below the cards it costs (tuned: README)
    beef_keep = (1.5, 1.0)  # a Beef card kept in hand: worth a + b x Album (0-2)
    lock_far = (4, 0.3)  # a hand card short of its lock by more than this: its worth times this ...
    lock_near = 0.7  # ... and by less: times this
    beef_weights = (2.0, 1.0, 0.05, 0.0)  # a Beef's swing: scale of the stakes, the cube, x the lead, bias
    # What `Tuned` adds (nothing here): plaques x the change in my chance of holding each end-game
    # majority a card moves (standing.py), and per hand card its gains unlock.
    majority_weights = (0.0, 0.0, 0.0)  # Citiez by icons, Mono by colour cards, Timeline / Come Up by cards
    unlock_weight = 0.0

    def worth(self, game, s: State, me: int, k: int) -> float:
        card = C.CARDS[k]
        if card.beef:
            return 0.0
        rapper = C.RAPPERZ[s.rappers[me] - C.RAPPER_FIRST]
        city = C.CITIEZ[s.cities[me] - C.CITY_FIRST]
        value = self.plaque_weight * card.plaques + self.res_weight * sum(card.gains) + self.icon_weight * card.icons
        if card.colour == rapper.colour:
            value += self.colour_weight * (1.5 if rapper.ability == C.Ability.BOOST else 1.0)
        if card.colour == city.colour:
            value += self.city_weight * card.icons
        if self.majority_weights != (0.0, 0.0, 0.0):
            value += self._majorities(game, s, me, k)
        if self.unlock_weight and any(card.gains):
            value += self.unlock_weight * self._unlocks(s, me, k)
        return value

    def _majorities(self, game, s: State, me: int, k: int) -> float:
        """Plaques x the change, from playing card k, in my chance of holding each end-game majority
        it moves (`standing.gains`, kept while the timelines are the same)."""
        key = (me, b"".join(s.timelines), bytes(s.cities), s.extra_city, bytes(s.goals))
        if getattr(self, "_standing_key", None) != key:
            self._standing_key, self._standing = key, standing.gains(game, s, me)
        city, mono, count = self._standing[k]
        w_city, w_mono, w_count = self.majority_weights
        return C.GOAL_PLAQUES * (w_city * city + w_mono * mono + w_count * count)

    @staticmethod
    def _unlocks(s: State, me: int, k: int) -> int:
        """My hand cards (other than k) whose lock playing k would open."""
        res, hand, gains = s.res[me], s.hands[me], C.CARDS[k].gains
        opened = 0
        for j in range(C.NUM_PLAY):
            if hand[j] and j != k:
                lock = C.CARDS[j].lock
                if lock and res[lock[0]] < lock[1] <= res[lock[0]] + gains[lock[0]]:
                    opened += 1
        return opened

    def hand_worth(self, game, s: State, me: int, k: int) -> float:
        """What keeping a hand card is worth: its worth, less for a card I cannot unlock soon."""
        card = C.CARDS[k]
        if card.beef:
            return self.beef_keep[0] + self.beef_keep[1] * s.album
        w = self.worth(game, s, me, k)
        if card.lock and s.res[me][card.lock[0]] < card.lock[1]:
            far, times = self.lock_far
            w *= times if card.lock[1] - s.res[me][card.lock[0]] > far else self.lock_near
        return w

    def beef_swing(self, game, s: State, me: int, k: int) -> tuple[float, int]:
        """The expected relative gain of starting Beef with card k, and the best target."""
        gains = self.beef_gains(game, s, me, k)
        best = max(gains)
        return best, gains.index(best)

    def beef_gains(self, game, s: State, me: int, k: int) -> list[float]:
        """The expected relative gain of starting Beef with card k against each target (the player
        i+1 seats to my left)."""
        pl, each = C.BEEF_STAKES[C.CARDS[k].deck]
        scale, cube, by_lead, bias = self.beef_weights
        gains = []
        for i in range(game.n - 1):
            q = (me + 1 + i) % game.n
            p_win = STARTER_WINS - 0.12 * s.pickups[q][C.BEEF_PICK] + 0.12 * s.pickups[me][C.BEEF_PICK]
            won = min(pl, game.points(s, q)) + self.res_weight * min(each, sum(s.res[q]))
            lost = min(pl, game.points(s, me)) + self.res_weight * min(each, sum(s.res[me]))
            lead = game.points(s, q) - game.points(s, me)
            gains.append(scale * (p_win * won - (1 - p_win) * lost) + cube + by_lead * lead + bias)  # the cube, hit the leader
        return gains

    def act(self, game, s: State, me: int, rng: Any) -> int:
        legal = game.legal_actions(s)
        if len(legal) == 1:
            return legal[0]
        ph = s.phase
        if ph == Phase.RAPPER:
            return max(legal, key=lambda a: (_ABILITY_WORTH[C.RAPPERZ[a - A.RAPPER].ability]
                                             + 0.2 * C.RAPPERZ[a - A.RAPPER].goal_plaques, -a))
        if ph == Phase.CITY:
            colour = C.RAPPERZ[s.rappers[me] - C.RAPPER_FIRST].colour
            return max(legal, key=lambda a: (C.CITIEZ[a - A.CITY].colour == colour, C.CITIEZ[a - A.CITY].start[0], -a))
        if ph == Phase.TARGET:
            return A.TARGET + self.beef_swing(game, s, me, s.beef_card)[1]
        if ph == Phase.BEEF:
            mine, theirs = game.beef_values(s)
            if s.side == 1:
                mine, theirs = theirs, mine
            if mine <= theirs:
                if A.BOOST in legal and mine + 2 >= theirs:
                    return A.BOOST
                if A.ABILITY in legal:
                    return A.ABILITY
            return A.PASS
        if ph == Phase.SPEND:
            return min(legal, key=lambda a: (self.hand_worth(game, s, me, a - A.SPEND), a))
        # My turn: Pick Upz and the extra draw first.
        for a in legal:
            if a == A.CARD_PICKUP or (a == A.ABILITY and ph in (Phase.GET, Phase.PLAY)):
                return a
        res_uses = [a for a in legal if A.RES_PICKUP <= a < A.RES_PICKUP + C.NUM_RES]
        if res_uses:
            return self._res_pickup(game, s, me, res_uses)
        if ph == Phase.GET:
            return self._get(game, s, me, legal)
        plays = [a - A.PLAY for a in legal if A.PLAY <= a < A.PLAY + C.NUM_PLAY]
        if not plays:
            return A.PASS
        colours = [k for k in plays if not C.CARDS[k].beef]
        best = max(colours, key=lambda k: (self.worth(game, s, me, k), -k)) if colours else -1
        best_worth = self.worth(game, s, me, best) if colours else -1e9
        beefs = [k for k in plays if C.CARDS[k].beef]
        if beefs:
            swing, _ = self.beef_swing(game, s, me, beefs[0])
            if swing > best_worth:
                return A.PLAY + beefs[0]
        return A.PLAY + best

    def _res_pickup(self, game, s: State, me: int, uses: list[int]) -> int:
        hand = s.hands[me]
        for k in sorted(range(C.NUM_PLAY), key=lambda k: -C.CARDS[k].plaques):
            lock = C.CARDS[k].lock
            if (hand[k] or s.held[me][k]) and lock and 0 < lock[1] - s.res[me][lock[0]] <= 3:
                if A.RES_PICKUP + lock[0] in uses:
                    return A.RES_PICKUP + lock[0]
        return min(uses, key=lambda a: (s.res[me][a - A.RES_PICKUP], a))

    def _get(self, game, s: State, me: int, legal: list[int]) -> int:
        best, best_gain = None, self.come_margin
        for a, gain in self._buy_gains(game, s, me, legal):
            if gain > best_gain:
                best, best_gain = a, gain
        if best is not None:
            return best
        return A.DRAW if A.DRAW in legal else legal[0]

    def _buy_gains(self, game, s: State, me: int, legal: list[int]) -> list[tuple[int, float]]:
        """Each face-up Come Upz I could buy and play: its worth less that of the cards it costs (the
        least worth in my hand)."""
        buys = [a for a in legal if A.COME_UPZ <= a < A.COME_UPZ + C.MAX_SLOTS]
        if not buys:
            return []
        costs = sorted(self.hand_worth(game, s, me, k) for k in range(C.NUM_PLAY) for _ in range(s.hands[me][k]))
        cost = sum(costs[: game.come_cost(s, me)])
        return [(a, self.worth(game, s, me, s.slots[a - A.COME_UPZ]) - cost) for a in buys
                if game.can_play(s, me, s.slots[a - A.COME_UPZ])]

    def weighed(self, game, s: State, me: int, legal: list[int]) -> list[float]:
        """How much it prefers each legal action, in points, its own choice (`act`) the most: a card's
        play by its worth (a Beef card's by its swing against the best target), a Come Upz by its gain
        over the cards it costs and a draw by `come_margin`, a card to spend by minus its worth kept, a
        target by its Beef swing. At the decisions it takes by rule (the draft, Pick Upz and abilities,
        the Beef window) its choice is 0 and the rest FAR below."""
        values = [-FAR] * len(legal)
        ph = s.phase
        ruled = any(a == A.CARD_PICKUP or a == A.ABILITY or A.RES_PICKUP <= a < A.RES_PICKUP + C.NUM_RES
                    for a in legal)  # on my turn, Pick Upz and abilities come first, by rule
        weighs = True
        if ph == Phase.TARGET:
            gains = self.beef_gains(game, s, me, s.beef_card)
            values = [gains[a - A.TARGET] for a in legal]
        elif ph == Phase.SPEND:
            values = [-self.hand_worth(game, s, me, a - A.SPEND) for a in legal]
        elif ph == Phase.GET and not ruled:
            buys = dict(self._buy_gains(game, s, me, legal))
            values = [buys.get(a, -FAR) if a != A.DRAW else self.come_margin for a in legal]
        elif ph == Phase.PLAY and not ruled:
            for i, a in enumerate(legal):
                if A.PLAY <= a < A.PLAY + C.NUM_PLAY:
                    k = a - A.PLAY
                    values[i] = self.beef_swing(game, s, me, k)[0] if C.CARDS[k].beef else self.worth(game, s, me, k)
        else:
            weighs = False
        mine = legal.index(self.act(game, s, me, None))
        values[mine] = max(values) if weighs else 0.0
        return values


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Tuned(Heuristic):
    """The heuristic that also weighs the end-game majorities a card moves (the Citiez on the board,
    Mono, Timeline and Come Up: `_majorities`), its constants tuned by self-play against the heuristic
    (README, "The heuristic and the shipped opponent"): `make_agent("heuristic:tuned", "rap_godz")`.
    The teacher of the shipped opponent's warm start."""

    name = "heuristic:tuned"
    res_weight = 0.91
    colour_weight = 0.71
    city_weight = 0.5
    icon_weight = 0.54
    plaque_weight = 0.81
    come_margin = -2.7
    beef_keep = (2.0, 2.6)
    lock_far = (2, 0.18)
    lock_near = 0.86
    beef_weights = (1.27, 1.76, 0.07, 0.31)
    majority_weights = (1.36, 0.54, 1.0)


OUTLOOK_SIZE = A.ACTIONS.size
_TUNED = Tuned()


def outlook(game: Any, s: State, me: int) -> list[int]:
    """The observation's outlook (encode.py, option `outlook`): deciding, how much the tuned heuristic
    prefers each action (`Tuned.weighed`), per action: 255 for its choice, one less per eighth of a point
    below it, 0 from about 32 points below and for actions not legal. All 0 when I am not deciding or
    have a single choice. It reads only what my seat may see, as the heuristic does."""
    out = [0] * OUTLOOK_SIZE
    if s.phase == Phase.OVER or s.chance or s.actor != me:
        return out
    legal = game.legal_actions(s)
    if len(legal) < 2:
        return out
    values = _TUNED.weighed(game, s, me, legal)
    best = max(values)
    for a, v in zip(legal, values):
        out[a] = max(0, 255 - round(8 * (best - v)))
    return out


VARIANTS = {"tuned": Tuned}  # make_agent("heuristic:<name>", "rap_godz")
