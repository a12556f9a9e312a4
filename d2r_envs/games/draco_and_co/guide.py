"""Draco & Co for a newcomer, in this project's words: its name, what wins, how a turn goes, the words
the table uses, and at the end each seat's fortune and how it decided the game."""

from __future__ import annotations

from typing import Any

NAME = "Draco & Co"
OBJECTIVE = ("Get your two characters close to the dragon Draco when the loot is shared out: the richest "
             "player after the final toast wins (two equal fortunes cancel each other out).")
HOW_TO_PLAY = (
    "The characters sit in a row beside Draco; place 1 is the one nearest his side, the best place.",
    "You own the two characters of your colour; three more (Aunt Sarah, Brother John, Zork) belong to nobody.",
    "On your turn play one card from your hand: most move a character forward (towards Draco) or back.",
    "After playing you may propose a toast: Draco shares out the loot, the first places earn silver and "
    "the last places pay.",
    "Then draw a card. A toast may be proposed only while the cup is in the middle of the table.",
    "Once the draw pile has run out (and been shuffled anew), the next toast is the final one.",
    "Your hand is secret; everyone's money is public.",
)
WORDS = (
    ("silver, gold", "the money: 1 gold is worth 3 silver; fortunes are counted in silver"),
    ("toast", "the moment Draco pays the places near him and charges the last ones"),
    ("forward", "towards Draco's side, place 1; nobody passes Draco"),
    ("cup", "taken by whoever proposes a toast, so that no toast follows at once"),
)


def standings(game: Any, s: Any) -> list[str]:
    """One line per seat at the end: its fortune, and whether a tie cancelled it."""
    out = []
    for q, m in enumerate(s.money):
        tied = [p for p, other in enumerate(s.money) if other == m and p != q]
        note = (", tied with " + " and ".join(f"player_{p}" for p in tied) + ": equal fortunes cancel out") if tied else ""
        out.append(f"{m} silver{note}")
    return out
