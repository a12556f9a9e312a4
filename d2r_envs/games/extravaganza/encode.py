"""Extravaganza observations, seat-relative: per-seat rows start with the observer, then the players
to her left, padded to 4 seats. Only what the seat may know (EX-DECIDE-HIDDEN): her own hand and
reveal cards; of the others, their hand sizes and reveal-card counts; never a deck's order or contents.

This module is the observation's spec: `LAYOUT` (and, under the observation option `views`,
`LAYOUT_VIEWS`; with `outlook` too, `LAYOUT_OUTLOOK`) names its pieces, `encode` writes them plainly
from the state's fields, piece by piece, the views for learning worked out on their own from the
category rules as the README states them, and `string_from` is the seat's view as text. The Observer
the Game uses is the fast encoder in encode_fast.py (its views from views.py), checked byte for byte
against `encode` at every node, with the views and without (tests/extravaganza/test_encode.py). The
outlook is the tuned heuristic's own play-outs (`heuristic.outlook`) in both, checked there against
`Tuned.plan` itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from d2r_envs.core.config import option
from d2r_envs.core.obs import ObsLayout, Piece
from d2r_envs.core.words import seat_name
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza import heuristic, narrate
from d2r_envs.games.extravaganza.state import Op, State

P, K, S, NC, J = C.MAX_PLAYERS, C.NUM_CARDS, C.NUM_SPACES, C.NUM_COLOURS, C.NUM_JUDGES
L, SONG = C.NUM_LYRICS, C.MAX_SONG
NUM_OPS = 50

_STATE = (
    Piece("modules", (3,), 1, "Queen Powers, Judge Desires, 10s & Reveals are on"),
    Piece("seats", (P,), 1, "1 for each seat in the game (relative)"),
    Piece("first", (P,), 1, "the purse first player (relative)"),
    Piece("turn", (P,), 1, "whose turn it is (relative)"),
    Piece("decider", (P,), 1, "who decides now (relative; none at chance)"),
    Piece("op", (NUM_OPS,), 1, "the pending step (state.Op) at the front of the queue"),
    Piece("areas", (S, NC), 1, "the colour area of each stage space (the layout)"),
    Piece("stage", (S, NC), 1, "the rhinestone on each space, by colour"),
    Piece("queen_at", (P, S), 1, "each seat's queen's space"),
    Piece("queen_of", (P, C.NUM_QUEENS), 1, "each seat's queen"),
    Piece("supply", (P, NC), C.NUM_STONES, "each seat's rhinestones per colour"),
    Piece("bag", (NC,), C.NUM_STONES, "rhinestones in the bag per colour"),
    Piece("spent", (NC,), C.NUM_STONES, "spent rhinestones per colour"),
    Piece("lips", (P,), C.NUM_LIPS, "each seat's lips"),
    Piece("lip_supply", (1,), C.NUM_LIPS, "lips left in the supply"),
    Piece("hand_size", (P,), 75, "cards in each seat's hand"),
    Piece("hand", (K,), 1, "my hand"),
    Piece("stacks", (P, K), 1, "each seat's played cards"),
    Piece("top", (P, C.NUM_CATEGORIES), 1, "the category of the top card of each seat's stack"),
    Piece("categories", (J, C.NUM_CATEGORIES), 1, "each judge's category"),
    Piece("display", (K,), 1, "the face-up display cards"),
    Piece("deck_size", (J,), C.CARDS_PER_CATEGORY, "cards left in each judge's deck"),
    Piece("removed", (K,), 1, "cards discarded out of the game"),
    Piece("song_colour", (SONG, NC), 1, "the colour of the lyric in each song slot"),
    Piece("song_words", (SONG,), 5, "the words of the lyric in each song slot"),
    Piece("song_next", (SONG + 1,), 1, "the next unclaimed slot (the last entry: the song is over)"),
    Piece("flag", (SONG,), 1, "the slot whose claim reveals the checkered flag"),
    Piece("end_triggered", (1,), 1, "the flag has been revealed"),
    Piece("lyrics", (P, L), 1, "each seat's claimed lyric tokens"),
    Piece("claiming", (L,), 1, "lyric tokens claimed in the lip sync under way"),
    Piece("scores", (P, J), C.CATEGORY_CAP, "each seat's category tracks, by judge"),
    Piece("tens", (P, J), 1, "each seat's 10-tokens, by judge"),
    Piece("tens_left", (J,), P, "10-tokens left beside each judge"),
    Piece("desire_face", (J, C.NUM_DESIRE_KINDS), 1, "each judge's face-up desire"),
    Piece("desires", (P, J), C.NUM_DESIRES, "desire tokens each seat has claimed, by judge"),
    Piece("reveal_hand", (C.NUM_REVEALS,), 1, "my reveal cards"),
    Piece("reveal_count", (P,), C.REVEALS_EACH, "reveal cards in each seat's hand"),
    Piece("revealed", (P, C.NUM_REVEALS), 1, "reveal cards each seat has played"),
    Piece("turns", (P,), 60, "turns each seat has started"),
    Piece("moved", (3,), 60, "this turn: spaces moved, queens passed, strut"),
    Piece("path", (S,), 1, "this turn: spaces moved past"),
    Piece("landed", (S,), 1, "this turn: the space landed on"),
    Piece("land_colour", (NC,), 1, "this turn: the colour collected on landing"),
    Piece("danced", (K,), 1, "the card being danced or danced this turn"),
    Piece("dance_area", (NC,), 1, "the area it was danced in"),
    Piece("spent_kinds", (2, NC), 1, "this dance: actual rhinestone colours spent; discarded card colours spent"),
    Piece("turn_points", (J,), 255, "points scored this turn per judge's category (clipped at 255)"),
    Piece("revealed_turn", (1,), 1, "a reveal card was played this turn"),
    Piece("payment", (4,), C.MAX_STARS, "stars, pairs paid, Stage Presence used, pairs left"),
    Piece("half", (NC,), 1, "the colour of the open half pair"),
    Piece("choice", (NC,), 1, "the colour chosen for Eleganza / Floorwerk"),
    Piece("shown", (K,), 1, "cards revealed for the Handwerk under way"),
    Piece("shade_picked", (J,), 1, "judges whose display card the Shade under way discarded"),
    Piece("bedazzled", (S,), 1, "spaces filled by the bedazzle under way"),
    Piece("oddy_done", (P,), 1, "seats Body Oddy took from this landing"),
)
# Views for learning (observation option `views`), from what the pieces above show: the display card
# by judge (a draw names a judge), and what my move would collect (a move names a space).
_VIEWS = (
    Piece("display_colour", (J, NC), 1, "the colour of each judge's display card"),
    Piece("display_stars", (J,), C.MAX_STARS, "the stars of each judge's display card"),
    Piece("draw_lips", (J,), 20, "the lips I would earn drawing each judge's display card (EX-DRAW-1)"),
    Piece("reach", (S,), 10, "deciding my move: rhinestones I would collect landing on each destination "
          "(EX-MOVE-3, Green Screen aside)"),
    Piece("toll", (S,), P, "deciding my move: queens I would pass (and pay) on the way to each destination"),
    # ... and, deciding my move or my draw, what a dance would score me now (views.dance_rates).
    Piece("dance_rate", (J,), 60, "deciding my move or draw: per judge, the points a star of a dance of its category "
          "would score me now (capped at 60; views.dance_rates)"),
    Piece("payable", (1,), 20, "deciding my move or draw: the most stars I could pay for a card now (capped at 20)"),
    Piece("draw_points", (J,), 255, "deciding my move or draw: per judge, dance_rate times the stars I could pay for "
          "its display card (capped at 255)"),
    # ... and what a landing or a draw would let one dance add this turn (views.landing_gains, dance_gains).
    Piece("landing_gain", (S,), C.CATEGORY_CAP, "deciding my move: per destination (my own space: not moving), the "
          "most points one dance could add this turn after landing there and drawing or not"),
    Piece("draw_gain", (J + 1,), C.CATEGORY_CAP, "deciding my draw: per judge, the most points one dance could add "
          "this turn after drawing its display card (the last: no draw)"),
    Piece("colour_count", (NC,), 10, "deciding Eleganza's or Floorwerk's colour: per colour, what choosing it would "
          "count (views.colour_counts)"),
)
# The outlook (observation option `outlook`, after the views): how much the tuned heuristic prefers each
# choice of my move and my draw, each played out to the next turn on copies of the state (heuristic.outlook).
_OUTLOOK = (
    Piece("move_outlook", (S,), 255, "deciding my move: per destination (my own space: not moving), how much the "
          "tuned heuristic prefers it, each choice played out to the next turn on copies with the cards I cannot see "
          "dealt anew: 255 for its choice, one less per eighth of a point below it, 0 from about 32 points "
          "below (heuristic.outlook)"),
    Piece("draw_outlook", (J + 1,), 255, "deciding my draw: the same per judge's display card (the last: no draw)"),
)
LAYOUT = ObsLayout(*_STATE)  # the observation (views=false, the default)
LAYOUT_VIEWS = ObsLayout(*_STATE, *_VIEWS)  # views=true: the same, then the views for learning
LAYOUT_OUTLOOK = ObsLayout(*_STATE, *_VIEWS, *_OUTLOOK)  # and outlook=true: then the outlook


def layout_of(views: bool, outlook: bool) -> ObsLayout:
    return LAYOUT_OUTLOOK if outlook else LAYOUT_VIEWS if views else LAYOUT


@dataclass(frozen=True)
class Options:
    """The observation options (core/obs.py): `Game.make_observer(views=True)`, `encode(..., views=True)`."""

    views: bool = option(False, (False, True), "add the views for learning after the state: what a move, a draw or "
                         "a colour choice could lead to (views.py; the shipped ppo-v1 reads them)")
    outlook: bool = option(False, (False, True), "with views: add the outlook after them, how much the tuned "
                           "heuristic prefers each move and draw (heuristic.outlook: a play-out of each choice)")

    def __post_init__(self) -> None:
        if self.outlook and not self.views:
            raise ValueError("extravaganza observation: option 'outlook' = true needs 'views' = true "
                             "(the outlook comes after the views)")


def encode(game, s: State, me: int, views: bool = False, outlook: bool = False) -> np.ndarray:
    """Seat `me`'s observation, piece by piece into the layout's named views: LAYOUT's pieces, then
    with `views` (the observation option) the views for learning, then with `outlook` the outlook."""
    n = game.n
    Options(views=views, outlook=outlook)  # outlook needs views
    layout = layout_of(views, outlook)
    v = np.zeros(layout.size, np.float32)
    o = layout.views(v)
    rel = lambda q: (q - me) % n  # noqa: E731  (a seat's row as `me` sees it)
    o["modules"][:] = [game.powers, game.desires_on, game.tens_on]
    o["seats"][:n] = 1
    if s.first >= 0:
        o["first"][rel(s.first)] = 1
    if s.turn >= 0:
        o["turn"][rel(s.turn)] = 1
    if not s.over:
        o["op"][s.todo[0].op] = 1
        who = game.current_player(s)
        if who >= 0:
            o["decider"][rel(who)] = 1
    for sp in range(25):
        o["areas"][sp, game.areas[sp]] = 1
        if s.stage[sp] >= 0:
            o["stage"][sp, s.stage[sp]] = 1
    for q in range(n):
        r = rel(q)
        if s.pos[q] >= 0:
            o["queen_at"][r, s.pos[q]] = 1
        if s.queen[q] >= 0:
            o["queen_of"][r, s.queen[q]] = 1
        o["supply"][r] = s.supply[q]
        o["lips"][r] = s.lips[q]
        o["hand_size"][r] = sum(s.hands[q])
        for k in s.stacks[q]:
            o["stacks"][r, k] = 1
        if s.stacks[q]:
            o["top"][r, C.CARD_CATEGORY[s.stacks[q][-1]]] = 1
        for t in s.lyrics[q]:
            o["lyrics"][r, t] = 1
        o["scores"][r] = s.scores[q]
        o["tens"][r] = s.tens[q]
        o["desires"][r] = s.desires[q]
        o["reveal_count"][r] = sum(s.reveal_hands[q])
        for x in s.revealed[q]:
            o["revealed"][r, x] = 1
        o["turns"][r] = s.turns[q]
    o["bag"][:] = list(s.bag.counts)
    o["spent"][:] = s.spent
    o["lip_supply"][0] = s.lip_supply
    o["hand"][:] = list(s.hands[me])
    for j in range(5):
        if s.cats[j] >= 0:
            o["categories"][j, s.cats[j]] = 1
        if s.display[j] >= 0:
            o["display"][s.display[j]] = 1
        o["deck_size"][j] = s.decks[j].n
        if s.desire_face[j] >= 0:
            o["desire_face"][j, s.desire_face[j]] = 1
    o["removed"][:] = list(s.removed)
    for i, t in enumerate(s.song):
        if t >= 0:
            o["song_colour"][i, C.LYRIC_COLOUR[t]] = 1
            o["song_words"][i] = C.LYRIC_STARS[t]
    o["song_next"][s.song_next if s.song_next < game.song_length else C.MAX_SONG] = 1
    o["flag"][game.flag_slot] = 1
    o["end_triggered"][0] = s.end_triggered
    for t in s.claiming:
        o["claiming"][t] = 1
    o["tens_left"][:] = s.tens_left
    o["reveal_hand"][:] = list(s.reveal_hands[me])
    o["moved"][:] = [s.moved, s.passed, min(s.strut, 60)]
    for sp in s.path:
        o["path"][sp] = 1
    if s.landed >= 0:
        o["landed"][s.landed] = 1
    if s.land_colour >= 0:
        o["land_colour"][s.land_colour] = 1
    danced = s.playing if s.playing >= 0 else s.danced
    if danced >= 0:
        o["danced"][danced] = 1
    if s.dance_area >= 0:
        o["dance_area"][s.dance_area] = 1
    for c in range(5):
        o["spent_kinds"][0, c] = (s.spent_actual >> c) & 1
        o["spent_kinds"][1, c] = (s.spent_cards >> c) & 1
    o["turn_points"][:] = [min(x, 255) for x in s.turn_points]
    o["revealed_turn"][0] = s.revealed_turn
    o["payment"][:] = [s.stars, s.paid, s.stage_used, max(0, s.stars - s.paid)]
    if s.half >= 0:
        o["half"][s.half] = 1
    if s.choice >= 0:
        o["choice"][s.choice] = 1
    for k in s.shown:
        o["shown"][k] = 1
    for j in s.shade_picked:
        o["shade_picked"][j] = 1
    for sp in s.bedazzled:
        o["bedazzled"][sp] = 1
    for q in s.oddy_done:
        o["oddy_done"][rel(q)] = 1
    if views:
        _write_views(o, game, s, me)
    if outlook:
        seen = heuristic.outlook(game, s, me)
        o["move_outlook"][:] = seen[:S]
        o["draw_outlook"][:] = seen[S:]
    return v


def _write_views(o: dict, g, s: State, me: int) -> None:
    """The views for learning, worked out plainly: the display card by judge; deciding my move or my
    draw, what it could lead to, each landing played on a copy of the state; deciding a colour, what
    each would count."""
    mine = [C.card_colour(k) for k in s.stacks[me]]
    shown = [C.card_colour(k) for k in s.display if k >= 0]
    for j, k in enumerate(s.display):
        if k >= 0:
            o["display_colour"][j, C.card_colour(k)] = 1
            o["display_stars"][j] = C.card_max_stars(k)
            lips = shown.count(C.card_colour(k)) + mine.count(C.card_colour(k))
            if g.powers and s.queen[me] == C.SAVANNAH and lips <= 2:
                lips += 1
            o["draw_lips"][j] = lips
    if not s.over and s.todo[0].op == Op.MOVE and s.turn == me:
        legal = [a - A.SPACE for a in g.legal_actions(s) if A.SPACE <= a < A.SPACE + C.NUM_SPACES]
        for ray in C.rays(s.pos[me]):
            for i, d in enumerate(ray):
                if d in legal:
                    colour = s.stage[d]
                    o["reach"][d] = (1 + [s.stage[sp] for sp in ray[:i]].count(colour)) if colour >= 0 else 0
                    o["toll"][d] = sum(1 for sp in ray[:i] if sp in s.pos)
    if not s.over and s.todo[0].op in (Op.MOVE, Op.DRAW) and s.turn == me:
        rates, pay = _dance_rates(g, s, me), _payable(g, s, me)
        o["dance_rate"][:] = [min(r, 60) for r in rates]
        o["payable"][0] = min(pay, 20)
        for j, k in enumerate(s.display):
            if k >= 0:
                o["draw_points"][j] = min(255, rates[j] * min(pay, C.card_max_stars(k)))
        if s.todo[0].op == Op.DRAW:
            o["draw_gain"][:] = _gains(g, g.clone(s), me)
        else:
            o["landing_gain"][s.pos[me]] = max(_gains(g, g.clone(s), me))
            legal = [a - A.SPACE for a in g.legal_actions(s) if A.SPACE <= a < A.SPACE + C.NUM_SPACES]
            for ray in C.rays(s.pos[me]):
                for i, d in enumerate(ray):
                    if d in legal:
                        o["landing_gain"][d] = max(_gains(g, _landed(g, s, me, d, ray[:i]), me))
    if not s.over and s.turn == me and s.todo[0].op == Op.ELEGANZA:
        o["colour_count"][:] = s.spent
    if not s.over and s.turn == me and s.todo[0].op == Op.FLOORWERK:
        o["colour_count"][:] = [sum(1 for x in s.stage if x == c) for c in range(5)]


def _landed(g, s, me, d, path):
    """A copy of s after my queen moved to d along `path` (EX-MOVE-1..3): each queen passed paid a
    rhinestone of the colour I hold most (the first such), then the landing rhinestone and the passed
    ones of its colour (Green Screen: and the passed greens) collected; no other step taken."""
    t = g.clone(s)
    for sp in path:
        if sp in s.pos:
            c = max(range(5), key=lambda x: (t.supply[me][x], -x))
            t.supply[me][c] -= 1
            t.supply[s.pos.index(sp)][c] += 1
    colour = s.stage[d]
    if colour >= 0:
        tart = g.powers and s.queen[me] == C.TART
        for sp in [d, *path]:
            if s.stage[sp] == colour or (sp != d and tart and s.stage[sp] == C.GREEN):
                t.stage[sp] = -1
                t.supply[me][colour] += 1
    t.pos[me] = d
    t.moved = len(path) + 1
    t.passed = sum(1 for sp in path if sp in s.pos)
    return t


def _gains(g, t, me):
    """The view draw_gain in state t: per judge, the best of dancing its display card (my hand and
    played cards paying) or a hand card (the drawn card paying too), the last entry without a draw;
    a dance: dance_rate x the stars payable (up to the card's), Tuckingham Palace's colour bonus, up to
    the track's cap of 40."""
    rates = _dance_rates(g, t, me)
    hand = t.hands[me]

    def points(k):  # card k danced, out of my hand
        pay = _payable(g, t, me)
        if not pay:
            return 0
        j = t.cats.index(C.CARD_CATEGORY[k])
        x = rates[j] * min(pay, C.card_max_stars(k))
        if g.powers and t.queen[me] == C.JEN:
            x += len({c for c in range(5) if t.supply[me][c]} | {C.card_colour(y) for y in t.stacks[me]}
                     | {C.card_colour(k)})
        return min(x, 40 - t.scores[me][j])

    def best_of_hand():
        best = 0
        for k in [k for k in range(C.NUM_CARDS) if hand[k]]:
            hand[k] -= 1
            best = max(best, points(k))
            hand[k] += 1
        return best

    out = []
    for k in t.display:
        if k < 0:
            out.append(0)
            continue
        best = points(k)
        hand[k] += 1
        out.append(max(best, best_of_hand()))
        hand[k] -= 1
    return out + [best_of_hand()]


def _dance_rates(g, s, me):
    """The view dance_rate, from the category rules as the README states them (EX-CAT-*)."""
    near = [q for q in range(g.n) if q != me and s.pos[me] >= 0 and s.pos[q] in C.nearby(s.pos[me])]
    stones = [sum(s.supply[q]) for q in range(g.n)]
    stack = [len(s.stacks[q]) for q in range(g.n)]
    hand_stars = sorted([C.card_max_stars(k) for k in range(C.NUM_CARDS) for _ in range(s.hands[me][k])])[::-1]
    display_stars = sorted([C.card_max_stars(k) for k in s.display if k >= 0])[::-1]
    lyric = C.LYRIC_STARS[s.song[s.song_next]] if s.song_next < g.song_length else 0
    around = {s.stage[sp] for sp in C.nearby(s.pos[me]) if s.stage[sp] >= 0} if s.pos[me] >= 0 else set()
    per_category = {
        C.BOOTY: stones[me] + sum(stones[q] for q in near if stones[q] < stones[me]),
        C.RUNWAY: s.moved + 2 * s.passed + s.strut,
        C.ELEGANZA: max(s.spent),
        C.FLOORWERK: max(list(s.stage).count(c) for c in range(5)),
        C.HANDWERK: sum(hand_stars[:3]),
        C.LYRICISM: lyric + len({C.LYRIC_COLOUR[t] for t in s.lyrics[me]}),
        C.SHAWAM: len([sp for sp in range(25) if s.stage[sp] < 0 and sp not in s.pos]),
        C.SHADE: sum(display_stars[:3]),
        C.TUCK: stack[me] + 1 + sum(stack[q] for q in near if stack[q] < stack[me] + 1),
        C.TWIRLS: len(around) + len([c for c in range(5) if s.supply[me][c]]),
    }
    return [per_category[cat] for cat in s.cats]


def _payable(g, s, me):
    """The view payable: same-colour pairs from rhinestones, hand and played cards (EX-DANCE-1..3), Green
    Screen's green rhinestones pairing with anything, Stage Presence one more of its area's colour."""
    items = list(s.supply[me])
    for k in range(C.NUM_CARDS):
        items[C.card_colour(k)] += s.hands[me][k]
    for k in s.stacks[me]:
        items[C.card_colour(k)] += 1
    wild = 0
    if g.powers and s.queen[me] == C.TART:
        wild = s.supply[me][C.GREEN]
        items[C.GREEN] -= wild
    elif g.powers and s.queen[me] == C.KIKI and not s.stage_used and s.pos[me] >= 0:
        items[g.areas[s.pos[me]]] += 1
    best = 0
    for used in range(wild + 1):  # wild items: some make pairs with odd ones, the rest pair among themselves
        odd = sum(x % 2 for x in items)
        best = max(best, sum(x // 2 for x in items) + min(used, odd) + (wild - min(used, odd)) // 2)
    return best


def string_from(game, s: State, me: int) -> str:
    """Seat `me`'s view as text."""
    head = "game over" if s.over else game.decision_name(s)
    lines = [f"player_{me} | turn of {seat_name(s.turn, 'nobody (set-up)')} | {head}",
             f"song {s.song_next}/{game.song_length}{' (flag revealed)' if s.end_triggered else ''} | bag "
             f"{s.bag.n} | spent {narrate._stones(s.spent)} | lips left {s.lip_supply}",
             narrate.stage_text(game, s),
             "display: " + "; ".join(
                 f"{narrate.judge(game, s, j)}: {C.CARD_NAMES[s.display[j]] if s.display[j] >= 0 else '-'} "
                 f"({s.decks[j].n} left)" for j in range(J))]
    for q in range(game.n):
        lines.append(narrate.player_text(game, s, q))
    lines.append("your hand: " + (", ".join(C.CARD_NAMES[k] for k in range(K) if s.hands[me][k]) or "-"))
    if game.tens_on:
        lines.append("your reveal cards: " + (", ".join(
            C.reveal_name(r) for r in range(C.NUM_REVEALS) if s.reveal_hands[me][r]) or "-"))
    if game.desires_on:
        lines.append("desires: " + "; ".join(
            f"{C.JUDGES[j]}: {C.desire_text(d) if d >= 0 else '-'}" for j, d in enumerate(s.desire_face)))
    if s.shown:
        lines.append("Handwerk shown: " + ", ".join(C.CARD_NAMES[k] for k in s.shown))
    return "\n".join(lines)
