"""Rap Godz narration: draws seen only by the drawer, every decision narrated, nothing hidden leaks."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.games.rap_godz import narrate
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import facts as F
from d2r_envs.games.rap_godz.state import Phase, Task


def test_draws_and_draft_deals_are_seen_only_by_their_owner():
    g = d2r_envs.make_game("rap_godz", 3)
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(1)
    checked = 0
    while g.current_player(s) != TERMINAL:
        if g.current_player(s) == CHANCE:
            task, seat = s.chance[0]
            a = g.sample_chance(s, rng)
            events = log.apply(s, a)
            if task in (Task.DRAW, Task.RAPPER, Task.CITY):
                name = C.KIND_NAMES[a]
                assert name in events[0].seen_by(seat)
                for q in range(3):
                    if q != seat:
                        assert name not in events[0].seen_by(q)
                checked += 1
        else:
            legal = g.legal_actions(s)
            events = log.apply(s, legal[int(rng.integers(len(legal)))])
            assert events and events[0].public.startswith("player_")  # every decision is narrated
    assert checked > 40
    assert "game over" in log.seen_by(0)[-1] and "final plaques" in log.seen_by(0)[-2]


def test_the_returned_draft_card_is_named_to_its_owner_only():
    g = d2r_envs.make_game("rap_godz", 2)
    s = g.new_initial_state()
    rng = np.random.default_rng(0)
    while g.current_player(s) == CHANCE:
        g.apply_action(s, g.sample_chance(s, rng))
    before = g.clone(s)
    keep, back = g.legal_actions(s)
    g.apply_action(s, keep)
    event = narrate.events(g, before, keep, s)[0]
    returned = C.RAPPERZ[back - 1].name
    assert returned in event.seen_by(0) and returned not in event.seen_by(1)
    assert C.RAPPERZ[keep - 1].name in event.seen_by(1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_telling_what_happens_changes_nothing_and_no_sink_reaches_the_log(n):
    """At every node of a random game, the rules applied with a sink set make the same state as without
    one, tell only facts.py's facts, and the narration leaves the state before as it was."""
    g = d2r_envs.make_game("rap_godz", n)
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(n)
    kinds = set()
    while not g.is_terminal(s):
        if g.current_player(s) == CHANCE:
            a = g.sample_chance(s, rng)
        else:
            legal = g.legal_actions(s)
            a = legal[rng.integers(len(legal))]
        before = g.clone(s)
        told, facts = g.clone(s), []
        told.tell = facts.append
        g.apply_legal(told, a)
        kept = g.clone(before)
        narrate.events(g, before, a, told)
        log.apply(s, a)
        assert told == s and s.tell is None and before == kept
        assert facts and all(type(f).__module__ == F.__name__ for f in facts)
        kinds.update(type(f).__name__ for f in facts)
    assert {"Chose", "Drawn", "Played", "Gained", "PlaquesGained", "BeefSettled", "AlbumBegan", "GameOver"} <= kinds

# The narration of seeded random games, word for word ------------------------------------------

NARRATION = Path(__file__).with_name("narration.txt")  # python tests/rap_godz/test_narrate.py rewrites it
# (players, seed, lean): two ordinary games and a lean one at each player count. The seeds are picked to
# reach the rarer events: Medallion rolls, Beef ties, the Goalz won in play, a +3 Resources that collects a
# Resources Pick Upz (so the seat's count of that type is unchanged), the discount and the reroll.
FIXTURE_GAMES = [(2, 30, False), (2, 58, False), (2, 0, True),
                 (3, 16, False), (3, 56, False), (3, 10, True),
                 (4, 6, False), (4, 58, False), (4, 5, True)]


def thin_out(s, keep: int) -> None:
    """A lean table, to reach the decks running dry: every Album deck set aside (into the discard pile)
    but for `keep` cards, every Come Upz deck but for one."""
    for decks, pile, left in ((s.decks, s.discard, keep), (s.come_decks, s.gone, 1)):
        for deck in decks:
            for k in range(C.NUM_KINDS):
                while deck.n > left and deck[k]:
                    deck.take(k)
                    pile[k] += 1


def narrate_game(fixture, n: int, seed: int, lean: bool, actions: list[int] | None = None) -> list[str]:
    """One game's actions and every event told of it, the actions given or random ones from the seed; in
    a lean game (thinned once the deal is done), the explanation of every legal choice."""
    g = d2r_envs.make_game("rap_godz", n)
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(seed)
    lines = [f"# {n} players{' lean' if lean else ''} (seed {seed})"]
    todo = iter(actions) if actions is not None else None
    thin = lean
    while not g.is_terminal(s):
        if thin and s.phase >= Phase.GET and g.current_player(s) >= 0:
            thin_out(s, keep=4)
            thin = False
        if lean and g.current_player(s) >= 0:
            lines += [f"? {a}: {narrate.explain(g, s, a)}" for a in g.legal_actions(s)]
        lines += fixture.move(g, s, log, rng, todo)
    return lines


def test_every_event_of_seeded_games_is_told_word_for_word(narration_fixture):
    """The recorded actions of ordinary and lean random games at every player count, told again: every
    event, public and private, and in the lean games the explanations, as recorded."""
    narration_fixture.retell(NARRATION, FIXTURE_GAMES, narrate_game)


if __name__ == "__main__":  # record the narration anew (after a change to its words)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' shared helpers
    from conftest import NarrationFixture

    NARRATION.write_text("\n".join(line for game in FIXTURE_GAMES for line in narrate_game(NarrationFixture, *game))
                         + "\n")
