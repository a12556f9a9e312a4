"""A rule-of-thumb Draco & Co player: `make_agent("heuristic", "draco_and_co")`.

It judges a position by what a toast would pay right now, relative to the rivals:

    worth(q) = money(q) + toast_weight * (what q would net from a toast now)
    score    = worth(me) - (max + mean)/2 of worth(rivals) + hand_weight * (cards in my hand)

and plays by these rules:

- **Toast** when the toast raises my score, roughly when it pays me more than it pays the
  rivals. Once the draw pile has run out (the next toast is the final one), toast only if
  the toast makes me the winner.
- **Play** the card whose effect scores best: each card in hand is played out on a copy, its
  choices answered greedily by the rule below, chance sampled; if the cup will be in the centre
  afterwards, the copy may also toast by the rule above.
- **Answer a card's question** (which character, which order, which player, which way for
  Draco) with the option that scores best one step ahead, die rolls averaged over the six faces.
  A choice that changes nothing yet (the first character of a swap) is judged by the best choice
  that follows it.

It acts only on what its seat may see: it reads the circle, the money and its own hand, and every
lookahead runs on `game.redeterminise(state, seat, rng)`, in which the hidden cards are dealt anew.
"""

from __future__ import annotations

import copy
from typing import Any

from mypy_extensions import mypyc_attr

from d2r_envs.core.game import CHANCE
from d2r_envs.games.draco_and_co import actions as A
from d2r_envs.games.draco_and_co.state import Ask, Phase, State


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Heuristic:
    name = "heuristic"
    toast_weight = 1.0  # a toast not yet proposed is worth this share of its payout
    hand_weight = 0.3  # a card in hand is worth this much silver (Gossip draws two)
    win = 1000.0  # the value of a final toast that I win

    def act(self, game: Any, state: State, seat: int, rng: Any) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        if state.phase == Phase.TOAST:  # the circle and the money are public: no lookahead needed
            return A.TOAST if self.wants_toast(game, state, seat) else A.DECLINE
        s = game.redeterminise(state, seat, rng)  # the hidden cards dealt anew: no peeking
        if s.phase == Phase.PLAY:
            return self.choose_card(game, s, seat, legal, rng)
        return self.choose(game, s, seat, rng)[1]

    # Position ---------------------------------------------------------------------------------

    def score(self, game: Any, s: State, seat: int, money: list[int] | None = None) -> float:
        """My worth against the rivals' (half the best rival's, half their average), plus my hand.
        `money` replaces the fortunes (to judge the position after a toast)."""
        gains, costs = game.toast_deltas(s)
        worths = []
        for m, g, c in zip(money or s.money, gains, costs):
            after = m + g - c
            worths.append(m + self.toast_weight * ((after if after > 0 else 0) - m))
        mine = worths.pop(seat)
        rivals = 0.5 * max(worths) + 0.5 * sum(worths) / len(worths)
        return mine - rivals + self.hand_weight * sum(s.hands[seat])

    def after_toast(self, game: Any, s: State) -> list[int]:
        """Everybody's money after a toast now (who cannot pay pays what they can)."""
        gains, costs = game.toast_deltas(s)
        return [max(0, m + g - c) for m, g, c in zip(s.money, gains, costs)]

    def wants_toast(self, game: Any, s: State, seat: int) -> bool:
        after = self.after_toast(game, s)
        if s.exhausted >= game.ends_after:  # the final toast: only if I then win
            top = copy.copy(s)
            top.money = after
            return game.winners(top) == [seat]
        return self.score(game, s, seat, after) > self.score(game, s, seat)

    def value(self, game: Any, s: State, seat: int) -> float:
        """The score of a state after my card; with the cup in the centre I may still toast."""
        if s.phase == Phase.TOAST and s.turn == seat and self.wants_toast(game, s, seat):
            if s.exhausted >= game.ends_after:
                return self.win
            return self.score(game, s, seat, self.after_toast(game, s))
        return self.score(game, s, seat)

    # Playing a card -----------------------------------------------------------------------------

    def choose_card(self, game: Any, s: State, seat: int, legal: list[int], rng: Any) -> int:
        """The card whose effect scores best. To stay quick, the copies sample the die and do not
        look past a choice that changes nothing yet."""
        best, best_value = legal[0], -float("inf")
        for a in legal:
            t = game.clone(s)
            game.apply_legal(t, a)
            v = self.finish(game, t, seat, rng)
            if v > best_value:
                best, best_value = a, v
        return best

    def finish(self, game: Any, t: State, seat: int, rng: Any) -> float:
        """Play out the rest of my card on `t` (changed in place) and return the value."""
        while t.phase == Phase.CARD:
            p = game.current_player(t)
            if p == CHANCE:
                game.apply_legal(t, game.sample_chance(t, rng))
            elif p == seat:
                game.apply_legal(t, self.choose(game, t, seat, rng, depth=0, exact=False)[1])
            else:
                break
        return self.value(game, t, seat)

    # Answering a card's question ----------------------------------------------------------------

    def choose(self, game: Any, s: State, seat: int, rng: Any, depth: int = 1, exact: bool = True) -> tuple[float, int]:
        """(value, action): the option that scores best one step ahead. `depth`: how many choices
        that change nothing yet to look past; `exact`: average die rolls rather than sample them."""
        best, best_value = -1, -float("inf")
        for a in game.legal_actions(s):
            t = game.clone(s)
            game.apply_legal(t, a)
            v = self.settle(game, t, s, seat, rng, depth, exact)
            if v > best_value:
                best, best_value = a, v
        return best_value, best

    def settle(self, game: Any, t: State, before: State, seat: int, rng: Any, depth: int, exact: bool) -> float:
        """The value of `t`, just after one answer (chance resolved first)."""
        while t.phase == Phase.CARD and game.current_player(t) == CHANCE:
            if exact and t.ask == Ask.DIE:  # average over the six faces
                total = 0.0
                for o, p in game.chance_outcomes(t):
                    u = game.clone(t)
                    game.apply_legal(u, o)
                    total += p * self.settle(game, u, before, seat, rng, depth, exact)
                return total
            game.apply_legal(t, game.sample_chance(t, rng))
        if t.phase == Phase.CARD and game.current_player(t) == seat:
            if depth > 0 and t.order == before.order and t.money == before.money:
                return self.choose(game, t, seat, rng, depth - 1, exact)[0]  # nothing happened yet
            return self.score(game, t, seat)
        return self.value(game, t, seat)
