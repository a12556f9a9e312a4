"""Rap Godz observations, seat-relative: row 0 is the observer, then the players to its left, padded to 4.

Only what the seat may know: its own hand and draft offer; of the other hands only how many cards of
each Album they hold (every draw names its deck); everything else lies face up.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Observer as _Observer, Piece
from d2r_envs.core.zones import card_count
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.state import Phase, State

P, NP, NC = C.MAX_PLAYERS, C.NUM_PLAY, C.NUM_COME
NR, NCI = C.NUM_RAPPERZ, C.NUM_CITIEZ
_COME, _RAP, _CITY = C.COME_FIRST, C.RAPPER_FIRST, C.CITY_FIRST
_ALBUM_SPANS = [(min(k), max(k) + 1) for k in C.ALBUM_KINDS]
_BEEF = C.BEEF_KINDS
_COLOUR = [c.colour for c in C.CARDS]
_ICONS = [c.icons for c in C.CARDS]

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game (relative)"),
    Piece("phase", (len(Phase),), 1, "the phase (state.Phase)"),
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
)


def _timeline_rows(tl: bytearray) -> tuple[list[int], list[int], list[int]]:
    colours = [0] * C.NUM_COLOURS
    icons = [0] * C.NUM_COLOURS
    for k in range(NP):
        c = tl[k]
        if c and _COLOUR[k] >= 0:
            colours[_COLOUR[k]] += c
            icons[_COLOUR[k]] += c * _ICONS[k]
    return colours, icons, [card_count(tl), card_count(tl[_COME:NP]), sum(tl[k] for k in _BEEF)]


class Observer(_Observer):
    """`encode` writes each piece by name into a core Frame (tests/rap_godz/test_encode.py checks it
    against a plain numpy encoder written piece by piece)."""

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        self._template = []
        for me in range(n):
            f = LAYOUT.frame(LAYOUT.blank(), me, n)
            for k in range(n):
                f.one("seats", k)
            self._template.append(bytes(f))

    def encode(self, s: State, me: int) -> np.ndarray:
        g = self.game
        n = s.num_players
        f = LAYOUT.frame(self._template[me], me, n)
        f.one("phase", s.phase)
        f.one("album", s.album)
        f.one("track", s.track)
        f.seat("turn", s.turn)
        if s.phase != Phase.OVER and not s.chance:
            f.seat("actor", s.actor)
        f.seat("medallion", s.medallion)
        f.seat_rows("res", [bytes(r) for r in s.res])
        f.seat_rows("upgraded", [bytes((u & 1, u >> 1 & 1, u >> 2 & 1)) for u in s.upgraded])
        f.seats("points", [min(255, g.points(s, p)) for p in range(n)])
        f.seat_rows("plaques", [bytes(pl) for pl in s.plaques])
        f.seats("owed", [min(255, o) for o in s.owed])
        f.put("supply", s.supply)
        f.put("hand", s.hands[me][:NP])
        f.seat_rows("hand_albums", [bytes(card_count(h[a:b]) for a, b in _ALBUM_SPANS) for h in s.hands])
        f.seat_rows("held", [bytes(h[_COME:NP]) for h in s.held])
        rows = [_timeline_rows(t) for t in s.timelines]
        f.seat_rows("colours", [bytes(r[0]) for r in rows])
        f.seat_rows("icons", [bytes(r[1]) for r in rows])
        f.seat_rows("timeline", [bytes(r[2]) for r in rows])
        for p in range(n):
            if s.rappers[p] >= 0:
                f.one("rapper", f.place(p) * NR + s.rappers[p] - _RAP)
            if s.cities[p] >= 0:
                f.one("city", f.place(p) * NCI + s.cities[p] - _CITY)
        f.seats("used", [int(u) for u in s.used])
        f.put("offer", s.offers[me][_RAP:])
        for k in g.board_cities(s):
            f.one("board_cities", k - _CITY)
        for goal in s.goals:
            f.one("goals", goal)
        for goal, p in enumerate(s.goal_won):
            if p >= 0:
                f.one("goal_won", goal * P + f.place(p))
        for j, k in enumerate(s.slots):
            if k >= 0:
                f.one("slots", j * NC + k - _COME)
        f.put("decks", [d.n for d in s.decks] + [d.n for d in s.come_decks])
        for i, t in enumerate(s.track_pickups):
            if t >= 0:
                f.one("track_pickups", i * 3 + t)
        f.seat_rows("pickups", [bytes(pk) for pk in s.pickups])
        f.seats("cubes", s.cubes)
        f.one("cube_supply", 0, s.cube_supply)
        if s.beef_card >= 0:
            f.one("beef_album", C.CARDS[s.beef_card].deck)
        f.seat("starter", s.starter)
        f.seat("target", s.target)
        for i, d in enumerate(s.dice):
            if d:
                f.one("dice", i * C.DIE_SIDES + d - 1)
        f.put("bonus", s.bonus)
        f.one("spend_left", 0, s.spend_left)
        if s.slot >= 0:
            f.one("buying", s.slot)
        return f.vector()

    def string_from(self, s: State, me: int) -> str:
        g = self.game
        lines = [f"you are player_{me} | Album {s.album + 1} Track {s.track + 1} | Medallion player_{s.medallion}"
                 f" | {g.decision_name(s)}"]
        lines.append("Goalz: " + ", ".join(C.GOALZ[k][0] + (f" (player_{s.goal_won[k]})" if s.goal_won[k] >= 0 else "")
                                         for k in s.goals) + " | Citiez: " + ", ".join(C.KIND_NAMES[k] for k in g.board_cities(s)))
        lines.append("Come Upz: " + ", ".join(C.KIND_NAMES[k] if k >= 0 else "-" for k in s.slots)
                     + f" | decks {[d.n for d in s.decks]} come {[d.n for d in s.come_decks]} | supply {s.supply}")
        lines.append("Pick Upz on the tracks: " + ", ".join(
            f"{C.RESOURCES[i // 3]} {C.PICKUP_SPACES[i % 3]}: {C.PICKUP_TYPES[t]}" for i, t in enumerate(s.track_pickups) if t >= 0))
        if s.starter >= 0:
            lines.append(f"Beef: player_{s.starter} vs player_{s.target}, dice {s.dice}, bonus {s.bonus}")
        for p in range(s.num_players):
            albums = [card_count(s.hands[p][a:b]) for a, b in _ALBUM_SPANS]
            rapper = C.KIND_NAMES[s.rappers[p]] if s.rappers[p] >= 0 else "-"
            city = C.KIND_NAMES[s.cities[p]] if s.cities[p] >= 0 else "-"
            lines.append(f"player_{p}: {g.points(s, p)} pts {s.plaques[p]} | {rapper}{' (used)' if s.used[p] else ''}, {city}"
                         f" | res {s.res[p]} | Pick Upz {s.pickups[p]} | cubes {s.cubes[p]} | hand {albums}"
                         f" | held: {C.counts_to_string(s.held[p])} | timeline: {C.counts_to_string(s.timelines[p])}")
        lines.append("your hand: " + C.counts_to_string(s.hands[me]))
        if any(s.offers[me]):
            lines.append("your draft offer: " + C.counts_to_string(s.offers[me]))
        return "\n".join(lines)
