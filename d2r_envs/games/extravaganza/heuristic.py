"""A rule-of-thumb Extravaganza player: `make_agent("heuristic", "extravaganza")`.

Rules of thumb, one per kind of decision:

- **Place / move**: go where the most rhinestones are collected (the landing one and those of its
  colour passed), one less per queen paid on the way; with a Runway card in hand, distance counts too.
  Powers: Green Screen counts the greens she collects too (and a green landing's best colour), Body
  Oddy a rhinestone from a nearby queen, Blood Sucker the lyric points a nearby queen would lend.
- **Draw**: the display card worth most lips plus its stars; no card when the hand holds 4 or more.
- **Dance**: each playable card is danced out on a copy of the state, its payment and choices
  answered by these same rules; the card adding the most points is danced, for the most stars.
- **Pay**: Stage Presence first, then the rhinestone colour held most, then a hand card, and a
  played card last (played cards pay lips when drawing and count for Tuck); for Booty (and for
  Twirls, a colour's last rhinestone) a hand card before a rhinestone, which would score.
- **Lip sync**: claim while lips allow, unless the top card's category is already at 40.
- **Everything else**: take what is free (Pirouette, Body Oddy, a reveal card), score the biggest
  colour (Eleganza, Floorwerk), shade the most stars, reveal the most stars for my own Handwerk
  and the fewest for another's.

It acts only on what its seat may see: the lookahead runs on `game.redeterminise(state, seat, rng)`,
in which the cards it cannot see are dealt anew.

`Tuned` ("heuristic:tuned") plans its move and its draw too: each choice played out to the next
player's turn and valued by the score it leaves (README). `outlook` is how much it prefers each choice, as
the observation shows it (encode.py, option `outlook`), on copies dealt from a fixed seed.

`Planner` ("heuristic:plan") plans them from what its seat sees alone, by the points the best dance
could add after each landing or draw (`views.landing_gains`, `dance_gains`, which the observation
shows): a teacher whose move and draw the observation determines (README, "The planner").
"""

from __future__ import annotations

from operator import mul
from typing import Any

import numpy as np
from mypy_extensions import mypyc_attr

from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C, views
from d2r_envs.games.extravaganza.state import Op, State

_STOP = frozenset((int(Op.LIP_SYNC), int(Op.END_REVEAL), int(Op.START_TURN)))  # where a dance played out ends


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Heuristic:
    name = "heuristic"
    hand_limit = 4  # stop drawing at this many cards in hand

    def act(self, game: Any, state: State, seat: int, rng: Any) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        code = state.todo[0].op
        if code == Op.DANCE and any(A.DANCE <= a < A.STARS for a in legal):
            reveal = [a for a in legal if a >= A.REVEAL]
            if reveal:
                return reveal[0]
            return self.choose_dance(game, game.redeterminise(state, seat, rng), seat, legal, rng)
        return self.quick(game, state, seat, legal)

    # One decision by its rule of thumb ----------------------------------------------------------

    def quick(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        reveal = [a for a in legal if a >= A.REVEAL]
        if reveal:  # free points: play a reveal card as soon as one may be played
            return reveal[0]
        code = s.todo[0].op
        if code in (Op.PLACE, Op.MOVE):
            return max(legal, key=lambda a: self.move_value(game, s, seat, a, code == Op.PLACE))
        if code == Op.DRAW:
            if sum(s.hands[seat]) >= self.hand_limit:
                return A.PASS
            return max(legal, key=lambda a: self.draw_value(game, s, seat, a))
        if code == Op.SETUP_DRAW:
            return max(legal, key=lambda a: C.CARD_STARS[s.display[a - A.DRAW]])
        if code == Op.DANCE:
            return max(legal, key=lambda a: (a != A.PASS, -a))
        if code == Op.STARS:
            return max(legal)
        if code == Op.HALF:
            return max(legal, key=lambda a: self.pay_value(s, seat, a))
        if code == Op.LIP_SYNC:
            top = s.stacks[seat][-1] if s.stacks[seat] else -1
            j = s.cats.index(C.CARD_CATEGORY[top]) if top >= 0 else 0
            return A.CLAIM if A.CLAIM in legal and s.scores[seat][j] < C.CATEGORY_CAP else A.STOP
        if code == Op.PAY_QUEEN:
            return max(legal, key=lambda a: s.supply[seat][a - A.COLOR])
        if code in (Op.ELEGANZA, Op.FLOORWERK):
            counts = views.colour_counts(game, s)
            return max(legal, key=lambda a: counts[a - A.COLOR])
        if code == Op.GREEN_LAND:
            return max(legal, key=lambda a: sum(1 for sp in s.path if s.stage[sp] == a - A.COLOR))
        if code == Op.SHADE:
            return max(legal, key=lambda a: C.CARD_STARS[s.display[a - A.JUDGE]])
        if code == Op.SHOW_SELF:
            return max(legal, key=lambda a: C.CARD_STARS[a - A.SHOW] if a != A.STOP else 0)
        if code == Op.SHOW_OTHER:
            return min(legal, key=lambda a: C.CARD_STARS[a - A.SHOW])
        if code == Op.BLOOD:
            return max(legal, key=lambda a: self.blood_value(game, s, seat, a))
        if code in (Op.PIROUETTE, Op.BODY_ODDY):
            return max(legal)  # a rhinestone rather than nothing
        if code == Op.END_REVEAL:
            return A.PASS
        return legal[0]  # the draft: the first queen left

    def move_value(self, game: Any, s: State, seat: int, a: int, placing: bool) -> float:
        if a == A.PASS:
            return 0.0
        dest = a - A.SPACE
        if placing:
            return (s.stage[dest] >= 0) + 0.1 * len(C.NEARBY[dest])
        path = next(r[: r.index(dest)] for r in C.RAYS[s.pos[seat]] if dest in r)
        through = sum(1 for sp in path if sp in s.pos)
        colour = s.stage[dest]
        value = -float(through)
        if colour >= 0:
            passed = [s.stage[sp] for sp in path]
            if game.powers and s.queen[seat] == C.TART:  # Green Screen: passed greens come too; a green names any colour
                greens = passed.count(C.GREEN)
                value += 1 + greens + (max(passed.count(c) for c in range(C.NUM_COLOURS) if c != C.GREEN)
                                       if colour == C.GREEN else passed.count(colour) * (colour != C.GREEN))
            else:
                value += 1 + passed.count(colour)
        value += self.runway_value(s, seat, len(path) + 1 + 2 * through)
        if game.powers and s.queen[seat] == C.ANNE:  # Blood Sucker: land by the queen whose lyrics score most
            value += self.BLOOD_WEIGHT * self.blood_gain(game, s, seat, dest)
        if game.powers and s.queen[seat] == C.ELLA:  # Body Oddy: a rhinestone from each nearby queen
            value += self.oddy_gain(game, s, seat, dest, colour)
        return value + self.near_weight * len(C.NEARBY[dest])

    BLOOD_WEIGHT = 1.0
    near_weight = 0.01  # per nearby space of the destination, to break ties

    def runway_value(self, s: State, seat: int, count: int) -> float:
        """With a Runway card in hand, half a point per space the move counts for Runway."""
        if C.RUNWAY in s.cats and any(s.hands[seat][k] for k in C.category_cards(C.RUNWAY)):
            return 0.5 * count
        return 0.0

    @staticmethod
    def oddy_gain(game: Any, s: State, seat: int, dest: int, landing: int) -> int:
        """Body Oddy: how many nearby queens would give me a rhinestone of a colour I lack after landing."""
        mine = {c for c in range(C.NUM_COLOURS) if s.supply[seat][c]}
        if landing >= 0:
            mine.add(landing)
        around = C.NEARBY[dest]
        for q in range(game.n):
            if q != seat and s.pos[q] in around:
                lack = [c for c in range(C.NUM_COLOURS) if s.supply[q][c] and c not in mine]
                if lack:
                    return 1  # EX-DECIDE-ODDY: one rhinestone a landing
        return 0

    def blood_gain(self, game: Any, s: State, seat: int, dest: int) -> float:
        """Blood Sucker: the points a nearby queen's lyrics would add over mine to the lyrics I can afford now."""
        lips = float(s.lips[seat])
        colours: set[int] = set()
        if sum(s.hands[seat]) < self.hand_limit:  # the draw after the move brings lips
            lips += max((self.draw_value(game, s, seat, A.DRAW + j) - C.CARD_STARS[s.display[j]]
                         for j in range(C.NUM_JUDGES) if s.display[j] >= 0), default=0)
        for slot in range(s.song_next, len(s.song)):
            t = s.song[slot]
            if C.LYRIC_STARS[t] > lips:
                break
            lips -= C.LYRIC_STARS[t]
            colours.add(C.LYRIC_COLOUR[t])
        if not colours:
            return 0.0

        def score(held: list[int]) -> int:
            return sum(C.LYRIC_STARS[t] for t in held if C.LYRIC_COLOUR[t] in colours)

        around = C.NEARBY[dest]
        best = max((score(s.lyrics[q]) for q in range(game.n) if q != seat and s.pos[q] in around), default=0)
        return max(0, best - score(s.lyrics[seat]))

    def draw_value(self, game: Any, s: State, seat: int, a: int) -> float:
        if a == A.PASS:
            return 0.5
        k = s.display[a - A.DRAW]
        colour = C.CARD_COLOUR[k]
        lips = sum(1 for d in s.display if d >= 0 and C.CARD_COLOUR[d] == colour)
        lips += sum(1 for x in s.stacks[seat] if C.CARD_COLOUR[x] == colour)
        return lips + C.CARD_STARS[k]

    def pay_value(self, s: State, seat: int, a: int) -> float:
        if a == A.PAY_STAGE:
            return 100.0
        if A.PAY_STONE <= a < A.PAY_GREEN:
            c = a - A.PAY_STONE
            cat = C.CARD_CATEGORY[s.playing] if s.playing >= 0 else -1
            if cat == C.BOOTY or (cat == C.TWIRLS and s.supply[seat][c] == 1):
                return 10.0 + s.supply[seat][c]  # Booty counts the rhinestones kept, Twirls their colours
            return 50.0 + s.supply[seat][c]
        if A.PAY_GREEN <= a < A.PAY_CARD:
            return 40.0
        k = a - A.PAY_CARD
        return (20.0 if s.hands[seat][k] else 0.0) - C.CARD_STARS[k]

    def blood_value(self, game: Any, s: State, seat: int, a: int) -> float:
        k = a - A.LYRICS_OF
        held = s.lyrics[(seat + k) % game.n]
        colours = {C.LYRIC_COLOUR[t] for t in s.claiming}
        return sum(C.LYRIC_STARS[t] for t in held if C.LYRIC_COLOUR[t] in colours)

    # The dance, played out on copies -------------------------------------------------------------

    def choose_dance(self, game: Any, s: State, seat: int, legal: list[int], rng: Any) -> int:
        before = sum(s.scores[seat])
        best, best_gain = A.PASS, 0
        for a in legal:
            if not A.DANCE <= a < A.STARS:
                continue
            t = game.clone(s)
            game.apply_legal(t, a)  # (every action here is legal: a dance from `legal`, a sampled outcome,
            while not game.is_terminal(t) and t.todo[0].op not in _STOP:  # one of the legal actions)
                who = game.current_player(t)
                if who == CHANCE:
                    game.apply_legal(t, game.sample_chance(t, rng))
                else:
                    game.apply_legal(t, self.quick(game, t, who, game.legal_actions(t)))
            gain = sum(t.scores[seat]) - before
            if gain > best_gain:
                best, best_gain = a, gain
        return best


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Tuned(Heuristic):
    """The heuristic that plans its move and its draw: each legal choice is played out on a copy of the
    state (`redeterminise`d for its seat) to the start of the next player's turn, the rest of the turn
    by the heuristic's rules, and valued by `value`, averaged over `samples` copies; it keeps the
    heuristic's own choice unless another is worth more than `guard` points above it.
    `make_agent("heuristic:tuned", "extravaganza")`; README, "The tuned heuristic"."""

    name = "heuristic:tuned"
    stone_weight = 0.5  # a rhinestone kept in supply, in points
    lip_weight = 0.5
    card_weight = 0.5  # per star of a hand card
    tie_weight = 0.01  # the heuristic's own worth of the move, to break ties
    samples = 4  # play-outs of each choice, each on its own redeterminised copy
    guard = 1.0  # points a choice must gain over the heuristic's to replace it (below 0: none)

    def act(self, game: Any, state: State, seat: int, rng: Any) -> int:
        legal = game.legal_actions(state)
        code = state.todo[0].op
        if len(legal) > 1 and code in (Op.MOVE, Op.DRAW) and not any(a >= A.REVEAL for a in legal):
            return self.plan(game, state, seat, legal, rng)
        return super().act(game, state, seat, rng)

    def plan(self, game: Any, state: State, seat: int, legal: list[int], rng: Any) -> int:
        values, mine = self.weighed(game, state, seat, legal, rng)
        best = max(range(len(legal)), key=values.__getitem__)
        if mine >= 0 and values[best] - values[mine] <= self.guard:
            return legal[mine]
        return legal[best]

    def weighed(self, game: Any, state: State, seat: int, legal: list[int], rng: Any) -> tuple[list[float], int]:
        """What `plan` picks by: per choice in `legal`, its `outcomes` (for a move, plus `tie_weight` x
        the heuristic's worth of it), and where the heuristic's own choice is in `legal`, which stands
        unless another is worth more than `guard` above it (-1: no guard)."""
        values = self.outcomes(game, state, seat, legal, rng)
        if state.todo[0].op == Op.MOVE:
            values = [v + self.tie_weight * self.move_value(game, state, seat, a, False) for v, a in zip(values, legal)]
        mine = legal.index(Heuristic.quick(self, game, state, seat, legal)) if self.guard >= 0 else -1
        return values, mine

    def outcomes(self, game: Any, state: State, seat: int, legal: list[int], rng: Any) -> list[float]:
        """Per choice in `legal`, its `value` played out to the start of the next player's turn (the
        rest of the turn by the heuristic's rules), averaged over `samples` redeterminised copies."""
        turns = sum(state.turns)
        totals = [0.0] * len(legal)
        for _ in range(self.samples):
            s = game.redeterminise(state, seat, rng)
            for i, a in enumerate(legal):
                t = game.clone(s)
                game.apply_legal(t, a)
                while not game.is_terminal(t) and sum(t.turns) == turns:  # to the next turn's start
                    who = game.current_player(t)
                    if who == CHANCE:
                        game.apply_legal(t, game.sample_chance(t, rng))
                    else:
                        game.apply_legal(t, Heuristic.act(self, game, t, who, rng))
                totals[i] += self.value(game, t, seat)
        return [x / self.samples for x in totals]

    def value(self, game: Any, s: State, seat: int) -> float:
        points = game.final_scores(s)[seat] if not s.over else s.final[seat]
        return (points + self.stone_weight * sum(s.supply[seat]) + self.lip_weight * s.lips[seat]
                + self.card_weight * sum(map(mul, s.hands[seat], C.CARD_STARS)))  # stars in hand


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant of your own may subclass it
class Planner(Heuristic):
    """The heuristic with a planned move and draw, from what its seat sees and nothing else (no
    redeterminising, no play-outs, no rng): a move is worth the heuristic's rhinestones (`move_value`
    without its Runway term and tie-break) plus `dance_weight` x the points the best dance could add after landing
    there (`views.landing_gains`); a draw its lips, its stars and the points the best dance could
    add after it (`views.dance_gains`). `make_agent("heuristic:plan", "extravaganza")`; README,
    "The planner"."""

    name = "heuristic:plan"
    dance_weight = 0.75  # per point a dance could add this turn
    lip_weight = 1.5  # per lip a draw earns
    star_weight = 0.5  # per star of the card drawn
    near_weight = 0.0  # ties go to the first legal move: a network learns that more easily

    def quick(self, game: Any, s: State, seat: int, legal: list[int]) -> int:
        code = s.todo[0].op
        if code in (Op.MOVE, Op.DRAW) and not any(a >= A.REVEAL for a in legal):
            if code == Op.MOVE:
                gains = views.landing_gains(game, s, seat)
                return max(legal, key=lambda a: self.move_value(game, s, seat, a, False)
                           + self.dance_weight * gains[s.pos[seat] if a == A.PASS else a - A.SPACE])
            gains = views.dance_gains(game, s, seat)
            return max(legal, key=lambda a: self.planned_draw(game, s, seat, a, gains))
        return super().quick(game, s, seat, legal)

    def runway_value(self, s: State, seat: int, count: int) -> float:
        return 0.0  # landing_gains counts a Runway dance

    def planned_draw(self, game: Any, s: State, seat: int, a: int, gains: list[int]) -> float:
        if a == A.PASS:
            return self.dance_weight * gains[-1]
        j = a - A.DRAW
        return (self.lip_weight * game.draw_lips(s, seat, j) + self.star_weight * C.CARD_STARS[s.display[j]]
                + self.dance_weight * gains[j])


OUTLOOK_SEED = 0  # the outlook's copies are dealt from this seed: the same view of the game, the same outlook
OUTLOOK_SIZE = C.NUM_SPACES + C.NUM_JUDGES + 1
_TUNED = Tuned()


def outlook(game: Any, s: State, me: int) -> list[int]:
    """The observation's outlook (encode.py, option `outlook`): deciding my move or my draw, how much
    the tuned heuristic prefers each choice (`Tuned.weighed`, its own choice raised by its guard, so
    that the most preferred is the one it plays), per destination (my own space: not moving), then
    per judge's display card and last no draw: 255 for the most preferred, one less per eighth of a
    point below it, 0 from about 32 points below. The copies are dealt from OUTLOOK_SEED, so it depends on
    nothing my seat cannot see. All 0 at other decisions, with a single choice and where a reveal card
    may come first (the tuned heuristic does not plan those)."""
    out = [0] * OUTLOOK_SIZE
    if s.over or s.turn != me or s.todo[0].op not in (Op.MOVE, Op.DRAW):
        return out
    legal = game.legal_actions(s)
    if len(legal) < 2 or any(a >= A.REVEAL for a in legal):
        return out
    values, mine = _TUNED.weighed(game, s, me, legal, np.random.default_rng(OUTLOOK_SEED))
    if mine >= 0:
        values[mine] += _TUNED.guard
    best = max(values)
    for a, v in zip(legal, values):
        if a == A.PASS:
            i = s.pos[me] if s.todo[0].op == Op.MOVE else OUTLOOK_SIZE - 1
        elif A.SPACE <= a < A.SPACE + C.NUM_SPACES:
            i = a - A.SPACE
        else:
            i = C.NUM_SPACES + a - A.DRAW
        out[i] = max(0, 255 - round(8 * (best - v)))
    return out


VARIANTS = {"tuned": Tuned, "plan": Planner}  # make_agent("heuristic:<name>", "extravaganza")
