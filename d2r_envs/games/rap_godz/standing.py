"""Where a seat stands in the end-game majorities, and what a card's play would change there.

A majority held at the end is worth plaques (the Citiez on the board by icons of their colour, RG-CITY-1;
the Goalz Mono by cards of one colour, Timeline by cards, Come Up by Come Upz, RG-GOAL-2). Before the end
the holder is not known, so a seat's chance of holding one is read off its lead over the best other seat:
1 / (1 + exp(-lead / SPREAD)). For each card kind, `gains` gives the change in those chances that
playing it would make now: the Citiez, Mono, and Timeline or Come Up (`gains`). Public information only (the
timelines, the Citiez on the board, the Goalz in play). Used by the tuned heuristic (weighted, in
plaques) and by the observation (the view `majority`).
"""

from __future__ import annotations

import math

from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.cards import Goal as G

SPREAD = 2.0
# The card kinds' (colour, icons, Come Upz) triples: what `gains` depends on, ten of them.
COMBOS = sorted({(c.colour, c.icons, c.come) for c in C.CARDS[: C.NUM_PLAY] if not c.beef})
COMBO_OF = [-1 if c.beef else COMBOS.index((c.colour, c.icons, c.come)) for c in C.CARDS[: C.NUM_PLAY]]
assert all(icons in (1, 2) for _, icons, _ in COMBOS), "combo_gains reads the change for +1 or +2 icons"
assert [combo[0] for combo in COMBOS] == [k // 2 for k in range(len(COMBOS))] and all(
    (icons, come) == ((1, False), (2, True))[k % 2] for k, (_, icons, come) in enumerate(COMBOS)), \
    "`quantized` reads two kinds a colour: one icon, then two icons and a Come Upz"


def held(lead: float) -> float:
    """The chance of holding a majority led by `lead` (negative: behind)."""
    return 1.0 / (1.0 + math.exp(-lead / SPREAD))


assert C.NUM_COLOURS == 5, "`quantized` reads the columns at places written for five colours"
_REACH = 200  # leads are whole numbers of cards or icons, |lead| + 2 at most 200 (a timeline holds far fewer)
_HELD = [held(d) for d in range(-_REACH, _REACH + 1)]  # held(d) at _HELD[d + _REACH]: the same floats
_GAIN = [[_HELD[d + 1] - _HELD[d], _HELD[d + 2] - _HELD[d]] for d in range(2 * _REACH - 1)]  # +1, +2


def combo_gains(icons: list, cols: list, city_colours: list[int], goals: list[int], me: int) -> list[tuple]:
    """Per entry of COMBOS, the change in my chance of holding: the Citiez on the board of its colour
    (summed), Mono, and Timeline (or, for a Come Upz with Come Up in play, the same lead in cards
    standing for it). `icons` and `cols`: icons and cards per colour in each seat's timeline."""
    others = [q for q in range(len(icons)) if q != me]
    mine_icons = icons[me]
    city: dict[int, list[float]] = {}  # colour -> the change for +1 and +2 icons, summed over its Citiez on the board
    for c in city_colours:
        step = _GAIN[mine_icons[c] - max([icons[q][c] for q in others]) + _REACH]
        was = city.get(c)
        city[c] = step if was is None else [was[0] + step[0], was[1] + step[1]]
    mono = G.MONO in goals
    if mono:
        mine_cols = cols[me]
        best_other = max([max(cols[q]) for q in others])
        mine = max(mine_cols)
        now = _HELD[mine - best_other + _REACH]
    timeline, come_up = G.TIMELINE in goals, G.COME_UP in goals
    one_more = 0.0
    if timeline or come_up:
        count_lead = sum(cols[me]) - max([sum(cols[q]) for q in others])
        one_more = _GAIN[count_lead + _REACH][0]
    out = []
    for colour, n_icons, come in COMBOS:
        gain = city.get(colour)
        mono_gain = _HELD[max(mine, mine_cols[colour] + 1) - best_other + _REACH] - now if mono else 0.0
        out.append((gain[n_icons - 1] if gain is not None else 0.0, mono_gain,
                    one_more if timeline or (come and come_up) else 0.0))
    return out


def signature(city_colours: list[int], goals: list[int]) -> tuple:
    """What `combo_gains` takes from the set-up: each colour of the Citiez on the board with how many
    of them have it, and whether Mono, Timeline and Come Up are in play."""
    pairs = tuple((c, city_colours.count(c)) for c in sorted(set(city_colours)))
    return pairs, G.MONO in goals, G.TIMELINE in goals, G.COME_UP in goals


_QUANTIZED: dict[tuple, tuple] = {}  # (scale, cap) -> the tables `quantized` reads


def _at(i: int) -> int:
    """The shift of byte i of `quantized`'s 30 bytes, read as one big-endian integer."""
    return 8 * (6 * C.NUM_COLOURS - 1 - i)


def _tables(scale: int, cap: int) -> tuple:
    """The rounded gains as integers holding them at their bytes: per colour, number of Citiez of it
    (1-6) and lead, the (+1, +2) city gains summed as `combo_gains` sums them; per gain and set of
    colours at my best, Mono's; per gain, Timeline's (with and without the one-icon kinds); and per lead,
    the rounded +1 gain."""
    def q(x: float) -> int:
        return min(cap, round(scale * x))
    c = C.NUM_COLOURS
    city: list[list[list[int] | None]] = []
    for colour in range(c):
        rows: list[list[int] | None] = [None]
        for m in range(1, 7):
            row = []
            for step in _GAIN:
                total = step
                for _ in range(m - 1):
                    total = [total[0] + step[0], total[1] + step[1]]
                row.append(q(total[0]) << _at(6 * colour) | q(total[1]) << _at(6 * colour + 3))
            rows.append(row)
        city.append(rows)
    one = [q(step[0]) for step in _GAIN]
    top = range(cap + 1)
    mono = [[sum(g << _at(6 * k + 1) | g << _at(6 * k + 4) for k in range(c) if mask >> k & 1) for mask in range(1 << c)]
            for g in top]
    count = [[sum(g << _at(6 * k + 5) | (g << _at(6 * k + 2) if timeline else 0) for k in range(c)) for g in top]
             for timeline in (False, True)]
    made = _QUANTIZED[scale, cap] = (city, one, mono, count)
    return made


def quantized(columns: list[bytes] | list[bytearray], sig: tuple, me: int, scale: int, cap: int) -> bytes:
    """`combo_gains`' table with each value x as min(cap, round(scale * x)), three a combo in COMBOS'
    order, the same numbers worked out from small tables. `columns`: per seat, cards per colour, icons
    per colour, then all cards, Come Upz and Beef cards (the encoder's timeline columns); `sig`: the
    set-up's `signature`."""
    city, one, mono_t, count_t = _QUANTIZED.get((scale, cap)) or _tables(scale, cap)
    mine = columns[me]
    a, b, c = ((columns[:me] + columns[me + 1 :]) * 3)[:3]  # the other seats (repeated below four players)
    pairs, mono, timeline, come_up = sig
    v = 0
    for colour, m in pairs:  # icons of a colour at the columns' place 5 + colour
        at = 5 + colour
        v += city[colour][m][mine[at] - max(a[at], b[at], c[at]) + _REACH]
    if mono:
        top = max(mine[:5])
        gain = one[top - max(max(a[:5]), max(b[:5]), max(c[:5])) + _REACH]
        if gain:  # the colours at my most: a card of one of them raises my most
            v += mono_t[gain][(mine[0] == top) | (mine[1] == top) << 1 | (mine[2] == top) << 2
                              | (mine[3] == top) << 3 | (mine[4] == top) << 4]
    if timeline or come_up:  # cards of a colour: all cards (place 10) less the Beef cards (place 12)
        lead = mine[10] - mine[12] - max(a[10] - a[12], b[10] - b[12], c[10] - c[12])
        v += count_t[timeline][one[lead + _REACH]]
    return v.to_bytes(30, "big")


def gains(game, s, me: int) -> list[tuple]:
    """Per card kind, `combo_gains`' triple for it ((0, 0, 0) for a Beef card)."""
    n = game.n
    table = combo_gains([game.icons(s, p) for p in range(n)], [game.colour_cards(s, p) for p in range(n)],
                        [C.CITIEZ[c - C.CITY_FIRST].colour for c in game.board_cities(s)], s.goals, me)
    return [table[i] if i >= 0 else (0.0, 0.0, 0.0) for i in COMBO_OF]
