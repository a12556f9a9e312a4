"""Where the cards are: a game declares its State's card containers once, and the core derives from
the declaration the census (every card in exactly one place) and the pool-and-deal of all a seat
cannot see (the heart of `redeterminise`).

A container is a State field:
- `Pile`: counts per card kind (a list or bytearray), or one such per seat;
- `Held`: card kinds, one per place, -1 for an empty place (an int, a list, or one list per seat);
and is seen by everyone (`"all"`), by its seat only (`"owner"`, per-seat fields) or by nobody
(`"nobody"`, face down). What a game keeps in a shape of its own (a business card lying in front of
its owner) it counts with `extra`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

SEEN_BY = ("all", "owner", "nobody")


@dataclass(frozen=True)
class Pile:
    """A State field of counts per card kind, or (per_seat) a list of them, one per seat."""

    field: str
    per_seat: bool = False
    seen_by: str = "all"


@dataclass(frozen=True)
class Held:
    """A State field of card kinds one per place, -1 empty: an int, a list, or (per_seat) a list of lists."""

    field: str
    per_seat: bool = False
    seen_by: str = "all"


def deal_anew(piles: Sequence[Any], rng: Any, pool: list[int] | None = None) -> None:
    """Deal the cards of `piles` (counts per kind, changed in place) back among them at random, each
    keeping its size. `pool`: the cards to deal, as kinds (default: the piles' own cards). The cards
    are listed in kind order before one `rng.permutation`, so the result depends only on what the piles
    hold together and on the rng, not on where each card lay."""
    sizes = [sum(p) for p in piles]
    if pool is None:
        width = len(piles[0]) if piles else 0
        counts = [0] * width
        for p in piles:
            for k, c in enumerate(p):
                counts[k] += c
        pool = [k for k, c in enumerate(counts) for _ in range(c)]
    order = rng.permutation(len(pool))
    i = 0
    for p, size in zip(piles, sizes):
        for k in range(len(p)):
            p[k] = 0
        for j in order[i : i + size]:
            p[pool[j]] += 1
        i += size


class Zones:
    """The card containers of a game's State, with the box's contents (`names`, `copies` per kind)."""

    def __init__(
        self,
        names: Sequence[str],
        copies: Sequence[int],
        *zones: Pile | Held,
        extra: Callable[[Any], Sequence[int]] | None = None,
    ) -> None:
        for z in zones:
            if z.seen_by not in SEEN_BY:
                raise ValueError(f"zone {z.field}: seen_by {z.seen_by!r} is not one of {', '.join(SEEN_BY)}")
            if z.seen_by == "owner" and not z.per_seat:
                raise ValueError(f"zone {z.field}: seen_by 'owner' needs a per-seat field")
        self.names, self.copies, self.zones, self.extra = list(names), list(copies), zones, extra

    def census(self, state: Any) -> list[str]:
        """The kinds whose copies in the containers differ from the box's, one line each."""
        where = [0] * len(self.copies)
        for z in self.zones:
            value = getattr(state, z.field)
            for part in value if z.per_seat else [value]:
                if isinstance(z, Pile):
                    for k, c in enumerate(part):
                        where[k] += c
                else:
                    for k in [part] if isinstance(part, int) else part:
                        if k >= 0:
                            where[k] += 1
        if self.extra is not None:
            for k, c in enumerate(self.extra(state)):
                where[k] += c
        return [f"{name}: {w} copies in play, the box has {c}"
                for name, w, c in zip(self.names, where, self.copies) if w != c]

    def hidden_piles(self, state: Any, seat: int) -> list[Any]:
        """The Piles `seat` cannot see, in the order declared (per-seat ones seat by seat)."""
        out = []
        for z in self.zones:
            if not isinstance(z, Pile) or z.seen_by == "all":
                continue
            value = getattr(state, z.field)
            if not z.per_seat:
                out.append(value)
            else:
                out += [pile for q, pile in enumerate(value) if z.seen_by == "nobody" or q != seat]
        return out

    def deal_hidden(self, state: Any, seat: int, rng: Any) -> None:
        """In place: all the cards of the Piles `seat` cannot see dealt anew among them, each pile
        keeping its size (what `seat` knows: the pool as a whole, and each pile's size)."""
        deal_anew(self.hidden_piles(state, seat), rng)
