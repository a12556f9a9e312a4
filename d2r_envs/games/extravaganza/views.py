"""Extravaganza views for learning: what a seat's decision could lead to, counted from what it sees.
Not rules (rules.py scores a dance as it happens): the observation (encode.py) shows them at the
seat's move, draw and colour choice, and the planner (heuristic.Planner) decides by them."""

from __future__ import annotations

from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.rules import _COLOUR_IDS, GREEN, NC, Game, _held, _max_pairs
from d2r_envs.games.extravaganza.state import Op, State


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


def _best_cards(s: State, cards: list[int]) -> list[tuple[int, int, int]]:
    """(colour, judge, stars) of the most-starred card of each colour and judge among `cards`: a dance
    counts the same for cards alike in colour and judge, and more for more stars (up to those paid)."""
    cats = s.cats
    most: dict[tuple[int, int], int] = {}
    for k in cards:
        key = (k % NC, cats.index(C.CARD_CATEGORY[k]))
        stars = C.CARD_STARS[k]
        if most.get(key, 0) < stars:
            most[key] = stars
    return [(c, j, stars) for (c, j), stars in most.items()]


def _bonus(g: Game, s: State, p: int, supply: list[int]) -> list[int]:
    """Per card colour, what Tuckingham Palace's colours add to her dance (EX-QUEEN-TUCKINGHAM; 0: not
    her), her supply being `supply`."""
    jen = g._jen_colours(s, p, supply)
    if jen is None:
        return _NO_BONUS
    return [len(jen) + (c not in jen) for c in _COLOUR_IDS]


def _most_points(shown: list, hand: list, a: list[int], wild: int, draws: list[int], rates: list[int],
                 room: list[int], bonus: list[int]) -> int:
    """The most points one dance adds: a `shown` card (colour, judge, stars) paid out of `a` items per
    colour and `wild` items of any colour, or a `hand` card (itself among `a`) after drawing a card of
    one of `draws` (colours) or none; rates x the stars paid (EX-DANCE-6), plus `bonus` of the card's
    colour, up to the track's `room`."""
    pairs = _max_pairs(a, wild)
    best = 0
    if pairs:
        for c, j, stars in shown:
            x = rates[j] * (pairs if pairs < stars else stars) + bonus[c]
            if x > room[j]:
                x = room[j]
            if x > best:
                best = x
    paying = [-1] * NC  # per colour, the most pairs payable for a hand card of it
    odd = -1  # draws of a colour with an odd count
    for c, j, stars in hand:
        n = paying[c]
        if n < 0:
            if wild:
                n = _pairs_after(a, wild, c, -1)
                for x in draws:
                    n = max(n, _pairs_after(a, wild, c, x))
            else:  # one fewer of c breaks a pair if its count is even; a drawn colour then odd makes one
                if odd < 0:
                    odd = sum(a[x] & 1 for x in draws)
                n = pairs - 1 + (a[c] & 1)
                if c in draws:
                    n += odd > 1 or not a[c] & 1
                else:
                    n += odd > 0
            paying[c] = n
        if n:
            x = rates[j] * (n if n < stars else stars) + bonus[c]
            if x > room[j]:
                x = room[j]
            if x > best:
                best = x
    return best


def _best_of(cards: list[tuple[int, int]], pairs: int, rates: list[int], room: list[int], best: int) -> int:
    """The most points a dance of one of `cards` (judge, stars) adds paid with up to `pairs` pairs,
    rates x the stars paid up to the track's room, or `best` if that is more."""
    for j, stars in cards:
        x = rates[j] * (pairs if pairs < stars else stars)
        if x > room[j]:
            x = room[j]
        if x > best:
            best = x
    return best


_NO_BONUS = [0] * NC
assert NC == 5  # move_views counts the pairs of five colours in one line
_NO_CARDS: list = []


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
    if s.todo[0].op == Op.ELEGANZA:
        return list(s.spent)
    return [s.stage.count(c) for c in _COLOUR_IDS]


def payable_stars(g: Game, s: State, p: int) -> int:
    """The most stars `p` could pay for a card now with what it holds (EX-DANCE-1..3), the card itself
    not paying: the pairs its rhinestones, hand and played cards make."""
    a, wild = g._resources(s, p, -1)
    return _max_pairs(a, wild)


def dance_gains(g: Game, s: State, p: int, rates: list[int] | None = None) -> list[int]:
    """Deciding `p`'s draw: per judge, the most points one dance could add this turn after drawing
    its display card (the card itself, or a hand card it helps to pay), the last entry without a
    draw (0 where none is payable or no card lies there). Each dance counts dance_rates (`rates`, where
    the caller has them) x the stars payable (up to the card's), Tuckingham Palace's colours as they
    are now, up to the track's cap of 40. A view for learning (encode.py) and the planner's draw
    (heuristic.Planner), not a rule."""
    a, wild = g._resources(s, p, -1)
    if rates is None:
        rates = dance_rates(g, s, p)
    room = [C.CATEGORY_CAP - x for x in s.scores[p]]
    bonus = _bonus(g, s, p, s.supply[p])
    hand = _best_cards(s, _held(s.hands[p]))
    out = []
    if wild:  # Green Screen's greens pay as any colour
        for x in s.display:
            if x < 0:
                out.append(0)
                continue
            out.append(_most_points(_best_cards(s, [x]), hand, a, wild, [x % NC], rates, room, bonus))
        out.append(_most_points(_NO_CARDS, hand, a, wild, _NO_CARDS, rates, room, bonus))
        return out
    # Else in closed form, as _most_points counts then: the pairs payable are the same for every draw,
    # and a hand card of colour c pays one pair fewer for itself, one more if the draw evens its count
    # (or another's odd count is matched by the drawn card).
    pairs = _max_pairs(a, 0)
    of_colour: dict[int, list[tuple[int, int]]] = {}
    for c, j, stars in hand:
        of_colour.setdefault(c, []).append((j, stars))
    best_of: dict[tuple[int, int], int] = {}  # (colour, pairs payable) -> the best hand dance

    def hand_best(c: int, n: int) -> int:
        got = best_of.get((c, n))
        if got is None:
            got = 0
            if n:
                for j, stars in of_colour[c]:
                    x = rates[j] * (n if n < stars else stars) + bonus[c]
                    if x > room[j]:
                        x = room[j]
                    if x > got:
                        got = x
            best_of[c, n] = got
        return got

    cats = s.cats
    for x in s.display:
        if x < 0:
            out.append(0)
            continue
        d, j, stars = x % NC, cats.index(C.CARD_CATEGORY[x]), C.CARD_STARS[x]
        best = 0
        if pairs:
            best = rates[j] * (pairs if pairs < stars else stars) + bonus[d]
            if best > room[j]:
                best = room[j]
        for c in of_colour:
            n = pairs - 1 + (a[c] & 1) + (not a[c] & 1 if c == d else a[d] & 1)
            y = hand_best(c, n)
            if y > best:
                best = y
        out.append(best)
    out.append(max([hand_best(c, pairs - 1 + (a[c] & 1)) for c in of_colour], default=0))
    return out


def landing_gains(g: Game, s: State, p: int) -> list[int]:
    """Deciding `p`'s move: per space, the most points one dance could add this turn after landing
    there and drawing a display card or none (dance_gains' best after the move), at my own space
    without moving (0 elsewhere). The landing as the rules make it (EX-MOVE-2, EX-MOVE-3): each queen
    passed paid a rhinestone of the colour I hold most (the first such), the landing rhinestone and
    those of its colour passed collected (Green Screen: passed greens too), then dance_rates there.
    A view for learning (encode.py) and the planner's move (heuristic.Planner), not a rule."""
    return move_views(g, s, p)[0]


def move_views(g: Game, s: State, p: int, rates: list[int] | None = None) -> tuple[list[int], list[int], list[int]]:
    """Deciding `p`'s move, per space: (landing_gains, reach, toll), from one walk out along each line
    from my queen (`rates`: dance_rates, where the caller has them). reach: the rhinestones I would
    collect landing there (EX-MOVE-3, Green Screen aside); toll: the queens I would pass and pay
    (EX-MOVE-2); landing_gains at my own space is not moving; all 0 where I may not move."""
    gains = [0] * C.NUM_SPACES
    reach = [0] * C.NUM_SPACES
    toll = [0] * C.NUM_SPACES
    stage, pos, supply, cats, stacks = s.stage, s.pos, s.supply, s.cats, s.stacks
    start = pos[p]
    cards = _held(s.hands[p])
    hand = _best_cards(s, cards)
    shown = _best_cards(s, [x for x in s.display if x >= 0])
    plan = bool(hand or shown)  # else no dance could follow: gains stay 0
    if plan:
        tart = g._is(s, p, C.TART)
        kiki = g._is(s, p, C.KIKI) and not s.stage_used
        jen = g._is(s, p, C.JEN)
        draws = sorted({c for c, _, _ in shown})  # what a draw could add
        room = [C.CATEGORY_CAP - x for x in s.scores[p]]
        base = dance_rates(g, s, p) if rates is None else rates
        a, wild = g._resources(s, p, -1, cards)
        gains[start] = _most_points(shown, hand, a, wild, draws, base, room, _bonus(g, s, p, supply[p]))
        held = list(supply[p])  # what pays: my rhinestones, hand and played cards (EX-DANCE-3)
        for k in cards:
            held[k % NC] += s.hands[p][k]
        for k in stacks[p]:
            held[k % NC] += 1
        # The judges of the categories a move changes (-1: none); the rest stay as dance_rates has them
        booty, runway, floorwerk, shawam, tuck, twirls = (
            cats.index(cat) if cat in cats else -1
            for cat in (C.BOOTY, C.RUNWAY, C.FLOORWERK, C.SHAWAM, C.TUCK, C.TWIRLS))
        # What they count, before the move: stones per seat, stage counts, empty unoccupied spaces
        stones = [sum(x) for x in supply]
        on_stage = [stage.count(c) for c in _COLOUR_IDS]
        empty = stage.count(-1) - sum(1 for x in pos if stage[x] < 0) + (stage[start] < 0)  # I leave mine
        played = len(stacks[p]) + 1
        sizes = [len(x) for x in stacks]
        colours_held = sum(1 for x in supply[p] if x)
        near_of: list[list[int]] = [[] for _ in range(C.NUM_SPACES)]  # per space, the other queens nearby
        for q, x in enumerate(pos):
            if q != p:
                for sp in C.NEARBY[x]:
                    near_of[sp].append(q)
    legal = set(g.destinations(s, p))
    seat_at = {x: q for q, x in enumerate(pos) if q != p}
    # Without Green Screen's wild greens or Tuckingham Palace's bonus, a dance is counted here in closed
    # form (as _most_points does then): the best shown card per judge, the hand cards per colour.
    fast = plan and not tart and not jen
    if fast:
        most: dict[int, int] = {}
        for c, j, stars in shown:
            if most.get(j, 0) < stars:
                most[j] = stars
        shown_j = list(most.items())
        of_colour: dict[int, list[tuple[int, int]]] = {}
        for c, j, stars in hand:
            of_colour.setdefault(c, []).append((j, stars))
        hand_c = list(of_colour.items())
        drawn = [c in draws for c in _COLOUR_IDS]
        areas = g.areas
    for ray in C.RAYS[start]:
        counts = [0] * NC  # the rhinestones passed so far, per colour
        if plan:
            mine = list(supply[p])  # my supply after paying the queens passed so far
            mine_sum = stones[p]
            mine_nz = colours_held
            paying = list(held)  # and what pays
            paid = [0] * g.n
        passed = 0
        for i, dest in enumerate(ray):
            q = seat_at.get(dest, -1)
            if q >= 0:  # EX-MOVE-2: passing her pays a rhinestone of the colour I hold most (the first such)
                if plan:
                    c = mine.index(max(mine))
                    mine[c] -= 1
                    mine_sum -= 1
                    if not mine[c]:
                        mine_nz -= 1
                    paying[c] -= 1
                    paid[q] += 1
                passed += 1
                continue
            colour = stage[dest]
            if dest in legal:
                toll[dest] = passed
                if colour >= 0:
                    reach[dest] = 1 + counts[colour]
                if plan:  # EX-MOVE-3: the landing rhinestone and those of its colour passed (Green Screen: greens too)
                    got = 0
                    if colour >= 0:
                        got = 1 + counts[colour] + (counts[GREEN] if tart and colour != GREEN else 0)
                    rates = list(base)
                    near = near_of[dest]
                    if booty >= 0:
                        t = x = mine_sum + got
                        for q in near:
                            if stones[q] + paid[q] < t:
                                x += stones[q] + paid[q]
                        rates[booty] = x
                    if runway >= 0:
                        rates[runway] = i + 1 + 2 * passed + s.strut
                    if floorwerk >= 0:
                        left = list(on_stage)
                        if colour >= 0:
                            left[colour] -= 1 + counts[colour]
                            if tart and colour != GREEN:
                                left[GREEN] -= counts[GREEN]
                        rates[floorwerk] = max(left)
                    if shawam >= 0:  # the spaces emptied on the way, less mine taken
                        rates[shawam] = empty + got - 1
                    if tuck >= 0:
                        x = played
                        for q in near:
                            if sizes[q] < played:
                                x += sizes[q]
                        rates[tuck] = x
                    if twirls >= 0:  # of the spaces passed only the last is nearby, empty if I took from it
                        last = ray[i - 1] if i and colour >= 0 else -1
                        if last >= 0 and stage[last] != colour and not (tart and stage[last] == GREEN):
                            last = -1
                        rates[twirls] = (len({stage[sp] for sp in C.NEARBY[dest] if stage[sp] >= 0 and sp != last})
                                         + mine_nz + (got > 0 and not mine[colour]))
                    a = list(paying)
                    if colour >= 0:
                        a[colour] += got
                    if fast:
                        if kiki:
                            a[areas[dest]] += 1
                        pairs = (a[0] >> 1) + (a[1] >> 1) + (a[2] >> 1) + (a[3] >> 1) + (a[4] >> 1)
                        best = _best_of(shown_j, pairs, rates, room, 0) if pairs else 0
                        if hand_c:
                            odd = 0  # draws of a colour with an odd count
                            for c in draws:
                                odd += a[c] & 1
                            for c, cards_of in hand_c:
                                n = pairs - 1 + (a[c] & 1)
                                if drawn[c]:
                                    n += odd > 1 or not a[c] & 1
                                else:
                                    n += odd > 0
                                if n:
                                    best = _best_of(cards_of, n, rates, room, best)
                        gains[dest] = best
                    else:
                        m = list(mine)
                        if colour >= 0:
                            m[colour] += got
                        wild = 0
                        if tart:
                            wild = m[GREEN]
                            a[GREEN] -= wild
                        elif kiki:
                            a[g.areas[dest]] += 1
                        gains[dest] = _most_points(shown, hand, a, wild, draws, rates, room,
                                                   _bonus(g, s, p, m) if jen else _NO_BONUS)
            if colour >= 0:
                counts[colour] += 1
    return gains, reach, toll
