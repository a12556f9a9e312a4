"""What must hold in every Drags 2 Riches state: the fuzz tests check it after every transition."""

from __future__ import annotations

from d2r_envs.core.zones import Deck
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.state import ZONES, State


def violations(game, s: State) -> list[str]:
    out = ZONES.census(s)  # every card in exactly one place
    n = s.num_players
    for p in range(n):
        for t, k in enumerate(s.looks[p]):
            if k >= 0 and C.TYPE_OF[k] != t:
                out.append(f"player_{p} wears {C.KINDS[k].name} in the {C.TYPES[t]} slot")
        if min(s.hands[p] + s.wardrobes[p].counts + s.floors[p]) < 0:
            out.append(f"player_{p} has a negative card count")
        q = s.peek[p]
        if q >= 0 and s.peek_hand[p] != s.hands[q]:
            out.append(f"player_{p}'s Peek at player_{q} is out of step with that hand")
    if sum(s.market) > C.MARKET_SIZE or (s.round and sum(s.market) < C.MARKET_SIZE and any(s.pile) and not s.chance):
        out.append(f"the Market holds {sum(s.market)} cards with {sum(s.pile)} in the draw pile")
    events = sorted([e for d in s.decks for e in d] + [e for w in s.won for e in w] + s.gone
                    + ([s.event] if s.event >= 0 and s.event not in s.gone and all(s.event not in w for w in s.won) else []))
    if len(events) != len(set(events)):
        out.append(f"an Event is in two places: {events}")
    for deck in s.wardrobes + [s.pile]:  # a Deck keeps its size and card list in step by its own methods
        if deck.cards != Deck(deck.counts).cards or deck.n != len(deck.cards):
            out.append(f"{deck}: its size {deck.n} or its card list is out of step with its counts")
    if s.worn != [sum(1 << t for t, k in enumerate(look) if k >= 0) for look in s.looks]:
        out.append(f"worn {s.worn} is out of step with the Looks")
    if s.prestige != [sum(C.EVENTS[e].prestige for e in won) for won in s.won]:
        out.append(f"prestige {s.prestige} is out of step with the events won {s.won}")
    if s.coins < 0:
        out.append(f"negative coins {s.coins}")
    return out
