"""What must hold in every Draco & Co state: the fuzz tests check it after every transition."""

from __future__ import annotations

from d2r_envs.core.zones import Deck
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co.state import ZONES, State

TOTAL_MONEY = C.SILVER_COINS + 3 * C.GOLD_COINS


def violations(game, s: State) -> list[str]:
    out = ZONES.census(s)  # every card in exactly one place
    pile = s.draw_pile  # a Deck: its size and card list kept in step with its counts by its own methods
    if pile.n != sum(pile.counts) or pile.cards != Deck(pile.counts).cards:
        out.append(f"draw pile out of step: n={pile.n}, cards {list(pile.cards)} for counts {list(pile.counts)}")
    if sum(s.money) + s.bank != TOTAL_MONEY:
        out.append(f"money not conserved: players {sum(s.money)} + bank {s.bank} != {TOTAL_MONEY}")
    if min(s.money) < 0:
        out.append(f"negative fortune: {s.money}")
    placing = s.todo if -1 in s.order else []
    if s.order and sorted([c for c in s.order if c >= 0] + placing) != sorted(game.characters):
        out.append(f"circle {s.order} (+ {s.todo} being placed) is not the characters {game.characters}")
    return out
