"""Extravaganza for a newcomer, in this project's words: its name, what wins, how a turn goes, the words
the table uses, and at the end each seat's score and where its points came from."""

from __future__ import annotations

from typing import Any

NAME = "Extravaganza"
OBJECTIVE = ("Impress five judges with dances and lip syncs: the most points after the judges' final "
             "deliberation wins.")
HOW_TO_PLAY = (
    "Your queen moves on a stage of 25 spaces, each holding a rhinestone of some colour.",
    "A turn: first refill the empty spaces of the stage area you stand in (bedazzle); then, each step "
    "optional, move like a chess queen and pick up rhinestones, draw a dance card, dance, and lip sync.",
    "Drawing a card from a judge's display also gives you lips, the currency of lip syncs.",
    "Dance: play a card from your hand for 1 or more stars; each star costs a pair of the same colour "
    "(rhinestones or cards). The judge of that card's category scores it.",
    "Lip sync: pay lips to claim lyric tokens of the song in order; they score points and count at the end.",
    "Once someone claims the lyric that shows the flag, play goes on until everyone has had as many turns; "
    "then the judges deliberate: points for each category, for lyric colours, and for the modules in play.",
)
WORDS = (
    ("lips", "tokens you collect when drawing cards and spend to claim lyrics in a lip sync"),
    ("rhinestones", "coloured gems on the stage; a pair of one colour pays for one star of a dance"),
    ("judge, category", "each of the five judges scores one dance category; its deck is that category's cards"),
    ("lyric", "a token of the song; its words cost that many lips"),
    ("10s", "a module: a token for scoring 10 or more in one category in one turn"),
)


def standings(game: Any, s: Any) -> list[str]:
    """One line per seat at the end: its final score by source."""
    out = []
    for q in range(game.n):
        b = game.score_breakdown(s, q)
        rest = s.final[q] - b["tens"] - b["diversity"] - b["review"]
        out.append(f"{s.final[q]} points: {b['review']} from the judges' categories, {b['diversity']} for lyric "
                   f"colours, {b['tens']} for 10s in every category, {rest} for desire sets and judges")
    return out
