"""Rap Godz for a newcomer, in this project's words: its name, what wins, how a turn goes, the words
the table uses, and at the end each seat's plaque points and where they came from."""

from __future__ import annotations

from typing import Any

NAME = "Rap Godz"
OBJECTIVE = ("Build the greatest rap career over three Albums: the most plaque points after 15 turns each "
             "wins.")
HOW_TO_PLAY = (
    "The game is three Albums of five Tracks; every player takes one turn per Track, 15 turns in all.",
    "A turn: get a card (draw from the current Album's deck, or trade 3 cards from your hand for a face-up "
    "Come Upz card), then play one card.",
    "A card played into your career timeline earns plaques and resources: Streetz, Skillz and Swag. A "
    "card's lock must be met (enough resources) before you can play it.",
    "A Beef card starts a dice battle with another player; the loser pays its stakes.",
    "Goalz and Citiez pay plaques to whoever does best at them; your Rapper adds a bonus and a goal of "
    "their own at the end.",
)
WORDS = (
    ("plaques", "the points: bronze 1, gold 5, platinum 25"),
    ("Streetz, Skillz, Swag", "the three resources, counted on tracks from 0 to 30 (60 with an upgrade)"),
    ("A1 Bl 2", "a card's code: its Album (A1..A3), its colour (Gy grey, Y yellow, Gn green, P purple, "
                "Bl blue) and its number"),
    ("Come Upz", "strong face-up cards bought with 3 cards from your hand"),
    ("Medallion", "marks the player who starts each Track"),
)


def standings(game: Any, s: Any) -> list[str]:
    """One line per seat at the end: its plaque points by source."""
    out = []
    for f in game.seat_facts(s):
        out.append(f"{f['plaques final']} plaque points: {f['plaques timeline cards']} from timeline cards, "
                   f"{f['plaques Goalz']} Goalz, {f['plaques Citiez']} Citiez, {f['plaques Category Bonus']} "
                   f"Rapper bonus, {f['plaques Rapper Goal']} Rapper goal, Beef {f['plaques Beef won']} won "
                   f"and {f['plaques Beef lost']} lost")
    return out
