"""Scenario building for the Extravaganza tests: the `ex` fixture.

`ex.start(n, ...)` plays the set-up with every chance event taking its lowest outcome (the first
player and the queens as asked) and every set-up decision its first legal action, and stops at the
first player's first decision. The helpers then move rhinestones, cards and queens where a test wants
them, always from one container to another, so the invariants keep holding.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.state import Op, Step

CATS = "Booty,Runway,Eleganza,Floorwerk,Handwerk"
TURN_OPS = (Op.MOVE, Op.DRAW, Op.DANCE, Op.LIP_SYNC, Op.END_REVEAL, Op.END_TURN)


def card(category: str, move: int, colour: str) -> int:
    return C.card_id(C.CATEGORIES.index(category), move, C.COLOURS.index(colour))


def col(name: str) -> int:
    return C.COLOURS.index(name)


def sp(name: str) -> int:
    """'a1' is the top-left space, 'e5' the bottom-right."""
    return (int(name[1]) - 1) * C.SIDE + "abcde".index(name[0])


def resolve(g, s, pick=None):
    """Chance nodes until a decision: `pick(code, arg, outcomes)` or the lowest outcome."""
    while not g.is_terminal(s) and g.current_player(s) == CHANCE:
        outcomes = [o for o, _ in g.chance_outcomes(s)]
        code, arg = s.todo[0].op, s.todo[0].arg
        g.apply_action(s, pick(code, arg, outcomes) if pick else outcomes[0])


def start(n=2, level="basic", first=0, queens=None, categories=CATS, places=None, **options):
    g = d2r_envs.make_game("extravaganza", n, level=level, categories=categories, **options)
    s = g.new_initial_state()

    def pick(code, arg, outcomes):
        if code == Op.FIRST:
            return first
        if code == Op.QUEEN_DEAL and queens is not None:
            return queens[arg]
        return outcomes[0]

    while True:
        resolve(g, s, pick)
        if s.turn == first and s.todo and s.todo[0].op in (Op.MOVE, Op.DRAW, Op.DANCE, Op.LIP_SYNC):
            return g, s
        legal = g.legal_actions(s)
        code, arg = s.todo[0].op, s.todo[0].arg
        if code == Op.PLACE and places is not None:
            g.apply_action(s, 9 + places[arg])  # A.SPACE == 9
        else:
            g.apply_action(s, legal[0])


def at(g, s, p, step=Op.MOVE, fresh=True):
    """Seat `p`'s turn, from `step` on, with nothing done yet this turn (`fresh=False`: keep what was)."""
    s.turn = p
    i = TURN_OPS.index(step)
    s.todo = [Step(o) for o in TURN_OPS[i:]]
    if not fresh:
        g._advance(s)
        return
    s.moved = s.passed = s.strut = 0
    s.path, s.oddy_done, s.claiming, s.bedazzled = [], [], [], []
    s.landed = s.landed_stone = s.land_colour = s.danced = s.dance_area = -1
    s.spent_actual = s.spent_cards = 0
    s.turn_points = [0] * 5
    s.revealed_turn = False
    g._advance(s)


def clear_stage(s):
    for i, c in enumerate(s.stage):
        if c >= 0:
            s.bag.add(c)
            s.stage[i] = -1


def put_stone(s, space, colour):
    if s.stage[space] >= 0:
        s.bag.add(s.stage[space])
    s.bag.take(colour)
    s.stage[space] = colour


def give_stones(s, p, **colours):
    for name, k in colours.items():
        c = col(name)
        for _ in range(k):
            if not s.bag.counts[c]:  # from the stage, else from the spent ones, else another supply
                if c in s.stage:
                    s.stage[s.stage.index(c)] = -1
                elif s.spent[c]:
                    s.spent[c] -= 1
                else:
                    q = next(q for q in range(len(s.supply)) if q != p and s.supply[q][c])
                    s.supply[q][c] -= 1
                s.bag.add(c)
            s.bag.take(c)
            s.supply[p][c] += 1


def empty_supply(s, p):
    for c in range(5):
        s.bag.add(c, s.supply[p][c])
        s.supply[p][c] = 0


def take_card(s, k):
    """Remove card k from wherever it is."""
    for j, d in enumerate(s.decks):
        if d.counts[k]:
            d.take(k)
            return
    for j in range(5):
        if s.display[j] == k:
            s.display[j] = -1
            return
    for pile in [s.box, s.removed] + s.hands:
        if pile[k]:
            pile[k] -= 1
            return
    for st in s.stacks:
        if k in st:
            st.remove(k)
            return
    raise AssertionError(f"card {k} not found")


def to_hand(s, p, k):
    take_card(s, k)
    s.hands[p][k] += 1


def to_stack(s, p, k):
    take_card(s, k)
    s.stacks[p].append(k)


def to_display(s, j, k):
    if s.display[j] >= 0:
        s.decks[j].add(s.display[j])
    take_card(s, k)
    s.display[j] = k


def empty_hand(s, p):
    for k in range(C.NUM_CARDS):
        if s.hands[p][k]:
            s.hands[p][k] = 0
            s.removed[k] += 1


def place(s, p, space):
    if s.stage[space] >= 0:
        s.bag.add(s.stage[space])
        s.stage[space] = -1
    s.pos[p] = space


def lips(s, p, k):
    s.lip_supply += s.lips[p] - k
    s.lips[p] = k


@pytest.fixture
def ex():
    return SimpleNamespace(**{f.__name__: f for f in (
        card, col, sp, resolve, start, at, clear_stage, put_stone, give_stones, empty_supply, take_card, to_hand,
        to_stack, to_display, empty_hand, place, lips)}, CATS=CATS)
