"""What must hold in every Extravaganza state: the fuzz tests check it after every transition."""

from __future__ import annotations

from d2r_envs.core.zones import Deck
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.state import ZONES, Op, State, Step


def violations(game, s: State) -> list[str]:
    out = ZONES.census(s)  # 150 cards, each in exactly one place
    n = game.n
    for name, deck in [("bag", s.bag), ("lyric box", s.lyric_box), ("reveal box", s.reveal_box),
                       ("desire stack", s.desire_stack)] + [(f"deck {j}", d) for j, d in enumerate(s.decks)]:
        if deck.n != sum(deck.counts) or deck.cards != Deck(deck.counts).cards:
            out.append(f"{name} out of step: n={deck.n} for counts {list(deck.counts)}")
    stones = s.bag.n + sum(1 for c in s.stage if c >= 0) + sum(map(sum, s.supply)) + sum(s.spent)
    if stones != C.NUM_STONES:  # 50 rhinestones in the bag, on the stage, in supplies or spent
        out.append(f"{stones} rhinestones in play, the box has {C.NUM_STONES}")
    if min(min(x) for x in s.supply) < 0 or min(s.spent) < 0 or min(s.bag.counts) < 0:
        out.append(f"negative rhinestones: supplies {s.supply}, spent {s.spent}")
    if sum(s.lips) + s.lip_supply != C.NUM_LIPS or min(s.lips) < 0 or s.lip_supply < 0:
        out.append(f"lips not conserved: {s.lips} + supply {s.lip_supply}")
    tens = sum(map(sum, s.tens)) + sum(s.tens_left)
    if tens != (n * C.NUM_JUDGES if game.tens_on else 0) or n * C.NUM_JUDGES > C.NUM_TENS:
        out.append(f"10-tokens not conserved: held {s.tens}, left {s.tens_left}")
    for q in range(n):
        for j, x in enumerate(s.scores[q]):
            if not 0 <= x <= C.CATEGORY_CAP:
                out.append(f"player_{q} category {j} score {x} outside 0..40")
    lyrics = [t for t in s.song if t >= 0] + list(s.lyric_box.cards)
    if sorted(lyrics) != list(range(C.NUM_LYRICS)) and s.song[-1] >= 0:
        out.append("lyric tokens not 30 distinct")
    claimed = sum(map(len, s.lyrics)) + len(s.claiming)
    if claimed != s.song_next:
        out.append(f"{claimed} lyrics held but the song is at slot {s.song_next}")
    reveals = s.reveal_box.n + sum(map(sum, s.reveal_hands)) + sum(map(len, s.revealed))
    if reveals != C.NUM_REVEALS:
        out.append(f"{reveals} reveal cards, the box has {C.NUM_REVEALS}")
    desires = s.desire_stack.n + sum(1 for d in s.desire_face if d >= 0) + sum(map(sum, s.desires))
    if desires != C.NUM_DESIRES:
        out.append(f"{desires} desire tokens, the box has {C.NUM_DESIRES}")
    placed = [p for p in s.pos if p >= 0]
    landing = s.pos[s.turn] if s.turn >= 0 and Step(Op.COLLECT) in s.todo else -1  # the landing is being resolved
    if len(set(placed)) != len(placed) or any(s.stage[p] >= 0 for p in placed if p != landing):
        out.append(f"queens overlap or stand on rhinestones: {s.pos}")
    queens = [q for q in s.queen if q >= 0]
    if len(set(queens)) != len(queens):
        out.append(f"a queen played twice: {s.queen}")
    return out
