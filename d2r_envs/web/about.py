"""What the pages tell a person about a game: its name, what wins and how to play (the game's `guide`),
and at the end who won, every seat's score and how it was made."""

from __future__ import annotations

from typing import Any

from d2r_envs import registry
from d2r_envs.core.game import Game


def guide(name: str) -> dict[str, Any]:
    """The game `name` told to a newcomer: its display name, objective, how to play and its words."""
    g = registry.package(name).guide
    if g is None:
        return {"title": name, "objective": "", "how_to_play": [], "words": []}
    return {"title": g.NAME, "objective": g.OBJECTIVE, "how_to_play": list(g.HOW_TO_PLAY),
            "words": [{"word": w, "means": m} for w, m in g.WORDS]}


def title(game: Game) -> str:
    g = registry.of(game).guide
    return g.NAME if g is not None else game.spec.name


def winners(game: Game, returns: list[float]) -> list[int]:
    """The seats with the best return above the game's minimum (none: nobody wins)."""
    best = max(returns)
    return [q for q, r in enumerate(returns) if r == best and r > game.spec.min_return]


def _names(seats: list[int], seat: int | None) -> str:
    names = ["you" if q == seat else f"player_{q}" for q in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result(game: Game, state: Any, returns: list[float], truncated: bool, seat: int | None = None) -> dict[str, Any]:
    """The end of a game for the page: the winners, a sentence saying so (from `seat`'s side where given),
    and every seat's score with how it was made (the game's `guide.standings`)."""
    if truncated:
        return {"winners": [], "text": "The game was cut off at its cap of moves: nobody wins.", "standings": []}
    won = winners(game, returns)
    if not won:
        text = "Nobody wins."
    elif seat is None:
        text = f"{_names(won, None)} {'wins' if len(won) == 1 else 'win, tied'}."
    elif seat in won:
        others = [q for q in won if q != seat]
        text = "You win!" if not others else f"You win, tied with {_names(others, seat)}."
    else:
        text = f"You lose: {_names(won, seat)} {'wins' if len(won) == 1 else 'win, tied'}."
    g = registry.of(game).guide
    lines = g.standings(game, state) if g is not None else [f"return {r:g}" for r in returns]
    standings = [{"seat": q, "winner": q in won, "text": line} for q, line in enumerate(lines)]
    return {"winners": won, "text": text, "standings": standings}
