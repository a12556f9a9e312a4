"""What must hold in every Rap Godz state: the fuzz tests check it after every transition."""

from __future__ import annotations

from d2r_envs.core.zones import Deck
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.state import ZONES, Phase, State


def violations(game, s: State) -> list[str]:
    out = ZONES.census(s)  # every card in exactly one place
    n = s.num_players
    for i in range(3):  # plaques conserved by denomination
        held = s.supply[i] + sum(pl[i] for pl in s.plaques)
        if held != C.PLAQUE_SUPPLY[i] or s.supply[i] < 0:
            out.append(f"{C.PLAQUE_NAMES[i]}: {held} in play, the box has {C.PLAQUE_SUPPLY[i]}")
    if s.cube_supply + sum(s.cubes) != C.BEEF_CUBES or s.cube_supply < 0:
        out.append(f"Beef cubes: {s.cube_supply} + {s.cubes} != {C.BEEF_CUBES}")
    for t in range(3):  # Pick Upz conserved
        where = s.pickup_deck[t] + s.track_pickups.count(t) + sum(pk[t] for pk in s.pickups) + s.pickups_used[t]
        if where != C.PICKUP_COPIES:
            out.append(f"{C.PICKUP_TYPES[t]}: {where} tokens, the box has {C.PICKUP_COPIES}")
    for p in range(n):
        up = s.upgraded[p]
        if bin(up).count("1") > C.UPGRADE_CUBES:
            out.append(f"player_{p} uses {bin(up).count('1')} Upgrade cubes")
        for r, v in enumerate(s.res[p]):
            top = C.TRACK_MAX if up >> r & 1 else C.TRACK_TOP
            if not 0 <= v <= top:
                out.append(f"player_{p} {C.RESOURCES[r]} {v} off its track (0..{top})")
        if s.owed[p] < 0 or min(s.plaques[p]) < 0:
            out.append(f"player_{p} plaques {s.plaques[p]} owed {s.owed[p]}")
        if min(s.pickups[p]) < 0:
            out.append(f"player_{p} holds negative Pick Upz")
        if s.turns[p] > C.ALBUMS * C.TRACKS:
            out.append(f"player_{p} took {s.turns[p]} turns")
        if s.phase == Phase.OVER and s.turns[p] != C.ALBUMS * C.TRACKS:
            out.append(f"the game ended with player_{p} on {s.turns[p]} turns")  # RG-END-1
        if max(s.hands[p][C.COME_FIRST:]) or max(s.held[p][: C.COME_FIRST]):
            out.append(f"player_{p}: a Come Upz in the hand or an Album card held")
    if s.phase > Phase.CITY and any(map(any, s.offers)):  # the draft is over: no offer left (the encoder reads it so)
        out.append("a draft offer left after the draft")
    if s.turn >= 0:  # each track is one turn per player; RG-TRACK-1
        base = (s.album * C.TRACKS + s.track) * n
        if not base <= sum(s.turns) < base + n or max(s.turns) - min(s.turns) > 1:
            out.append(f"Album {s.album + 1} Track {s.track + 1} with turns {s.turns}")
    for deck in s.decks + s.come_decks + [s.rapper_deck, s.city_deck, s.pickup_deck, s.goal_deck]:
        if deck.cards != Deck(deck.counts).cards or deck.n != len(deck.cards):
            out.append(f"{deck}: its size or card list is out of step with its counts")
    return out
