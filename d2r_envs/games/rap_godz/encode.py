"""Rap Godz observations, seat-relative: row 0 is the observer, then the players to its left, padded to 4.

Only what the seat may know: its own hand and draft offer; of the other hands only how many cards of
each Album they hold (every draw names its deck); everything else lies face up.

This module is the observation's spec: `LAYOUT` (and, under the observation option `outlook`,
`LAYOUT_OUTLOOK`) names its pieces, `encode` writes them plainly from the state's fields, piece by
piece, and `string_from` is the seat's view as text. The Observer the Game uses is the fast encoder in
encode_fast.py, checked byte for byte against `encode` at every node, with the outlook and without
(tests/rap_godz/test_encode.py). The outlook is the tuned heuristic's own preferences
(`heuristic.outlook`) in both.
"""

from __future__ import annotations

import numpy as np

from dataclasses import dataclass

from d2r_envs.core.config import option
from d2r_envs.core.obs import ObsLayout, Piece
from d2r_envs.core.zones import card_count
from d2r_envs.core.words import seat_name
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import heuristic, standing
from d2r_envs.games.rap_godz.state import NUM_PHASES, Phase, State

MAJORITY_MAX = 40  # the view `majority`'s cap, in twentieths of a chance

P, NP, NC = C.MAX_PLAYERS, C.NUM_PLAY, C.NUM_COME
NR, NCI = C.NUM_RAPPERZ, C.NUM_CITIEZ
_COME, _RAP, _CITY = C.COME_FIRST, C.RAPPER_FIRST, C.CITY_FIRST
_ALBUM_SPANS = [(min(k), max(k) + 1) for k in C.ALBUM_KINDS]

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game (relative)"),
    Piece("phase", (NUM_PHASES,), 1, "the phase (state.Phase)"),
    Piece("album", (C.ALBUMS,), 1, "the current Album"),
    Piece("track", (C.TRACKS,), 1, "the current Track"),
    Piece("turn", (P,), 1, "relative seat whose turn it is"),
    Piece("actor", (P,), 1, "relative seat deciding now"),
    Piece("medallion", (P,), 1, "relative seat holding the Medallion"),
    Piece("res", (P, C.NUM_RES), C.TRACK_MAX, "Streetz, Skillz, Swag per seat"),
    Piece("upgraded", (P, C.NUM_RES), 1, "resources on an Upgrade cube per seat"),
    Piece("points", (P,), 255, "plaque points per seat (255 at most)"),
    Piece("plaques", (P, 3), 36, "Bronze, Gold, Platinum plaques held per seat"),
    Piece("owed", (P,), 255, "points the supply could not make, per seat"),
    Piece("supply", (3,), 36, "plaques left in the supply"),
    Piece("hand", (NP,), 10, "my hand: cards per kind"),
    Piece("hand_albums", (P, C.ALBUMS), 10, "cards of each Album in each hand"),
    Piece("held", (P, NC), 5, "Come Upz held face up per seat, per Come Upz kind"),
    Piece("colours", (P, C.NUM_COLOURS), 60, "timeline cards per colour per seat"),
    Piece("icons", (P, C.NUM_COLOURS), 60, "timeline icons per colour per seat"),
    Piece("timeline", (P, 3), 60, "timeline cards, Come Upz and Beef cards per seat"),
    Piece("rapper", (P, NR), 1, "each seat's Rapper"),
    Piece("city", (P, NCI), 1, "each seat's City (Hometown)"),
    Piece("used", (P,), 1, "the once-per-Album ability is covered, per seat"),
    Piece("offer", (NR + NCI,), 1, "my draft offer: Rapperz, then Citiez"),
    Piece("board_cities", (NCI,), 1, "Citiez on the board"),
    Piece("goals", (C.NUM_GOALZ,), 1, "Goalz in play"),
    Piece("goal_won", (C.NUM_GOALZ, P), 1, "in-game Goalz collected, by relative seat"),
    Piece("slots", (C.MAX_SLOTS, NC), 1, "the face-up Come Upz per slot"),
    Piece("decks", (6,), 60, "cards left in the Album decks 1-3 and the Come Upz decks 1-3"),
    Piece("track_pickups", (C.NUM_PICKUP_SPACES, 3), 1, "the Pick Upz type on each track symbol"),
    Piece("pickups", (P, 3), 9, "Pick Upz held per seat, per type"),
    Piece("cubes", (P,), C.BEEF_CUBES, "Beef cubes per seat"),
    Piece("cube_supply", (1,), C.BEEF_CUBES, "Beef cubes left"),
    Piece("beef_album", (C.ALBUMS,), 1, "the Album of the Beef card being fought over"),
    Piece("starter", (P,), 1, "relative seat that started the Beef"),
    Piece("target", (P,), 1, "relative seat the Beef targets"),
    Piece("dice", (3, C.DIE_SIDES), 1, "the starter's die, the red die, the target's die"),
    Piece("bonus", (2,), 20, "+2 on Beef used by the starter, the target"),
    Piece("spend_left", (1,), 3, "cards still to spend for the Come Upz"),
    Piece("buying", (C.MAX_SLOTS,), 1, "the Come Upz slot being bought"),
    # Views for learning, from what the pieces above show: how each card fits me (a card's worth to a
    # seat turns on its Rapper's and City's colours and its lock), by kind and by face-up slot.
    Piece("card_fit", (NP, 2), 1, "per card kind: its colour is my Rapper's bonus colour; my City's colour"),
    Piece("short", (NP,), C.TRACK_MAX, "per card kind: how much of its lock's resource I still lack (RG-PLAY-2)"),
    Piece("slot_fit", (C.MAX_SLOTS, 3), 1, "per face-up Come Upz: its colour is my Rapper's; my City's; I could play it"),
    Piece("come_cost", (1,), C.COME_COST, "cards a Come Upz costs me now (RG-TURN-2)"),
    # ... and what each card's play would change in the end-game majorities (standing.py).
    Piece("majority", (NP, 3), MAJORITY_MAX, "per card kind: the change its play would make in my chance of holding "
          "the Citiez on the board of its colour, Mono, and Timeline or Come Up, in twentieths (standing.py)"),
)
# The outlook (observation option `outlook`, after the pieces above): how much the tuned heuristic
# prefers each action of the decision I am taking (heuristic.outlook).
LAYOUT_OUTLOOK = ObsLayout(
    *LAYOUT.pieces,
    Piece("outlook", (heuristic.OUTLOOK_SIZE,), 255, "deciding: per action, how much the tuned heuristic prefers it: "
          "255 for its choice, one less per eighth of a point below it, 0 from about 32 points below and when "
          "not legal; at the decisions it takes by rule (the draft, Pick Upz, abilities, the Beef window) 255 "
          "for its choice only; all 0 when I am not deciding or have a single choice (heuristic.outlook)"),
)


def layout_of(outlook: bool) -> ObsLayout:
    return LAYOUT_OUTLOOK if outlook else LAYOUT


@dataclass(frozen=True)
class Options:
    """The observation options (core/obs.py): `Game.make_observer(outlook=True)`, `encode(..., outlook=True)`."""

    outlook: bool = option(False, (False, True), "add the outlook after the state: how much the tuned heuristic "
                           "prefers each action of my decision (heuristic.outlook)")


def encode(game, s: State, me: int, outlook: bool = False) -> np.ndarray:
    """Seat `me`'s observation, piece by piece into the layout's named views: LAYOUT's pieces, then with
    `outlook` (the observation option) the outlook."""
    n = s.num_players
    layout = layout_of(outlook)
    out = np.zeros(layout.size, np.float32)
    v = layout.views(out)
    rel = lambda p: (p - me) % n  # noqa: E731  (a seat's row as `me` sees it)
    v["seats"][:n] = 1
    v["phase"][s.phase] = 1
    v["album"][s.album] = 1
    v["track"][s.track] = 1
    if s.turn >= 0:
        v["turn"][rel(s.turn)] = 1
    if s.phase != Phase.OVER and not s.chance and s.actor >= 0:  # nobody decides at chance or at the end
        v["actor"][rel(s.actor)] = 1
    if s.medallion >= 0:
        v["medallion"][rel(s.medallion)] = 1
    v["supply"][:] = s.supply
    v["hand"][:] = list(s.hands[me][:NP])  # my own hand only
    v["offer"][:] = list(s.offers[me][_RAP:])  # my own draft offer only (RG-SETUP-2)
    for p in range(n):
        r = rel(p)
        v["res"][r] = s.res[p]
        v["upgraded"][r] = [s.upgraded[p] >> i & 1 for i in range(C.NUM_RES)]
        v["points"][r] = min(255, game.points(s, p))
        v["plaques"][r] = s.plaques[p]
        v["owed"][r] = min(255, s.owed[p])
        for k in range(NP):
            card = C.CARDS[k]
            if s.hands[p][k] and not card.come:  # of every hand, its cards per Album
                v["hand_albums"][r, card.deck] += s.hands[p][k]
            if s.held[p][k]:
                v["held"][r, k - _COME] = s.held[p][k]
            t = s.timelines[p][k]
            if t:
                v["timeline"][r, 0] += t
                v["timeline"][r, 1] += t if card.come else 0
                v["timeline"][r, 2] += t if card.beef else 0
                if not card.beef:  # a Beef card has no colour
                    v["colours"][r, card.colour] += t
                    v["icons"][r, card.colour] += t * card.icons
        if s.rappers[p] >= 0:
            v["rapper"][r, s.rappers[p] - _RAP] = 1
        if s.cities[p] >= 0:
            v["city"][r, s.cities[p] - _CITY] = 1
        v["used"][r] = s.used[p]
        v["pickups"][r] = s.pickups[p]
        v["cubes"][r] = s.cubes[p]
    for k in game.board_cities(s):
        v["board_cities"][k - _CITY] = 1
    for goal in s.goals:
        v["goals"][goal] = 1
    for goal, p in enumerate(s.goal_won):
        if p >= 0:
            v["goal_won"][goal, rel(p)] = 1
    for j, k in enumerate(s.slots):
        if k >= 0:
            v["slots"][j, k - _COME] = 1
    v["decks"][:] = [d.n for d in s.decks] + [d.n for d in s.come_decks]
    for i, t in enumerate(s.track_pickups):
        if t >= 0:
            v["track_pickups"][i, t] = 1
    v["cube_supply"][0] = s.cube_supply
    if s.beef_card >= 0:
        v["beef_album"][C.CARDS[s.beef_card].deck] = 1
    if s.starter >= 0:
        v["starter"][rel(s.starter)] = 1
        v["target"][rel(s.target)] = 1
    for i, d in enumerate(s.dice):
        if d:
            v["dice"][i, d - 1] = 1
    v["bonus"][:] = s.bonus
    v["spend_left"][0] = s.spend_left
    if s.slot >= 0:
        v["buying"][s.slot] = 1
    # the views for learning
    rapper = C.RAPPERZ[s.rappers[me] - _RAP].colour if s.rappers[me] >= 0 else None
    city = C.CITIEZ[s.cities[me] - _CITY].colour if s.cities[me] >= 0 else None
    for k, card in enumerate(C.CARDS):
        if not card.beef:
            v["card_fit"][k] = [card.colour == rapper, card.colour == city]
        if card.lock:
            v["short"][k] = max(0, card.lock[1] - s.res[me][card.lock[0]])
    for j, k in enumerate(s.slots):
        if k >= 0:
            v["slot_fit"][j] = [*v["card_fit"][k], game.can_play(s, me, k)]
    v["come_cost"][0] = game.come_cost(s, me)
    for k, row in enumerate(standing.gains(game, s, me)):
        v["majority"][k] = [min(MAJORITY_MAX, round(20 * x)) for x in row]
    if outlook:
        v["outlook"][:] = heuristic.outlook(game, s, me)
    return out


def string_from(game, s: State, me: int) -> str:
    """Seat `me`'s view as text."""
    medallion = seat_name(s.medallion, "not won yet")
    lines = [f"you are player_{me} | Album {s.album + 1} Track {s.track + 1} | Medallion {medallion}"
             f" | {game.decision_name(s)}"]
    goals = ", ".join(C.GOALZ[k][0] + (f" (player_{s.goal_won[k]})" if s.goal_won[k] >= 0 else "") for k in s.goals)
    lines.append(f"Goalz: {goals} | Citiez: " + ", ".join(C.KIND_NAMES[k] for k in game.board_cities(s)))
    lines.append("Come Upz: " + ", ".join(C.KIND_NAMES[k] if k >= 0 else "-" for k in s.slots)
                 + f" | decks {[d.n for d in s.decks]} come {[d.n for d in s.come_decks]} | supply {s.supply}")
    lines.append("Pick Upz on the tracks: " + ", ".join(
        f"{C.RESOURCES[i // 3]} {C.PICKUP_SPACES[i % 3]}: {C.PICKUP_TYPES[t]}"
        for i, t in enumerate(s.track_pickups) if t >= 0))
    if s.starter >= 0:
        lines.append(f"Beef: player_{s.starter} vs player_{s.target}, dice {s.dice}, bonus {s.bonus}")
    for p in range(s.num_players):
        albums = [card_count(s.hands[p][a:b]) for a, b in _ALBUM_SPANS]
        rapper = C.KIND_NAMES[s.rappers[p]] if s.rappers[p] >= 0 else "-"
        city = C.KIND_NAMES[s.cities[p]] if s.cities[p] >= 0 else "-"
        used = " (used)" if s.used[p] else ""
        lines.append(f"player_{p}: {game.points(s, p)} pts {s.plaques[p]} | {rapper}{used}, {city}"
                     f" | res {s.res[p]} | Pick Upz {s.pickups[p]} | cubes {s.cubes[p]} | hand {albums}"
                     f" | held: {C.counts_to_string(s.held[p])} | timeline: {C.counts_to_string(s.timelines[p])}")
    lines.append("your hand: " + C.counts_to_string(s.hands[me]))
    if any(s.offers[me]):
        lines.append("your draft offer: " + C.counts_to_string(s.offers[me]))
    return "\n".join(lines)
