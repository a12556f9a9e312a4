"""The Draco & Co event log (narrate.py): what each seat reads of each transition, and `explain`.

Character ids in a 4-player game: green 0, 1 (seat 0), purple 2, 3 (seat 1), yellow 4, 5 (seat 2),
red 6, 7 (seat 3), Aunt Sarah 12, Brother John 13, Zork 14. Index 0 of `order` is first place.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE
from d2r_envs.core.zones import Deck
from d2r_envs.games.draco_and_co import narrate
from d2r_envs.games.draco_and_co import actions as A
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co import facts as F
from d2r_envs.games.draco_and_co.state import Phase

GAME = "draco_and_co"
SARAH, JOHN, ZORK = C.AUNT_SARAH, C.BROTHER_JOHN, C.ZORK
TOTAL = C.SILVER_COINS + 3 * C.GOLD_COINS
BASE4 = [0, 1, 2, 3, 4, 5, 6, 7, SARAH, JOHN, ZORK]
K = C.KIND
NAMES = [k.name for k in C.CATALOGUE]


def lowest(s) -> int:
    return min(k for k, c in enumerate(s.draw_pile) if c)


def start(n=4, first=0, order=None, hands=None, **options):
    """A game after set-up (first player `first`, the circle in id order unless `order`), with
    hands {seat: [card names]} taken from the draw pile; seats not named get the lowest kinds."""
    g = d2r_envs.make_game(GAME, n, **options)
    s = g.new_initial_state()
    g.apply_action(s, first)
    while s.phase == Phase.CIRCLE:
        g.apply_action(s, sorted(s.todo)[0])
    while s.phase == Phase.DEAL:
        g.apply_action(s, lowest(s))
    if order is not None:
        s.order = list(order)
    if hands is not None:
        for p in range(n):
            for k, c in enumerate(s.hands[p]):
                s.draw_pile.add(k, c)
                s.hands[p][k] = 0
        for p in range(n):
            named = hands.get(p)
            for i in range(len(named) if named else C.HAND_SIZE):
                k = K[named[i]] if named else lowest(s)  # the lowest kind left, card by card
                s.draw_pile.take(k)
                s.hands[p][k] += 1
    return g, s


def texts(log: Log, seat: int, start: int = 0) -> str:
    return "\n".join(log.seen_by(seat, start))


def named_cards(text: str) -> set[int]:
    return {k for k, name in enumerate(NAMES) if name in text}


def ready_to_toast(s, money, seat=0, order=BASE4):
    s.order = list(order)
    s.money = list(money)
    s.bank = TOTAL - sum(money)
    s.turn, s.phase, s.cup, s.cup_initial, s.draws = seat, Phase.TOAST, -1, False, []


# Scenarios ----------------------------------------------------------------------------------


def test_a_draw_is_named_to_the_drawer_only():
    g, s = start(hands={0: ["Tavern Tip"] * 1 + ["Step Forward"] * 4})
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Tavern Tip"])  # player_3 holds the set-up cup: player_0 draws at once
    assert s.draws == [0] and s.draw_pile[K["Gossip"]] > 0
    mark = len(log)
    log.apply(s, K["Gossip"])
    assert "player_0 draws Gossip" in texts(log, 0, mark)
    for other in (1, 2, 3):
        seen = texts(log, other, mark)
        assert "player_0 draws a card" in seen
        assert named_cards(seen) == set()


def test_the_deal_shows_each_hand_to_its_seat_only():
    g = d2r_envs.make_game(GAME, 4)
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(5)
    while s.phase != Phase.PLAY:
        log.apply(s, g.sample_chance(s, rng))
    seen = [texts(log, p) for p in range(4)]
    for p in range(4):
        assert f"player_{p} is dealt {C.hand_to_string(s.hands[p])}" in seen[p]
        for q in range(4):
            if q != p:
                assert f"player_{q} is dealt 5 cards" in seen[p]
        # every card named to p is in p's hand
        assert named_cards(seen[p]) <= {k for k, c in enumerate(s.hands[p]) if c}
    first = s.first_player
    assert f"player_{first} plays first; player_{(first - 1) % 4}, the last player, takes the cup" in seen[0]
    assert "the circle is laid out after Draco: 1 " in seen[0]


def test_short_game_removals_are_seen_by_nobody():
    g = d2r_envs.make_game(GAME, 3, short_game=10)
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(1)
    while s.phase != Phase.PLAY:
        before = g.clone(s)
        new = log.apply(s, g.sample_chance(s, rng))
        if before.draws and before.draws[0] < 0:  # a removal
            for event in new:
                for p in range(3):
                    assert named_cards(event.seen_by(p)) == set()
    assert sum(s.removed) == 10
    assert "10 cards are removed from the draw pile face down, unseen (short game)" in texts(log, 0)


def test_a_die_roll_is_announced_with_its_value_and_the_move_from_and_to():
    order = [0, 2, 3, 4, 5, 6, 7, SARAH, 1, JOHN, ZORK]  # green dwarf (1) in place 9
    g, s = start(order=order, hands={0: ["Sprint"] + ["Step Forward"] * 4})
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Sprint"])
    log.apply(s, A.CHARACTER + A.relative_character(1, 0, 4))
    assert g.current_player(s) == CHANCE
    mark = len(log)
    log.apply(s, 2)  # the die shows 3
    for p in range(4):
        seen = texts(log, p, mark)
        assert "player_0 rolls a 3" in seen
        assert "green dwarf (player_0) moves 3 places forward, from place 9 to place 6" in seen


def test_a_card_played_is_named_with_its_player_and_a_move_names_the_places():
    g, s = start(hands={0: ["Shove"] + ["Step Forward"] * 4})
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Shove"])
    log.apply(s, A.CHARACTER + A.relative_character(2, 0, 4))  # purple goblin, in place 3
    for p in range(4):
        seen = texts(log, p)
        assert "player_0 plays Shove: Move any character 2 places backward." in seen
        assert "player_0 moves purple goblin (player_1) 2 places backward, from place 3 to place 5" in seen


def test_a_move_stopped_by_draco_says_so():
    g, s = start(hands={0: ["Shove"] + ["Step Forward"] * 4})
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Shove"])
    log.apply(s, A.CHARACTER + ZORK)  # Zork is last already
    assert "player_0 chooses Zork, who stays in last place (nobody passes Draco)" in texts(log, 1)


def test_a_theft_names_the_thief_the_amount_and_the_victim():
    g, s = start(hands={0: ["Pickpocket"] + ["Step Forward"] * 4})
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Pickpocket"])
    assert narrate.explain(g, s, A.PLAYER + 1) == "take 1 silver from player_2 (who has 3)"
    log.apply(s, A.PLAYER + 1)  # the player 2 seats to the left
    assert s.money[0] == 4 and s.money[2] == 2
    assert "player_0 takes 1 silver from player_2 (player_0 now 4, player_2 now 2)" in texts(log, 3)


def test_a_gamble_names_the_payer_the_amount_and_the_bank():
    g, s = start(hands={0: ["Dice Game"] + ["Step Forward"] * 4})
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Dice Game"])
    log.apply(s, 0)  # the die shows 1: pay 1 silver
    seen = texts(log, 2)
    assert "player_0 rolls a 1" in seen
    assert "player_0 pays 1 silver to the bank (now 2)" in seen


def test_a_toast_names_every_payment_and_its_reason():
    g, s = start()
    ready_to_toast(s, [3, 3, 8, 3])  # player_2 is the richest and pays double for Zork, last
    assert narrate.explain(g, s, A.TOAST).startswith("Draco shares out the loot now: you +7, player_1 +3, player_2 -4")
    log = Log(g, narrate)
    log.apply(s, A.TOAST)
    seen = texts(log, 3)
    assert "player_0 proposes a toast" in seen
    assert "place 1 green goblin (player_0) +4; place 2 green dwarf (player_0) +3" in seen
    assert "last place Zork: the richest player, player_2, pays double, 4" in seen
    assert "player_0 receives 7 silver from the bank (now 10)" in seen
    assert "player_2 pays 4 silver to the bank (now 4)" in seen
    assert "player_0 takes the cup" in seen
    # Aunt Sarah (place 9) sits between red dwarf (player_3) and Brother John
    assert "red dwarf (player_3) sits next to Aunt Sarah: player_3 will draw a card" in seen


def test_brother_john_beside_an_unclaimed_aunt_sarah_passes_on_to_nobody():
    g, s = start()
    ready_to_toast(s, [3, 3, 3, 3], order=[JOHN, SARAH, 0, 1, 2, 3, 4, 5, 6, 7, ZORK])
    log = Log(g, narrate)
    log.apply(s, A.TOAST)
    assert (
        "place 1 Brother John passes his 4 on to Aunt Sarah, which goes to nobody; place 2 Aunt Sarah: 3 for nobody; "
        "place 3 green goblin (player_0) +2; place 4 green dwarf (player_0) +1; "
        "last place Zork: a tie for richest, so nobody pays; second-to-last place red dwarf (player_3) -1"
    ) in texts(log, 1).splitlines()
    g, s = start()
    ready_to_toast(s, [3, 3, 3, 3], order=[0, 1, 2, 3, 4, 5, 6, 7, ZORK, SARAH, JOHN])
    log = Log(g, narrate)
    log.apply(s, A.TOAST)
    assert (
        "last place Brother John: Aunt Sarah before him, so nobody pays; second-to-last place Aunt Sarah: nobody pays"
    ) in texts(log, 2)


def test_a_toast_payment_beyond_the_purse_says_what_was_paid():
    g, s = start()
    order = [0, 1, 2, 3, 4, 5, SARAH, JOHN, ZORK, 7, 6]  # red (player_3) last and second-to-last
    ready_to_toast(s, [3, 3, 3, 2], order=order)
    log = Log(g, narrate)
    log.apply(s, A.TOAST)
    assert "player_3 pays 2 silver to the bank (now 0), all they had of the 3 silver owed" in texts(log, 0)


def test_the_end_announces_the_winner_and_the_fortunes():
    g, s = start()
    ready_to_toast(s, [3, 3, 8, 3])
    s.exhausted = 1  # the pile ran out: this is the final toast
    log = Log(g, narrate)
    log.apply(s, A.TOAST)
    assert g.is_terminal(s) and s.winners == [0]
    for p in range(4):
        seen = texts(log, p)
        assert "the final toast" in seen
        fortunes = "player_0 10, player_1 6, player_2 4, player_3 3"
        assert f"game over: player_0 wins with 10 silver (fortunes: {fortunes})" in seen


def test_a_tie_is_explained_at_the_end():
    g, s = start()
    ready_to_toast(s, [0, 0, 0, 0], order=[4, 5, 6, 7, 0, 1, 2, 3, SARAH, JOHN, ZORK])  # yellow +7, red +3
    s.money = [4, 4, 0, 4]  # -> 4, 4, 7, 7 after the toast
    s.bank = TOTAL - sum(s.money)
    s.exhausted = 1
    log = Log(g, narrate)
    log.apply(s, A.TOAST)
    assert s.winners == []
    assert "game over: nobody wins, every fortune is tied (Draco has won)" in texts(log, 0)
    assert "tied fortunes cancel out: player_2 and player_3 (7), player_0 and player_1 (4)" in texts(log, 0)


def test_the_draw_pile_running_out_is_announced():
    g, s = start(hands={0: ["Tavern Tip"] + ["Step Forward"] * 4})
    gossip = K["Gossip"]
    for k in range(C.NUM_KINDS):  # leave one Gossip in the draw pile, the rest face up
        keep = 1 if k == gossip else 0
        s.discard[k] += s.draw_pile[k] - keep
    s.draw_pile = Deck(1 if k == gossip else 0 for k in range(C.NUM_KINDS))
    discards = sum(s.discard) + 1  # Tavern Tip joins them
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Tavern Tip"])
    mark = len(log)
    log.apply(s, gossip)
    seen = texts(log, 1, mark)
    assert "player_0 draws a card" in seen and "Gossip" not in seen
    assert (
        f"the draw pile has run out (1 of 1): the discards ({discards} cards) are shuffled into a new draw pile; "
        "the next toast ends the game"
    ) in seen


def empty_piles(s):
    s.draw_pile, s.discard = Deck([0] * C.NUM_KINDS), [0] * C.NUM_KINDS


def test_the_last_card_with_no_discards_then_a_refill_from_a_later_discard():
    g, s = start(hands={0: ["Tavern Tip"] + ["Step Forward"] * 4, 1: ["Step Forward"]})
    s.hands[1][K["Step Forward"]], s.hands[1][K["Tavern Tip"]] = 0, 1  # a second Tavern Tip (the box has one)
    empty_piles(s)
    s.draw_pile.add(K["Gossip"])
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Tavern Tip"])  # Tavern Tip is discarded, then the last card is drawn
    s.discard[K["Tavern Tip"]] = 0  # (as if the discard pile had been empty)
    log.apply(s, K["Gossip"])
    assert "the draw pile has run out (1 of 1), and there are no discards to shuffle into a new one" in texts(log, 2)
    mark = len(log)
    log.apply(s, A.PLAY + K["Tavern Tip"])  # player_1's Tavern Tip is the only discard: it is drawn again
    assert "the draw pile is empty: the discards (1 card) are shuffled into a new one" in texts(log, 2, mark)
    assert s.draw_pile.n == 1 and s.draws == [1]


def test_no_card_to_draw_and_no_card_to_play():
    g, s = start(hands={0: ["Step Forward"] * 5, 1: []})
    ready_to_toast(s, [3, 3, 3, 3])
    empty_piles(s)
    s.hands[1] = [0] * C.NUM_KINDS
    log = Log(g, narrate)
    log.apply(s, A.DECLINE)
    seen = texts(log, 3)
    assert "player_0 cannot draw: the draw pile and the discard pile are both empty" in seen
    assert "turn 2: player_1\nplayer_1 has no card to play" in seen
    assert s.turn == 1 and s.phase == Phase.TOAST


def test_the_turn_and_the_cup_are_told():
    g, s = start(hands={0: ["Step Forward"] * 5})
    log = Log(g, narrate)
    log.apply(s, A.PLAY + K["Step Forward"])
    log.apply(s, A.CHARACTER + A.relative_character(1, 0, 4))
    seen = texts(log, 2)
    assert "player_3 holds the cup, so player_0 cannot propose a toast" in seen
    log.apply(s, lowest(s))  # player_0's draw ends the turn
    assert "turn 2: player_1" in texts(log, 2)


# Random games -------------------------------------------------------------------------------

OPTIONS = [{}, {"short_game": 10}, {"short_game": 20, "long_game": True}]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTIONS, ids=["base", "short10", "short20_long"])
def test_random_games_narrate_every_transition_without_leaks(n, options):
    rng = np.random.default_rng(1000 * n + len(options))
    for _ in range(5):
        g = d2r_envs.make_game(GAME, n, **options)
        s = g.new_initial_state()
        log = Log(g, narrate)
        while not g.is_terminal(s):
            p = g.current_player(s)
            if p == CHANCE:
                a = g.sample_chance(s, rng)
            else:
                legal = g.legal_actions(s)
                for b in legal:
                    assert isinstance(narrate.explain(g, s, b), str)
                a = legal[rng.integers(len(legal))]
            before = g.clone(s)
            told, facts = g.clone(s), []
            told.tell = facts.append
            g.apply_legal(told, a)
            new = log.apply(s, a)
            assert told == s and s.tell is None  # telling changes nothing, and no sink reaches the log's state
            assert all(type(f).__module__ == F.__name__ for f in facts)
            if p >= 0:
                assert any(e.public for e in new), g.action_to_string(before, a)
            drawn = a if before.draws else -1  # a chance draw: the kind drawn
            drawer = before.draws[0] if before.draws else None
            played = {a - A.PLAY} if p >= 0 and A.PLAY <= a < A.CHARACTER else set()
            for e in new:
                for v in range(n):
                    text = e.seen_by(v)
                    assert "player_-1" not in text and "place 0" not in text, text
                    if drawn >= 0 and v != drawer:
                        assert NAMES[drawn] not in text  # another's draw is never named
                    # only cards v holds (or has just held) and cards face up in play are named
                    mine = {k for k, c in enumerate(before.hands[v]) if c} | {k for k, c in enumerate(s.hands[v]) if c}
                    allowed = mine | played | {c for c in (before.card, s.card) if c >= 0}
                    assert named_cards(text) <= allowed, (v, text)
        assert "game over: " in texts(log, 0)


# The narration of seeded random games, word for word ------------------------------------------

NARRATION = Path(__file__).with_name("narration.txt")  # python tests/draco_and_co/test_narrate.py rewrites it
FIXTURE_GAMES = [(n, i, lean) for n in (3, 4, 5, 6) for i in range(len(OPTIONS)) for lean in (False, True)]


def thin_out(s, n: int, keep: int) -> None:
    """A lean table, to reach the piles running dry and empty hands: the draw pile set aside but for
    `keep` cards, every seat down to 1 silver and one card, the seat before the first player to none."""
    kept = (K["Step Forward"], K["Shove"], K["Gossip"], K["Dice Game"])[:keep]
    for k in range(C.NUM_KINDS):
        while s.draw_pile[k] > (1 if k in kept else 0):
            s.draw_pile.take(k)
            s.removed[k] += 1
    s.money, s.bank = [1] * n, TOTAL - n
    for p, hand in enumerate(s.hands):
        left = 0 if p == (s.turn - 1) % n else 1
        for k in range(C.NUM_KINDS):
            while hand[k] > left:
                hand[k] -= 1
                s.removed[k] += 1
            left -= hand[k]


def narrate_game(fixture, n: int, options: int, lean: bool, actions: list[int] | None = None) -> list[str]:
    """One game's actions and every event told of it, the actions given or random ones from a seed;
    in half the games, the explanation of every choice but a card (its text) or declining a toast."""
    seed = 1000 * n + 10 * options + lean
    g = d2r_envs.make_game(GAME, n, **OPTIONS[options])
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(seed)
    lines = [f"# {n} players {json.dumps(OPTIONS[options], sort_keys=True)}{' lean' if lean else ''} (seed {seed})"]
    todo = iter(actions) if actions is not None else None
    thin = lean
    while not g.is_terminal(s):
        if thin and g.current_player(s) >= 0:  # once the deal is done
            thin_out(s, n, keep=options)
            thin = False
        if g.current_player(s) >= 0 and n % 2 == lean:  # each choice explained, in half the games
            lines += [f"? {b}: {narrate.explain(g, s, b)}" for b in g.legal_actions(s) if b == A.TOAST or b >= A.CHARACTER]
        lines += fixture.move(g, s, log, rng, todo)
    return lines


def test_every_event_of_seeded_games_is_told_word_for_word(narration_fixture):
    """The recorded actions of lean and ordinary random games, at every player count and option, told
    again: every event, public and private, and the explanations, as recorded."""
    narration_fixture.retell(NARRATION, FIXTURE_GAMES, narrate_game)



# Explanations -------------------------------------------------------------------------------


def test_every_play_action_explains_its_card():
    g, s = start()
    s.hands[0] = [1] * C.NUM_KINDS
    plays = [a for a in g.legal_actions(s) if A.PLAY <= a < A.CHARACTER]
    assert len(plays) == C.NUM_KINDS
    for a in plays:
        card = C.CATALOGUE[a - A.PLAY]
        assert card.text in narrate.explain(g, s, a)
        assert card.name in narrate.explain(g, s, a)


def test_explain_states_the_consequence_of_a_character_choice():
    g, s = start(hands={0: ["Shove"] + ["Step Forward"] * 4})
    g.apply_action(s, A.PLAY + K["Shove"])
    a = A.CHARACTER + A.relative_character(2, 0, 4)
    assert narrate.explain(g, s, a) == "purple goblin (player_1) moves 2 places backward, from place 3 to place 5"
    assert narrate.explain(g, s, A.CHARACTER + ZORK) == "Zork stays in last place (nobody passes Draco)"


def test_explain_a_draco_direction():
    g, s = start(hands={0: ["Draco Stretches"] + ["Step Forward"] * 4})
    g.apply_action(s, A.PLAY + K["Draco Stretches"])
    assert narrate.explain(g, s, A.DIRECTION) == (
        "green goblin (player_0) becomes last; green dwarf (player_0) will be in first place"
    )
    assert narrate.explain(g, s, A.DIRECTION + 1) == "Zork becomes first"


def test_a_hand_card_name_is_inside_its_play_action_name():
    """The terminal matches a card typed by name against the action names."""
    g, s = start()
    s.hands[0] = [2] * C.NUM_KINDS
    hand = C.hand_to_string(s.hands[0]).split(", ")
    actions = [g.action_to_string(s, a) for a in g.legal_actions(s)]
    for shown in hand:
        name = shown.rsplit(" x", 1)[0]
        assert [x for x in actions if name in x] == [f"play {name}"]


if __name__ == "__main__":  # record the narration anew (after a change to its words)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' shared helpers
    from conftest import NarrationFixture

    NARRATION.write_text("\n".join(line for game in FIXTURE_GAMES for line in narrate_game(NarrationFixture, *game))
                         + "\n")
