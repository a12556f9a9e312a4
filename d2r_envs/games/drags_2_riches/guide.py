"""Drags 2 Riches for a newcomer, in this project's words: its name, what wins, how a turn goes, the
words the table uses, and at the end each seat's score and how it was made."""

from __future__ import annotations

from typing import Any

NAME = "Drags 2 Riches"
OBJECTIVE = ("Dress the best drag Looks and win the Events: the player with the most prestige when the last "
             "Event, the Sell-Out Tour, is over wins.")
HOW_TO_PLAY = (
    "Each round a new Event is turned over; the best Look at the end of the round wins its prestige.",
    "Everyone starts with the same eight cards: five plain Starter clothes and three coins.",
    "On your turn, play cards from your hand: Activate a card for its coins and its action, or Wear it "
    "face down in your Look, one card per clothing type (Outfit, Hair, Heels, Makeup, Accessories).",
    "Then spend your coins on new cards from the Market; they go to your Floordrobe (your discard pile).",
    "End the turn: your hand and played cards go to the Floordrobe and you draw a new hand of 5.",
    "At the end of the round everyone with a Look chooses, all at once, to reveal it or keep it for later.",
    "The revealed Look worth the most wins the Event's prestige; every revealed Look is discarded.",
    "Better clothes cost more and are worth more in a Look, so buy well and reveal at the right time.",
)
WORDS = (
    ("Look", "the clothes you wear face down, one per type; its value is the sum of their values"),
    ("Wardrobe", "your own face-down draw pile"),
    ("Floordrobe", "your own discard pile, shuffled back into the Wardrobe when it runs out"),
    ("prestige", "the points: each Event won is worth the prestige printed on it"),
    ("Shade", "a card that hurts another player; Block Shade cancels it"),
)


def standings(game: Any, s: Any) -> list[str]:
    """One line per seat at the end: its prestige and the Events that made it."""
    return [f"{game.prestige(s, q)} prestige from {len(s.won[q])} Event{'' if len(s.won[q]) == 1 else 's'} won"
            for q in range(game.n)]
