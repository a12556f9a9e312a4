"""Filthy Rich for a newcomer, in this project's words: its name, what wins, how a turn goes, the words
the table uses, and at the end each seat's money and luxuries."""

from __future__ import annotations

from typing import Any

from d2r_envs.games.filthy_rich import cards as C

NAME = "Filthy Rich"
OBJECTIVE = ("Win by being the first to own three luxuries (or the last player still in the game): money from "
             "your businesses buys them.")
HOW_TO_PLAY = (
    "The board is a book of four pages of nine numbered slots; business signs in the slots of the page "
    "that is open, or showing through from pages below, can be hit by the dice.",
    "A turn: you may buy one luxury; then take two actions, each playing a card from your hand (open a "
    "business, buy an asset, an action) or discarding one for $1.",
    "Then roll one ten-sided die per page number: each die hits the business whose sign shows in that "
    "slot, and its owner is usually paid.",
    "Every 0 rolled is tax time: everyone pays $1 per tax symbol on their businesses, luxuries and assets.",
    "A six-sided die then turns the book to another page (or keeps it open), and you draw back to 5 cards.",
    "A player who cannot pay is out of the game.",
)
WORDS = (
    ("sign", "a business's board piece; a sign on a higher page covers the ones beneath it"),
    ("tax symbol", "a mark on a card: each costs $1 whenever a 0 is rolled"),
    ("luxury", "one of twelve prizes; the third you buy wins the game"),
    ("asset", "a card that stays in front of you with a lasting effect"),
)


def standings(game: Any, s: Any) -> list[str]:
    """One line per seat at the end: out, or its money and luxuries."""
    out = []
    for p in range(game.n):
        if not s.alive[p]:
            out.append("out of the game: could not pay")
            continue
        lux = [C.LUXURIES[x].name for x, o in enumerate(s.lux_owner) if o == p]
        out.append(f"${s.money[p]} and {len(lux)} luxur{'y' if len(lux) == 1 else 'ies'}" + (f" ({', '.join(lux)})" if lux else ""))
    return out
