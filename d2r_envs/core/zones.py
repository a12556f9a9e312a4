"""Where the cards are: a game declares its State's card containers once, and the core derives from
the declaration the census (every card in exactly one place) and the pool-and-deal of all a seat
cannot see (the heart of `redeterminise`).

A container is a State field:
- `Pile`: counts per card kind (a list, a bytearray or a `Deck`), or one such per seat;
- `Held`: card kinds, one per place, -1 for an empty place (an int, a list, or one list per seat);
and is seen by everyone (`"all"`), by its seat only (`"owner"`, per-seat fields) or by nobody
(`"nobody"`, face down). What a game keeps in a shape of its own (a business card lying in front of
its owner) it counts with `extra`.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from itertools import compress
from operator import mul
from typing import Any, Callable, Iterable, Sequence
from zlib import adler32

from mypy_extensions import mypyc_attr

SEEN_BY = ("all", "owner", "nobody")
_KIND_BYTES = [bytes([k]) for k in range(256)]  # kind k as one byte: kind k, c times, is _KIND_BYTES[k] * c


def _listed(counts: bytearray) -> bytearray:
    """The cards of `counts`, listed in kind order (the kinds held, each repeated its count times)."""
    return bytearray().join(map(mul, compress(_KIND_BYTES, counts), filter(None, counts)))


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests count draws with a subclass; __new__ skips __init__)
class Deck:
    """A shuffled pile that chance draws from: its cards as counts per kind, their number, and the
    cards listed in kind order, kept in step by its own methods. A uniform draw is one index into the
    list, so `outcomes` (the chance node's distribution), `kind_at` (a sampled outcome) and `draw` (a
    fast path's draw) are the same arithmetic: for the same `u` they name the same kind.
    """

    __slots__ = ("counts", "n", "cards")

    def __init__(self, counts: Iterable[int] = ()) -> None:
        self.counts = bytearray(counts)
        self.cards = _listed(self.counts)
        self.n = len(self.cards)

    def outcomes(self) -> list[tuple[int, float]]:
        """(kind, probability) of a uniform draw, in kind order."""
        n = self.n
        counts: Sequence[int] = self.counts  # (mypyc 2.4 cannot compile a comprehension over a bytearray)
        return [(k, c / n) for k, c in enumerate(counts) if c]

    def kind_at(self, u: float) -> int:
        """The kind a uniform draw gives for `u` in [0, 1)."""
        return self.cards[int(u * self.n)]

    def take(self, k: int) -> None:
        """Remove one card of kind `k` (a drawn chance outcome)."""
        self.counts[k] -= 1
        self.n -= 1
        del self.cards[self.cards.index(k)]

    def draw(self, u: float) -> int:
        """Draw the card `kind_at(u)` names; return its kind."""
        i = int(u * self.n)
        k = self.cards[i]
        del self.cards[i]
        self.counts[k] -= 1
        self.n -= 1
        return k

    def add(self, k: int, copies: int = 1) -> None:
        self.counts[k] += copies
        self.n += copies
        i = bisect_left(self.cards, k)
        self.cards[i:i] = bytes([k]) * copies

    def refill(self, counts: Iterable[int]) -> None:
        """Become a pile of `counts` (a reshuffle: the discards become the new deck)."""
        self.counts[:] = counts
        self.recount()

    def recount(self) -> None:
        """Bring `n` and `cards` back in step after `counts` was changed directly (a deal anew)."""
        self.cards = _listed(self.counts)
        self.n = len(self.cards)

    def __len__(self) -> int:
        return len(self.counts)

    def __getitem__(self, k: int | slice) -> Any:  # (a slice: the counts as a bytearray)
        return self.counts[k]

    def __iter__(self):
        return iter(self.counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self.counts == other.counts

    def __copy__(self) -> "Deck":
        new = Deck.__new__(Deck)  # (not object.__new__: a compiled class has its own)
        new.counts = self.counts[:]
        new.n = self.n
        new.cards = self.cards[:]
        return new

    def __repr__(self) -> str:
        return f"Deck({list(self.counts)})"


def _counts(pile: Any) -> Any:
    return pile.counts if isinstance(pile, Deck) else pile


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
    decks = [p for p in piles if isinstance(p, Deck)]
    piles = [_counts(p) for p in piles]
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
    for deck in decks:
        deck.recount()


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
                    for k, c in enumerate(_counts(part)):
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


def card_count(counts: bytes | bytearray) -> int:
    """The cards in a pile of counts per kind (a bytearray): its byte sum, taken in C (the low half of
    Adler-32 is 1 plus the byte sum, exact below 65521 cards), a few times faster than sum() on a hand,
    so a game need keep no hand sizes of its own."""
    return (adler32(counts) & 0xFFFF) - 1


def card_counts(piles: Iterable[Any]) -> list[int]:
    """`card_count` of each pile, in one call."""
    return [(adler32(counts) & 0xFFFF) - 1 for counts in piles]
