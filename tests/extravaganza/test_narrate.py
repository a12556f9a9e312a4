"""The Extravaganza event log: cards taken into a hand are named to the taker only, every decision is
narrated, no seat reads another's hidden cards, the narration of seeded games is as recorded word for
word, and telling what happens changes nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import narrate
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza import facts as F
from d2r_envs.games.extravaganza.state import Op


def test_a_drawn_card_is_named_to_the_drawer_only(ex):
    g, s = ex.start(2)
    ex.at(g, s, 0, Op.DRAW)
    k = s.display[0]
    log = Log(g, narrate)
    log.apply(s, A.DRAW + 0)
    mine, theirs = "\n".join(log.seen_by(0)), "\n".join(log.seen_by(1))
    assert C.CARD_NAMES[k] in mine and C.CARD_NAMES[k] not in theirs
    assert "player_0: takes a card from the display" in theirs


def test_reveal_cards_are_dealt_secretly():
    g = d2r_envs.make_game("extravaganza", 2, level="legendary")
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(0)
    while s.first < 0:
        log.apply(s, g.sample_chance(s, rng))
    for p in range(2):
        text = "\n".join(log.seen_by(1 - p))
        for r in range(24):
            if s.reveal_hands[p][r]:
                assert f"player_{p} is dealt {C.reveal_name(r)}" not in text


def test_every_decision_is_narrated_and_hands_never_leak():
    g = d2r_envs.make_game("extravaganza", 3, level="legendary")
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(2)
    decisions = 0
    while not g.is_terminal(s):
        if g.current_player(s) == CHANCE:
            log.apply(s, g.sample_chance(s, rng))
            continue
        p = g.current_player(s)
        legal = g.legal_actions(s)
        a = legal[int(rng.integers(len(legal)))]
        new = log.apply(s, a)
        decisions += 1
        assert new and new[0].seen_by(p).startswith(f"player_{p}:")
        for q in range(3):
            if q != p:
                text = new[0].seen_by(q)
                assert text.startswith(f"player_{p}:")
                if A.DRAW <= a < A.DANCE:
                    assert "takes a card from the display" in text
    assert decisions > 100
    assert "game over" in log.seen_by(0)[-1]



# The narration of seeded random games, word for word ------------------------------------------

NARRATION = Path(__file__).with_name("narration.txt")  # python tests/extravaganza/test_narrate.py rewrites it
OPTIONS = [
    {},
    {"level": "fierce"},
    {"level": "sickening", "queens": "draft"},
    {"level": "legendary"},
    {"level": "legendary", "flags": "early", "stage": "bands", "queens": "draft"},
    {"level": "custom", "tens_and_reveals": True, "categories": "Lyricism,Shawam,Shade,Tuck,Twirls"},
]
FIXTURE_GAMES = [(n, i, (n + i) % 2 == 1) for n in (2, 3, 4) for i in range(len(OPTIONS))]


def thin_out(s, n: int) -> None:
    """A lean table, to reach the rare ends of the supplies: the bag down to two rhinestones (the rest
    spent), the lip supply down to three (the rest shared out), every category track at 30 or more."""
    for c in range(C.NUM_COLOURS):
        while s.bag.n > 2 and s.bag.counts[c]:
            s.bag.take(c)
            s.spent[c] += 1
    q = 0
    while s.lip_supply > 3:
        s.lip_supply -= 1
        s.lips[q % n] += 1
        q += 1
    for q in range(n):
        s.scores[q] = [max(x, 30 + j + q) for j, x in enumerate(s.scores[q])]


def narrate_game(fixture, n: int, options: int, lean: bool, actions: list[int] | None = None) -> list[str]:
    """One game's actions and every event told of it, the actions given or random ones from a seed; in
    the lean 2-player games, the explanation of every choice that has one."""
    seed = 1000 * n + 10 * options + lean
    g = d2r_envs.make_game("extravaganza", n, **OPTIONS[options])
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(seed)
    lines = [f"# {n} players {json.dumps(OPTIONS[options], sort_keys=True)}{' lean' if lean else ''} (seed {seed})"]
    todo = iter(actions) if actions is not None else None
    thin = lean
    while not g.is_terminal(s):
        if thin and s.turn >= 0:  # once the set-up is done
            thin_out(s, n)
            thin = False
        if lean and n == 2 and g.current_player(s) >= 0:
            lines += [f"? {b}: {text}" for b in g.legal_actions(s) if (text := narrate.explain(g, s, b))]
        lines += fixture.move(g, s, log, rng, todo)
    return lines


def test_every_event_of_seeded_games_is_told_word_for_word(narration_fixture):
    """The recorded actions of lean and ordinary random games, at every player count and option set,
    told again: every event, public and private, and the explanations, as recorded."""
    narration_fixture.retell(NARRATION, FIXTURE_GAMES, narrate_game)


def test_telling_what_happens_changes_nothing_and_no_sink_reaches_the_log():
    """At every node of random games, at every option set: the rules applied to a copy with a sink
    leave it as the log leaves the played state, which never carries a sink; every fact is facts.py's."""
    for i, options in enumerate(OPTIONS):
        g = d2r_envs.make_game("extravaganza", 3, **options)
        s = g.new_initial_state()
        log = Log(g, narrate)
        rng = np.random.default_rng(i)
        while not g.is_terminal(s):
            if g.current_player(s) == CHANCE:
                a = g.sample_chance(s, rng)
            else:
                legal = g.legal_actions(s)
                a = legal[int(rng.integers(len(legal)))]
            told, facts = g.clone(s), []
            told.tell = facts.append
            g.apply_legal(told, a)
            log.apply(s, a)
            assert told == s and s.tell is None
            assert isinstance(facts[0], F.Acted)
            assert all(type(f).__module__ == F.__name__ for f in facts)


if __name__ == "__main__":  # record the narration anew (after a change to its words)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' shared helpers
    from conftest import NarrationFixture

    NARRATION.write_text("\n".join(line for game in FIXTURE_GAMES for line in narrate_game(NarrationFixture, *game))
                         + "\n")
