"""What must hold in every Filthy Rich state: the fuzz tests check it after every transition."""

from __future__ import annotations

from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.state import NO_OWNER, ON_AUCTION, REMOVED, ZONES, Phase, State, sign_places


def violations(game, s: State) -> list[str]:
    out = ZONES.census(s)  # every card in exactly one place
    n = s.num_players
    for p in range(n):
        if s.money[p] < 0:
            out.append(f"player_{p} has negative money {s.money[p]}")
        holds = any(s.assets[p]) or p in s.owner or p in s.lux_owner
        if not s.alive[p] and (s.money[p] or s.hand_n[p] or holds):
            out.append(f"player_{p} is out but still has money, cards, businesses or luxuries")
    if sum(s.money) != C.START_MONEY * n + s.from_bank - s.to_bank:
        out.append(f"money {sum(s.money)} != start + from bank {s.from_bank} - to bank {s.to_bank}: "
                   "a payment between players was not conserved")
    pages, masks = sign_places(s.book)
    for pg, page in enumerate(s.book):
        for slot, b in enumerate(page):
            if b >= 0 and pages[b] != pg:
                out.append(f"page {pg + 1} slot {slot + 1} holds {C.KIND_NAMES[b]}, whose sign is also on page {pages[b] + 1}")
    for b in range(C.NUM_BUSINESSES):
        if s.owner[b] >= 0 and (not masks[b] or masks[b] not in C.PLACEMENTS[b]):  # FR-SIGN-2: its own shape
            out.append(f"{C.KIND_NAMES[b]} is run by player_{s.owner[b]} with a sign on slots {masks[b]:b}")
        elif s.owner[b] < 0 and masks[b]:
            out.append(f"{C.KIND_NAMES[b]} is closed but its sign is in the book")
        if s.owner[b] >= 0 and not s.alive[s.owner[b]]:
            out.append(f"{C.KIND_NAMES[b]} is run by player_{s.owner[b]}, who is out")
    for x, o in enumerate(s.lux_owner):
        if not (o in (NO_OWNER, REMOVED) or 0 <= o < n or (o == ON_AUCTION and (s.lot == x or any(x == y for y, _ in s.lots)))):
            out.append(f"luxury {C.LUXURIES[x].name} has owner {o}")
    if s.phase != Phase.OVER and max(s.lux_owner.count(p) for p in range(n)) >= 3:
        out.append("a player holds three luxuries but the game goes on")
    if s.phase == Phase.OVER and not (0 <= s.winner < n and s.alive[s.winner]):
        out.append(f"the game is over with winner {s.winner}")
    if s.phase != Phase.OVER and sum(s.alive) < 2:
        out.append("fewer than two players are in, but the game goes on")
    t = game.clone(s)
    t.deck.recount()
    if (s.deck.n, s.deck.cards) != (t.deck.n, t.deck.cards):
        out.append("the deck's size or card list is out of step with its counts")
    return out
