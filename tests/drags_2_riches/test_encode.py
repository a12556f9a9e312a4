"""The fast encoder against a plain one written piece by piece from the state (and the rules)."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.drags_2_riches import LAYOUT, Observer
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.state import Phase

GAME = "drags_2_riches"
ALL_OPTIONS = dict(last_minute_additions=True, category_is=True, thrifting=True, characters=True)


def plain_encode(g, s, me):
    """Each piece from its definition in LAYOUT, using only what `me` may see."""
    n = s.num_players
    out = np.zeros(LAYOUT.size, np.float32)
    v = LAYOUT.views(out)
    rel = [(me + i) % n for i in range(n)]  # relative index i -> seat
    cfg = g.config
    v["seats"][:n] = 1
    v["options"][:] = [cfg.intro_game, cfg.last_minute_additions, cfg.category_is, cfg.thrifting, cfg.characters]
    v["phase"][s.phase] = 1
    v["ask"][s.ask] = 1
    if s.phase != Phase.OVER:
        for name, who in (("actor", s.actor), ("turn", s.turn), ("first", s.first)):
            if who >= 0:
                v[name][(who - me) % n] = 1
    v["round"][0] = s.round
    if s.event >= 0:
        v["event"][s.event] = 1
    revealed = set(e for w in s.won for e in w) | set(s.gone) | ({s.event} if s.event >= 0 else set())
    in_game = [e for d in g.stages for e in C.DECK_REGULARS[d]] + [C.DECK_SPECIAL[d] for d in g.stages[:-1]]
    in_game.append(C.SELL_OUT)  # the last deck ends with the Sell-Out Tour (deck II in the intro game)
    for e in in_game:
        if e not in revealed:
            v["events_left"][e] = 1
    for i, q in enumerate(rel):
        v["events_won"][i] = len(s.won[q])
        v["prestige"][i] = sum(C.EVENTS[e].prestige for e in s.won[q])
        v["hand_sizes"][i] = sum(s.hands[q])
        v["wardrobe_sizes"][i] = sum(s.wardrobes[q])
        v["floors"][i] = list(s.floors[q])
        v["filled"][i] = [k >= 0 for k in s.looks[q]]
        if s.characters[q] >= 0:
            v["characters"][i, s.characters[q]] = 1
        v["used"][i] = s.used[q]
        v["bonus"][i] = s.bonus[q]
        v["glamazon"][i] = s.ho[q]
        v["zeroed"][i] = [s.zeroed[q] >> t & 1 for t in range(C.NUM_TYPES)]
        v["doubled"][i] = [s.doubled[q] >> t & 1 for t in range(C.NUM_TYPES)]
        if s.phase != Phase.THUMBS:
            v["revealed"][i] = s.last_values[q] + 1
        v["pending"][i] = len(s.pending[q])
    v["hand"][:] = list(s.hands[me])
    if s.turn >= 0:
        v["active"][:] = list(s.active[s.turn])
    v["coins"][0] = s.coins
    v["turn_flags"][:] = [s.bought, s.thrifted]
    for t, k in enumerate(s.looks[me]):
        if k >= 0:
            v["look"][t, C.SLOT_KINDS[t].index(k)] = 1
    v["look_value"][0] = g.look_value(s, me, s.phase == Phase.THUMBS and s.thumbs[me] == 2)
    v["market"][:] = list(s.market)
    v["pile"][0] = sum(s.pile)
    v["trash"][:] = list(s.trash)
    if s.card >= 0 and s.phase in (Phase.CARD, Phase.REACT):
        v["card"][s.card] = 1
    if s.target >= 0:
        v["target"][(s.target - me) % n] = 1
    if s.peek[me] >= 0:
        v["peek"][:] = list(s.peek_hand[me])
        v["peeked"][(s.peek[me] - me) % n] = 1
    if s.thumbs[me] >= 0:
        v["my_thumbs"][s.thumbs[me]] = 1
    return out


@pytest.mark.parametrize(
    ("n", "options"),
    [(4, {}), (2, dict(intro_game=True)), (3, ALL_OPTIONS), (5, dict(ALL_OPTIONS, intro_game=True))],
)
def test_encode_matches_the_plain_encoder(n, options):
    g = d2r_envs.make_game(GAME, n, **options)
    obs = Observer(g)
    rng = np.random.default_rng(n)
    checked = 0
    for _ in range(6):
        s = g.new_initial_state()
        while not g.is_terminal(s):
            if g.current_player(s) == CHANCE:
                g.apply_action(s, g.sample_chance(s, rng))
                continue
            for me in range(n):
                assert np.array_equal(obs.encode(s, me), plain_encode(g, s, me)), g.state_to_string(s)
                checked += 1
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
        for me in range(n):
            assert np.array_equal(obs.encode(s, me), plain_encode(g, s, me))
    assert checked > 1000
