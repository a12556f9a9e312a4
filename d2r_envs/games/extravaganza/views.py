"""Extravaganza views for learning: what a seat's decision could lead to, counted from what it sees.
Not rules (rules.py scores a dance as it happens): the observation (encode.py) shows them at the
seat's move, draw and colour choice, and the planner (heuristic.Planner) decides by them."""

from __future__ import annotations

from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.rules import _COLOUR_IDS, _JUDGE_IDS, GREEN, NC, Game, _held, _max_pairs
from d2r_envs.games.extravaganza.state import SHIFT, Op, State

_O_ELEGANZA = int(Op.ELEGANZA)


def _pairs_after(a: list[int], wild: int, minus: int, plus: int) -> int:
    """_max_pairs with one item fewer of colour `minus` and one more of colour `plus` (-1: none)."""
    a[minus] -= 1
    if plus >= 0:
        a[plus] += 1
    n = _max_pairs(a, wild)
    a[minus] += 1
    if plus >= 0:
        a[plus] -= 1
    return n


def _most_points(options: list[tuple[int, int, int, int]], rates: list[int], room: list[int],
                 jen: set[int] | None) -> int:
    """The most points one dance adds among `options` (colour, judge, stars, pairs payable): rates x the
    stars paid (EX-DANCE-6), Tuckingham Palace's colours `jen` with the card's, up to the track's `room`."""
    best = 0
    for c, j, stars, pairs in options:
        if pairs:
            x = rates[j] * (pairs if pairs < stars else stars)
            if jen is not None:
                x += len(jen) + (c not in jen)
            if x > room[j]:
                x = room[j]
            if x > best:
                best = x
    return best


# the dance_rates a move changes
_LANDING_CATEGORIES = frozenset((C.BOOTY, C.RUNWAY, C.FLOORWERK, C.SHAWAM, C.TUCK, C.TWIRLS))


def dance_rates(g: Game, s: State, p: int) -> list[int]:
    """Per judge, what a dance of its category would count for `p` now, the points a star (EX-CAT-*,
    EX-DANCE-6), from what `p` sees and before any payment: exact for Booty, Runway (this turn so
    far), Lyricism, Shawam, Tuck and Twirls; for the rest the best the dancer could choose now
    (Eleganza: the most spent of a colour; Floorwerk: the most of a colour on the stage) or what its
    own cards promise (Handwerk: its 3 best hand cards' stars; Shade: the 3 best display cards'). A
    view for learning (encode.py), not a rule: the dance itself scores as `_score_dance` says."""
    supply, stacks, stage, pos = s.supply, s.stacks, s.stage, s.pos[p]
    near = g.nearby_seats(s, p) if pos >= 0 else []
    out = []
    for cat in s.cats:
        if cat == C.BOOTY:
            mine = sum(supply[p])
            out.append(mine + sum(x for x in (sum(supply[q]) for q in near) if x < mine))
        elif cat == C.RUNWAY:
            out.append(s.moved + 2 * s.passed + s.strut)
        elif cat == C.ELEGANZA:
            out.append(max(s.spent))
        elif cat == C.FLOORWERK:
            out.append(max(map(stage.count, range(NC))))
        elif cat == C.HANDWERK:
            hand = s.hands[p]
            out.append(sum(sorted([C.CARD_STARS[k] for k in _held(hand) for _ in range(hand[k])])[-3:]))
        elif cat == C.LYRICISM:
            words = C.LYRIC_STARS[s.song[s.song_next]] if s.song_next < g.song_length else 0
            out.append(words + len({C.LYRIC_COLOUR[t] for t in s.lyrics[p]}))
        elif cat == C.SHAWAM:
            out.append(sum(1 for sp in range(C.NUM_SPACES) if stage[sp] < 0 and sp not in s.pos))
        elif cat == C.SHADE:
            out.append(sum(sorted([C.CARD_STARS[k] for k in s.display if k >= 0])[-3:]))
        elif cat == C.TUCK:
            mine = len(stacks[p]) + 1
            out.append(mine + sum(x for x in (len(stacks[q]) for q in near) if x < mine))
        else:  # C.TWIRLS
            around = {stage[sp] for sp in C.NEARBY[pos] if stage[sp] >= 0} if pos >= 0 else ()
            out.append(len(around) + sum(1 for x in supply[p] if x))
    return out

def colour_counts(g: Game, s: State) -> list[int]:
    """Deciding Eleganza's or Floorwerk's colour: per colour, what choosing it would count, the spent
    rhinestones of it (EX-CAT-ELEGANZA) or its rhinestones on the stage (EX-CAT-FLOORWERK)."""
    if s.todo[0] >> SHIFT == _O_ELEGANZA:
        return list(s.spent)
    return [s.stage.count(c) for c in _COLOUR_IDS]

def payable_stars(g: Game, s: State, p: int) -> int:
    """The most stars `p` could pay for a card now with what it holds (EX-DANCE-1..3), the card itself
    not paying: the pairs its rhinestones, hand and played cards make."""
    a, wild = g._resources(s, p, -1)
    return _max_pairs(a, wild)

def dance_gains(g: Game, s: State, p: int) -> list[int]:
    """Deciding `p`'s draw: per judge, the most points one dance could add this turn after drawing
    its display card (the card itself, or a hand card it helps to pay), the last entry without a
    draw (0 where none is payable or no card lies there). Each dance counts dance_rates x the stars
    payable (up to the card's), Tuckingham Palace's colours as they are now, up to the track's cap
    of 40. A view for learning (encode.py) and the planner's draw (heuristic.Planner), not a rule."""
    a, wild = g._resources(s, p, -1)
    rates = dance_rates(g, s, p)
    room = [C.CATEGORY_CAP - x for x in s.scores[p]]
    jen = g._jen_colours(s, p, s.supply[p])
    hand = _card_facts(s, _held(s.hands[p]))
    out = []
    for x in s.display:
        if x < 0:
            out.append(0)
            continue
        (drawn,) = _card_facts(s, [x])
        options = [drawn + (_max_pairs(a, wild),)] + [f + (_pairs_after(a, wild, f[0], drawn[0]),) for f in hand]
        out.append(_most_points(options, rates, room, jen))
    out.append(_most_points([f + (_pairs_after(a, wild, f[0], -1),) for f in hand], rates, room, jen))
    return out

def landing_gains(g: Game, s: State, p: int) -> list[int]:
    """Deciding `p`'s move: per space, the most points one dance could add this turn after landing
    there and drawing a display card or none (dance_gains' best after the move), at my own space
    without moving (0 elsewhere). The landing as the rules make it (EX-MOVE-2, EX-MOVE-3): each queen
    passed paid a rhinestone of the colour I hold most (the first such), the landing rhinestone and
    those of its colour passed collected (Green Screen: passed greens too), then dance_rates there.
    A view for learning (encode.py) and the planner's move (heuristic.Planner), not a rule."""
    out = [0] * C.NUM_SPACES
    cards = _held(s.hands[p])
    hand = _card_facts(s, cards)
    shown = _card_facts(s, [x for x in s.display if x >= 0])
    if not (hand or shown):
        return out
    stage, pos, supply, cats, stacks = s.stage, s.pos, s.supply, s.cats, s.stacks
    tart = g._is(s, p, C.TART)
    kiki = g._is(s, p, C.KIKI) and not s.stage_used
    jen = g._is(s, p, C.JEN)
    colours = [f[0] for f in shown]  # what a draw could add
    room = [C.CATEGORY_CAP - x for x in s.scores[p]]
    done: dict[tuple, int] = {}

    def best(rates: list[int], a: list[int], wild: int, mine: list[int]) -> int:
        """The most one dance could add, drawing the best card for it or none."""
        key = (*rates, *a, wild, *(mine if jen else ()))
        if key not in done:
            pairs = _max_pairs(a, wild)
            options = [f + (pairs,) for f in shown]
            for f in hand:
                c = f[0]
                if wild:
                    most = max([_pairs_after(a, wild, c, x) for x in colours] + [_pairs_after(a, wild, c, -1)])
                else:  # one fewer of c breaks a pair if its count is even; a drawn odd colour makes one
                    most = pairs - (1 - (a[c] & 1)) + any((a[x] & 1) ^ (x == c) for x in colours)
                options.append(f + (most,))
            done[key] = _most_points(options, rates, room, g._jen_colours(s, p, mine))
        return done[key]

    base = dance_rates(g, s, p)
    start = pos[p]
    out[start] = best(base, *g._resources(s, p, -1, cards), supply[p])
    held = [0] * NC  # my cards' colours, hand and played (EX-DANCE-3)
    for k in cards:
        held[k % NC] += s.hands[p][k]
    for k in stacks[p]:
        held[k % NC] += 1
    moving = [(j, cats[j]) for j in _JUDGE_IDS if cats[j] in _LANDING_CATEGORIES]  # the rest stay as they are
    # What dance_rates counts, before the move: stones per seat, stage counts, empty unoccupied spaces
    others = [q for q in range(g.n) if q != p]
    stones = [sum(x) for x in supply]
    on_stage = [stage.count(c) for c in _COLOUR_IDS]
    empty = sum(1 for sp in range(C.NUM_SPACES) if stage[sp] < 0 and sp not in pos) + (stage[start] < 0)  # I leave
    seat_at = {pos[q]: q for q in others}
    paths = C.MOVE_PATH[start]
    for dest in g.destinations(s, p):
        path = paths[dest]
        mine = list(supply[p])
        paid = [0] * g.n
        for sp in path:  # EX-MOVE-2: a rhinestone of the colour I hold most to each queen passed
            q = seat_at.get(sp, -1)
            if q >= 0:
                c = mine.index(max(mine))
                mine[c] -= 1
                paid[q] += 1
        taken = []  # EX-MOVE-3
        colour = stage[dest]
        if colour >= 0:
            taken = [dest] + [sp for sp in path if stage[sp] == colour or (tart and stage[sp] == GREEN)]
            mine[colour] += len(taken)
        rates = list(base)
        around = C.NEARBY[dest]
        near = [q for q in others if pos[q] in around]
        for j, cat in moving:
            if cat == C.BOOTY:
                m = sum(mine)
                rates[j] = m + sum(x for x in (stones[q] + paid[q] for q in near) if x < m)
            elif cat == C.RUNWAY:
                rates[j] = len(path) + 1 + 2 * sum(paid) + s.strut
            elif cat == C.FLOORWERK:
                left = list(on_stage)
                for sp in taken:
                    left[stage[sp]] -= 1
                rates[j] = max(left)
            elif cat == C.SHAWAM:
                rates[j] = empty - (stage[dest] < 0) + sum(1 for sp in taken if sp != dest and sp not in seat_at)
            elif cat == C.TUCK:
                m = len(stacks[p]) + 1
                rates[j] = m + sum(x for x in (len(stacks[q]) for q in near) if x < m)
            else:  # C.TWIRLS
                rates[j] = (len({stage[sp] for sp in around if stage[sp] >= 0 and sp not in taken})
                            + sum(1 for x in mine if x))
        a = [x + y for x, y in zip(mine, held)]
        wild = 0
        if tart:
            wild = mine[GREEN]
            a[GREEN] -= wild
        elif kiki:
            a[g.areas[dest]] += 1
        out[dest] = best(rates, a, wild, mine)
    return out

def _card_facts(s: State, cards: list[int]) -> list[tuple[int, int, int]]:
    """(colour, judge, stars) of each card."""
    cats = s.cats
    return [(k % NC, cats.index(C.CARD_CATEGORY[k]), C.CARD_STARS[k]) for k in cards]
