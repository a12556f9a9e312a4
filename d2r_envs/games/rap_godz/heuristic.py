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
"""

from __future__ import annotations

from typing import Any

from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.state import Phase, State

_ABILITY_WORTH = {C.Ability.HAND6: 3.0, C.Ability.EXTRA_DRAW: 3.0, C.Ability.BOOST: 2.0,
                  C.Ability.REROLL: 1.5, C.Ability.DISCOUNT: 1.0}
STARTER_WINS = 125 / 180  # P(max of two dice > one die | no tie)


class Heuristic:
    name = "heuristic"
    res_weight = 0.6
    colour_weight = 1.0
    city_weight = 0.5
    icon_weight = 0.3
    come_margin = -6.0  # a Come Upz is worth buying even at 6 below the cards it costs (tuned: README)

    def worth(self, game, s: State, me: int, k: int) -> float:
        card = C.CARDS[k]
        if card.beef:
            return 0.0
        rapper = C.RAPPERZ[s.rappers[me] - C.RAPPER_FIRST]
        city = C.CITIEZ[s.cities[me] - C.CITY_FIRST]
        value = card.plaques + self.res_weight * sum(card.gains) + self.icon_weight * card.icons
        if card.colour == rapper.colour:
            value += self.colour_weight * (1.5 if rapper.ability == C.Ability.BOOST else 1.0)
        if card.colour == city.colour:
            value += self.city_weight * card.icons
        return value

    def hand_worth(self, game, s: State, me: int, k: int) -> float:
        """What keeping a hand card is worth: its worth, less for a card I cannot unlock soon."""
        card = C.CARDS[k]
        if card.beef:
            return 1.5 + s.album
        w = self.worth(game, s, me, k)
        if card.lock and s.res[me][card.lock[0]] < card.lock[1]:
            w *= 0.3 if card.lock[1] - s.res[me][card.lock[0]] > 4 else 0.7
        return w

    def beef_swing(self, game, s: State, me: int, k: int) -> tuple[float, int]:
        """The expected relative gain of starting Beef with card k, and the best target."""
        pl, each = C.BEEF_STAKES[C.CARDS[k].deck]
        best, target = -1e9, 0
        for i in range(game.n - 1):
            q = (me + 1 + i) % game.n
            p_win = STARTER_WINS - 0.12 * s.pickups[q][C.BEEF_PICK] + 0.12 * s.pickups[me][C.BEEF_PICK]
            won = min(pl, game.points(s, q)) + self.res_weight * min(each, sum(s.res[q]))
            lost = min(pl, game.points(s, me)) + self.res_weight * min(each, sum(s.res[me]))
            lead = game.points(s, q) - game.points(s, me)
            gain = 2 * (p_win * won - (1 - p_win) * lost) + 1.0 + 0.05 * lead  # the cube, and hit the leader
            if gain > best:
                best, target = gain, i
        return best, target

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
        colour = [k for k in plays if not C.CARDS[k].beef]
        best = max(colour, key=lambda k: (self.worth(game, s, me, k), -k)) if colour else -1
        best_worth = self.worth(game, s, me, best) if colour else -1e9
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
        buys = [a for a in legal if A.COME_UPZ <= a < A.COME_UPZ + C.MAX_SLOTS]
        best, best_gain = None, self.come_margin
        if buys:
            costs = sorted(self.hand_worth(game, s, me, k) for k in range(C.NUM_PLAY) for _ in range(s.hands[me][k]))
            cost = sum(costs[: game.come_cost(s, me)])
            for a in buys:
                k = s.slots[a - A.COME_UPZ]
                if not game.can_play(s, me, k):
                    continue
                gain = self.worth(game, s, me, k) - cost
                if gain > best_gain:
                    best, best_gain = a, gain
        if best is not None:
            return best
        return A.DRAW if A.DRAW in legal else legal[0]
