"""The Filthy Rich event log (narrate.py): scenarios for draws, dice, payments, signs, auctions and the end;
a fuzz test over random games at every player count and option, narrated through core.events.Log, that
checks that telling what happens changes nothing, that every decision is announced and that no seat reads
a card it may not see; seeded games told word for word; and `explain` for every card and sign action."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE
from d2r_envs.games.filthy_rich import Observer, narrate
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich import facts as F
from d2r_envs.games.filthy_rich.state import Phase

GAME = "filthy_rich"
B = C.NUM_BUSINESSES
# Every card name, longest first, so that a name inside a longer one is never matched on its own.
CARD_NAMES = re.compile("|".join(re.escape(x) for x in sorted(C.KIND_NAMES, key=len, reverse=True)))
KIND_OF = {name: k for k, name in enumerate(C.KIND_NAMES)}


def texts(events, seat):
    return [e.seen_by(seat) for e in events if e.seen_by(seat)]


def joined(events, seat):
    return "\n".join(texts(events, seat))


def start(table, n, hands=None):
    """table.start(n) with every hand emptied into the deck, then `hands` ({seat: [names]}) dealt."""
    game, s = table.start(n)
    for p in range(n):
        table.hand(s, p, [])
    for p, names in (hands or {}).items():
        table.hand(s, p, names)
    return game, s


def to_actions(game, s, table):
    """Past the luxury decision of the player to move (player 0 in `table.start`)."""
    assert s.phase == Phase.LUXURY
    table.act(game, s, "done")


# Scenarios -------------------------------------------------------------------------------------


def test_a_dealt_hand_is_named_once_to_its_owner_and_the_deal_is_announced_once():
    game = d2r_envs.make_game(GAME, 3)
    s = game.new_initial_state()
    log = Log(game, narrate)
    first = log.apply(s, 1)
    assert [texts(first, q) for q in range(3)] == [["player_1 goes first; each player is dealt 5 cards"]] * 3
    rng = np.random.default_rng(5)
    told = {q: [] for q in range(3)}
    deal = 0
    while s.phase == Phase.DEAL:
        drawer = s.draws[0]
        deal += 1
        events = log.apply(s, game.sample_chance(s, rng))
        for q in range(3):
            if q != drawer:  # nothing at all: the deal was announced
                assert not [e for e in events if e.seen_by(q) and not e.public], texts(events, q)
        told[drawer] += [e.seen_by(drawer) for e in events if e.seen_by(drawer) and not e.public]
    assert deal == 15
    for q in range(3):
        assert told[q] == [f"player_{q} is dealt {C.counts_to_string(s.hands[q])}"]  # once, the whole hand
        others = "\n".join(t for r in range(3) if r != q for t in log.seen_by(r))
        assert f"player_{q} is dealt " not in others and "is dealt a card" not in others
        assert all(C.KIND_NAMES[k] not in others for k, c in enumerate(s.hands[q]) if c and not any(
            s.hands[r][k] for r in range(3) if r != q))
    assert sum(1 for line in log.seen_by(0) if "dealt" in line) == 2  # the announcement and the own hand


def test_an_end_of_turn_draw_is_announced_with_its_count_and_each_card_told_to_the_drawer(table):
    # Player 0 has four cards, discards two, rolls a die showing an empty slot, and stays on the page.
    game, s = start(table, 3, {0: ["Windfall", "Lawsuit", "Networking", "Page Turner"]})
    to_actions(game, s, table)
    table.act(game, s, "discard", KIND_OF["Windfall"])
    table.act(game, s, "discard", KIND_OF["Lawsuit"])
    game.apply_action(s, 7)  # the die
    log = Log(game, narrate)
    turn = log.apply(s, 6)  # the page die: the turn ends and three cards are due
    for q in range(3):
        assert texts(turn, q) == ["the page die shows 6: the book stays on page 1",
                                  "player_0 draws back up to 5: 3 cards"]
    draw = log.apply(s, KIND_OF["Yakuza Loan"])
    assert texts(draw, 0) == ["player_0 draws Yakuza Loan"]
    assert texts(draw, 1) == texts(draw, 2) == []
    draw = log.apply(s, KIND_OF["Yakuza Loan"])
    draw += log.apply(s, KIND_OF["Windfall"])  # the last: player_1's turn starts
    assert texts(draw, 0)[:2] == ["player_0 draws Yakuza Loan", "player_0 draws Windfall"]
    assert texts(draw, 1) == texts(draw, 2) == texts(draw, 0)[2:]
    assert texts(draw, 1)[0].startswith("player_1's turn")
    for q in (1, 2):
        assert "Yakuza Loan" not in joined(draw, q) and "Windfall" not in joined(draw, q)


def test_networking_announces_its_draws_with_their_count(table):
    game, s = start(table, 3, {0: ["Networking"], 1: ["Lawsuit"]})
    to_actions(game, s, table)
    log = Log(game, narrate)
    played = log.apply(s, A.ACTIONS.encode("play", KIND_OF["Networking"] - B))
    for q in range(3):
        assert texts(played, q) == ["player_0 plays Networking: they draw 3 cards"]
    for k in ("Windfall", "Lawsuit", "Windfall"):
        draw = log.apply(s, KIND_OF[k])
        assert texts(draw, 0) == [f"player_0 draws {k}"]
        assert texts(draw, 1) == texts(draw, 2) == []
    assert s.phase == Phase.ACTIONS and not s.draws


def test_a_run_of_draws_cut_short_says_what_was_drawn(table):
    game, s = start(table, 3, {0: ["Networking"]})
    # Every card left in the deck but one Windfall goes to player_2's hand: with Networking in the
    # discard pile once played, two cards are left to draw.
    for k in range(C.NUM_KINDS):
        keep = 1 if k == KIND_OF["Windfall"] else 0
        s.hands[2][k] += s.deck[k] - keep
        s.deck.counts[k] = keep
    s.deck.recount()
    to_actions(game, s, table)
    log = Log(game, narrate)
    played = log.apply(s, A.ACTIONS.encode("play", KIND_OF["Networking"] - B))
    assert texts(played, 1) == ["player_0 plays Networking: they draw 3 cards (only 2 cards left in the deck and "
                                "the discard pile: player_0 gets 2)"]
    first = log.apply(s, KIND_OF["Windfall"])
    assert texts(first, 0) == ["player_0 draws Windfall",
                               "the deck is empty: the discard pile (1 card) is shuffled into a new deck"]
    assert texts(first, 1) == ["the deck is empty: the discard pile (1 card) is shuffled into a new deck"]
    last = log.apply(s, KIND_OF["Networking"])
    cut = "the deck and the discard pile are empty: no more cards to draw; player_0 gets 1 card fewer than due"
    assert texts(last, 0) == ["player_0 draws Networking", cut]
    assert texts(last, 2) == [cut]
    assert s.draws == [] and s.hands[0][KIND_OF["Windfall"]] == s.hands[0][KIND_OF["Networking"]] == 1


def test_a_deal_cut_short_tells_each_hand_and_what_is_missing():
    game = d2r_envs.make_game(GAME, 3)
    s = game.new_initial_state()
    # Only 7 cards in the deck (the rest out of play, on player_0's table): the deal of 15 stops short.
    left = 7
    for k in range(C.NUM_KINDS):
        keep = min(s.deck[k], left)
        left -= keep
        s.assets[0][k] += s.deck[k] - keep
        s.deck.counts[k] = keep
    s.deck.recount()
    log = Log(game, narrate)
    first = log.apply(s, 0)
    assert texts(first, 1) == ["player_0 goes first; each player is dealt 5 cards (only 7 cards left in the deck "
                               "and the discard pile: player_0 gets 3, player_1 gets 2, player_2 gets 2)"]
    mark = len(log)
    while s.draws:
        log.apply(s, game.chance_outcomes(s)[0][0])
    cut = ("the deck and the discard pile are empty: no more cards to draw; player_1 gets 3 cards fewer than due; "
           "player_2 gets 3 cards fewer than due; player_0 gets 2 cards fewer than due")
    for q in range(3):
        hand = f"player_{q} is dealt {C.counts_to_string(s.hands[q])}"
        assert sum(s.hands[q]) == (3, 2, 2)[q]
        mine = log.seen_by(q, mark)
        assert cut in mine and mine.count(hand) == 1
        assert all(hand not in log.seen_by(r, mark) for r in range(3) if r != q)


def test_a_business_die_is_announced_with_its_value_and_the_business_it_hits(table):
    game, s = start(table, 3)
    table.sign(s, 1, "Hot Dog Stand", 1, [5])
    to_actions(game, s, table)  # no cards, no business: player 0 rolls at once
    assert s.phase == Phase.DICE
    log = Log(game, narrate)
    events = log.apply(s, 5)
    for seat in range(3):
        lines = texts(events, seat)
        assert lines[0] == "business die 1 of 1 shows 5: it hits Hot Dog Stand (player_1)"


def test_an_empty_slot_and_a_zero_are_announced(table):
    game, s = start(table, 3)
    to_actions(game, s, table)
    s.page = 1  # two dice
    log = Log(game, narrate)
    assert texts(log.apply(s, 4), 0) == ["business die 1 of 2 shows 4: slot 4 is empty"]
    assert texts(log.apply(s, 0), 2)[0] == "business die 2 of 2 shows 0: taxes!"


def test_a_payment_names_payer_amount_receiver_and_why(table):
    game, s = start(table, 3)
    table.sign(s, 1, "Hot Dog Stand", 1, [5])
    table.sign(s, 2, "Nail Salon", 1, [3])
    table.asset(s, 2, "Billboard")
    to_actions(game, s, table)
    s.page = 1  # two dice
    log = Log(game, narrate)
    log.apply(s, 5)
    events = log.apply(s, 3)
    want = ["player_0 pays player_1 $3 (Hot Dog Stand hit by die 1)",
            "player_2 collects $5 from the bank (Nail Salon hit by die 2)",
            "player_2 collects $1 from the bank (Billboard, Nail Salon hit by die 2)"]
    for seat in range(3):
        assert texts(events, seat)[1:] == want
    # A card's payment, and a knock-out for one who cannot pay it.
    game, s = start(table, 3, {0: ["Lawsuit", "IRS Audit"]})
    table.money(s, 2, 3)
    to_actions(game, s, table)
    log = Log(game, narrate)
    log.apply(s, A.ACTIONS.encode("play", KIND_OF["Lawsuit"] - B))
    events = log.apply(s, A.ACTIONS.encode("player", 1))  # player_2
    lines = texts(events, 1)
    assert lines[:2] == ["player_0 aims Lawsuit at player_2",
                         "player_2 owes player_0 $4 (Lawsuit) but has only $3: "
                         "player_2 pays player_0 $3 and is knocked out"]
    assert lines[2].startswith("player_2 is out")


def test_taxes_and_protection_racket_dues_are_narrated(table):
    game, s = start(table, 3)
    table.sign(s, 1, "Riverboat Casino", 1, [4, 7])
    table.asset(s, 2, "Protection Racket")
    to_actions(game, s, table)
    log = Log(game, narrate)
    events = log.apply(s, 0)  # the die: a 0, player_1 runs a business and may sell
    assert "taxes are due (1 zero): players running a business may first sell" in joined(events, 0)
    events = log.apply(s, A.DONE)
    lines = texts(events, 0)
    assert lines == ["player_1 sells no more businesses",
                     "player_0 pays player_2 $1 (Protection Racket dues)",
                     "player_1 pays player_2 $1 (Protection Racket dues)",
                     "player_1 pays the bank $2 (taxes: 2 tax symbols)",
                     "player_2 pays the bank $1 (taxes: 1 tax symbol)"]


def test_a_sign_placement_names_the_sign_the_page_the_slots_and_the_fees(table):
    game, s = start(table, 3, {0: ["Tornado Cleaners", "Lemonade Empire"]})
    table.sign(s, 1, "Shoe Shine Kiosk", 1, [2])
    table.money(s, 0, 30)
    to_actions(game, s, table)
    log = Log(game, narrate)
    b = KIND_OF["Tornado Cleaners"]
    events = log.apply(s, A.ACTIONS.encode("open", b, 0))
    assert texts(events, 2) == ["player_0 opens Tornado Cleaners: a vertical 2 sign on page 1, slots 1+4",
                                "player_0 pays the bank $12 (launch cost of Tornado Cleaners)"]
    s.page = 1
    b = KIND_OF["Lemonade Empire"]
    events = log.apply(s, A.ACTIONS.encode("open", b, 1))  # slot 2 of page 2, over player_1's kiosk
    assert texts(events, 1) == ["player_0 opens Lemonade Empire: a single sign on page 2, slot 2",
                                "player_0 pays the bank $3 (launch cost of Lemonade Empire)",
                                "player_0 pays player_1 $2 (covering fee: slot 2 over Shoe Shine Kiosk)"]


def test_an_auction_announces_its_bids_winner_and_price(table):
    game, s = start(table, 3, {0: ["Lawsuit"]})
    table.luxury(s, 1, "Sports Car")
    table.money(s, 1, 2)
    table.money(s, 2, 20)
    table.money(s, 0, 30)
    to_actions(game, s, table)
    log = Log(game, narrate)
    log.apply(s, A.ACTIONS.encode("play", KIND_OF["Lawsuit"] - B))
    events = log.apply(s, A.ACTIONS.encode("player", 0))  # player_1 is knocked out
    lines = texts(events, 0)
    assert "player_1's luxuries will be auctioned, cheapest first: Sports Car" in lines
    assert lines[-1] == ("auction of player_1's Sports Car (price $10, tax 1): bidding starts with player_2, "
                         "at $10 or more")
    assert s.phase == Phase.AUCTION and s.actor == 2
    events = log.apply(s, A.ACTIONS.encode("bid", 2))  # $10 + $2
    assert texts(events, 0) == ["player_2 bids $12 for Sports Car"]
    events = log.apply(s, A.DONE)
    assert texts(events, 1)[:3] == ["player_0 passes on Sports Car",
                                    "player_2 wins the auction of Sports Car for $12",
                                    "player_2 pays the bank $12 (auction of Sports Car)"]


def test_the_end_announces_the_winner_and_the_standings(table):
    game, s = table.start(3)
    table.luxury(s, 0, "Personal Trainer")
    table.luxury(s, 0, "Designer Wardrobe")
    table.luxury(s, 2, "Yacht")
    log = Log(game, narrate)
    events = log.apply(s, A.ACTIONS.encode("luxury", table.LUX["Sports Car"]))
    assert game.is_terminal(s)
    for seat in range(3):
        lines = texts(events, seat)
        assert lines[:3] == ["player_0 buys Sports Car", "player_0 pays the bank $10 (price of Sports Car)",
                             "Sports Car is player_0's third luxury"]
        three = "Personal Trainer, Designer Wardrobe, Sports Car"
        assert lines[3] == f"game over: player_0 wins with three luxuries ({three})"
        assert lines[4] == (f"final standings: player_0 $0, 3 luxuries ({three}); "
                            "player_1 $10, 0 luxuries; player_2 $10, 1 luxury (Yacht)")


def test_a_reshuffle_is_announced(table):
    game, s = table.start(2)
    table.hand(s, 0, ["Networking"])
    # Every card left in the deck goes to the discard pile.
    for k in range(C.NUM_KINDS):
        s.discard[k] += s.deck[k]
        s.deck.counts[k] = 0
    s.deck.recount()
    table.hand(s, 0, ["Networking"])
    to_actions(game, s, table)
    log = Log(game, narrate)
    events = log.apply(s, A.ACTIONS.encode("play", KIND_OF["Networking"] - B))
    lines = texts(events, 1)
    assert lines[0].startswith("player_0 plays Networking")
    assert lines[1].startswith("the deck is empty: the discard pile (") and "shuffled into a new deck" in lines[1]


# Fuzz --------------------------------------------------------------------------------------------


def seen_publicly(game, before, action, after):
    """Card kinds any seat may know of around a transition: the discard pile, the table, the open
    businesses, and the card a decision names (played, opened, discarded, taken or burned face up)."""
    kinds = set()
    for s in (before, after):
        kinds |= {k for k, c in enumerate(s.discard) if c}
        kinds |= {k for a in s.assets for k, c in enumerate(a) if c}
        kinds |= {b for b, o in enumerate(s.owner) if o >= 0}
    if game.current_player(before) >= 0:
        kinds |= {KIND_OF[m] for m in CARD_NAMES.findall(game.action_to_string(before, action))}
    return kinds


def play_narrated(game, rng, check):
    """A random game through Log, calling check(before, action, after, events) at every transition."""
    s = game.new_initial_state()
    log = Log(game, narrate)
    while not game.is_terminal(s):
        p = game.current_player(s)
        a = game.sample_chance(s, rng) if p == CHANCE else int(rng.choice(game.legal_actions(s)))
        before = game.clone(s)
        events = log.apply(s, a)
        check(before, a, s, events)
    return log


@pytest.mark.parametrize(("n", "options"), [(2, {}), (3, {}), (4, {}), (5, {}), (2, dict(one_tax_per_turn=True)),
                                            (4, dict(one_tax_per_turn=True)), (5, dict(one_tax_per_turn=True))],
                         ids=["2", "3", "4", "5", "2-one-tax", "4-one-tax", "5-one-tax"])
def test_random_games_narrate_every_step_and_leak_nothing(n, options):
    game = d2r_envs.make_game(GAME, n, **options)
    rng = np.random.default_rng(1000 + n + 10 * len(options))
    counts = dict(decisions=0, draws=0, events=0)

    def check(before, a, after, events):
        kept = game.clone(before)
        told, facts = game.clone(before), []
        told.tell = facts.append
        game.apply_legal(told, a)
        assert told == after and after.tell is None, "telling what happens changed it, or a sink reached the log"
        assert all(type(f).__module__ == F.__name__ for f in facts)
        assert before == kept, "narration changed the state before"
        counts["events"] += len(events)
        player = game.current_player(before)
        if player >= 0:
            counts["decisions"] += 1
            assert any(e.public for e in events), f"no public event for {game.action_to_string(before, a)}"
            assert all(e.public for e in events), "a decision's consequences are public"
        queued = len(after.draws) - max(0, len(before.draws) - 1)
        if queued > 0:  # a run of draws is announced, to all, with its count
            said = "\n".join(e.public for e in events)
            want = ([f"each player is dealt {C.HAND_SIZE} cards"] if before.phase == Phase.FIRST_PLAYER
                    else ["1 card", "draws a card"] if queued == 1 else [f"{queued} cards"])
            assert any(w in said for w in want), (want, said)
        if before.draws and len(after.draws) < len(before.draws) - 1:  # cut short: said, with what is lost
            assert "no more cards to draw" in joined(events, 0) and "fewer than due" in joined(events, 0)
        if before.draws:  # a draw: the others read the same whatever the card, and nothing private
            counts["draws"] += 1
            drawer = before.draws[0]
            other = next((k for k, c in enumerate(before.deck) if c and k != a), None)
            if other is not None:
                alt = game.clone(before)
                game.apply_action(alt, other)
                alt_events = narrate.events(game, before, other, alt)
                for q in range(n):
                    if q != drawer:
                        assert texts(alt_events, q) == texts(events, q)
            for q in range(n):
                if q != drawer:
                    assert all(e.seen_by(q) == e.public for e in events)
            mine = [e.seen_by(drawer) for e in events if e.seen_by(drawer) != e.public]
            if before.phase != Phase.DEAL:  # the card, as it comes
                assert mine == [f"player_{drawer} draws {C.KIND_NAMES[a]}"]
            elif drawer in before.draws[1:]:  # the deal: nothing until the hand is complete
                assert mine == []
            else:  # the last deal draw: the whole hand, which started empty, once
                assert mine == [f"player_{drawer} is dealt {C.counts_to_string(after.hands[drawer])}"]
        known = seen_publicly(game, before, a, after)
        for q in range(n):
            mine = {k for s in (before, after) for k, c in enumerate(s.hands[q]) if c}
            for text in texts(events, q):
                for name in CARD_NAMES.findall(text):
                    assert KIND_OF[name] in known | mine, f"player_{q} reads {name!r}, hidden from them: {text!r}"

    for _ in range(6):
        log = play_narrated(game, rng, check)
        last = [e.public for e in log.events[-2:]]
        assert last[0].startswith("game over: player_") and last[1].startswith("final standings: ")
    assert counts["decisions"] > 50 and counts["draws"] > 20


# The narration of seeded random games, word for word ----------------------------------------------

NARRATION = Path(__file__).with_name("narration.txt")  # python tests/filthy_rich/test_narrate.py rewrites it
OPTIONS = [{}, {"one_tax_per_turn": True}]
TABLES = ("", "rich", "thin")
# (players, options, table): every player count, option and table, and with them every kind of event
# (the covering fees aside, which tests above tell word for word)
FIXTURE_GAMES = [(2, 0, 0), (2, 0, 2), (2, 1, 1), (3, 0, 1), (3, 1, 0), (3, 1, 2), (4, 0, 1), (4, 1, 1), (4, 1, 2),
                 (5, 0, 0), (5, 0, 1), (5, 0, 2)]


def set_table(s, n: int, table: str) -> None:
    """A rich table (everyone starts with $30), where luxuries are bought, signs cover others' and auctions
    are won; or a thin one (all but 4 cards of the deck set aside), where the deal and the draws run short."""
    if table == "rich":
        s.money = [30] * n
    elif table == "thin":
        for k in range(C.NUM_KINDS):
            while s.deck[k] > (1 if k in (0, 20, 30, 40) else 0):
                s.deck.take(k)


def narrate_game(fixture, n: int, options: int, table: int, actions: list[int] | None = None) -> list[str]:
    """One game's actions and every event told of it, the actions given or random ones from a seed; on the
    rich tables, what opening a sign, aiming a card and keeping one's businesses at tax time would do."""
    seed = 1000 * n + 10 * options + table
    game = d2r_envs.make_game(GAME, n, **OPTIONS[options])
    s = game.new_initial_state()
    log = Log(game, narrate)
    rng = np.random.default_rng(seed)
    lines = [f"# {n} players {json.dumps(OPTIONS[options], sort_keys=True)} {TABLES[table]} (seed {seed})"]
    todo = iter(actions) if actions is not None else None
    set_table(s, n, TABLES[table])
    while not game.is_terminal(s):
        decision = game.current_player(s) >= 0
        if decision and TABLES[table] == "rich":  # what the choices that cost or pay others are explained as
            lines += [f"? {b}: {narrate.explain(game, s, b)}" for b in game.legal_actions(s) if A.OPEN <= b < A.DISCARD
                      or A.PLAYER <= b < A.PAGE or b == A.DONE and s.phase == Phase.TAX_SELL]
        lines += fixture.move(game, s, log, rng, todo)
    return lines


def test_every_event_of_seeded_games_is_told_word_for_word(narration_fixture):
    """The recorded actions of random games, at every player count and option, told again: every event,
    public and private, and the explanations, as recorded."""
    narration_fixture.retell(NARRATION, FIXTURE_GAMES, narrate_game)


# Explanations and names ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4, 5])
def test_explain_gives_every_card_and_sign_action_its_effect(n):
    game = d2r_envs.make_game(GAME, n)
    observer = Observer(game)
    rng = np.random.default_rng(7 + n)
    seen = set()
    for _ in range(6):
        s = game.new_initial_state()
        while not game.is_terminal(s):
            p = game.current_player(s)
            if p == CHANCE:
                game.apply_action(s, game.sample_chance(s, rng))
                continue
            legal = game.legal_actions(s)
            hand_line = observer.string_from(s, p).splitlines()
            hand_line = next(line for line in hand_line if line.startswith(f"p{p}"))
            for a in legal:
                text = narrate.explain(game, s, a)
                assert isinstance(text, str)
                seg, index = A.ACTIONS.decode(a)
                name = game.action_to_string(s, a)
                if seg == "play":
                    card = C.CARDS[index[0]]
                    assert card.text in text and card.name in name and card.name in hand_line
                    seen.add(seg)
                elif seg == "open":
                    biz = C.BUSINESSES[index[0]]
                    assert biz.text in text and biz.name in name and biz.name in hand_line
                    assert f"page {s.page + 1}" in text
                    seen.add(seg)
                elif seg == "discard":
                    k = index[0]
                    effect = C.card_of(k).text if k >= B else C.BUSINESSES[k].text
                    assert effect in text and C.KIND_NAMES[k] in name and C.KIND_NAMES[k] in hand_line
                    seen.add(seg)
                elif seg in ("luxury", "sell", "player", "bid"):
                    assert text, name
                    seen.add(seg)
            game.apply_action(s, int(rng.choice(legal)))
    assert {"play", "open", "discard", "luxury", "sell"} <= seen


def test_explain_states_the_consequence_of_a_choice(table):
    game, s = start(table, 3, {0: ["IRS Audit", "Lemonade Empire"]})
    table.sign(s, 1, "Riverboat Casino", 1, [4, 7])
    table.money(s, 1, 1)
    s.page = 1
    assert narrate.explain(game, s, A.ACTIONS.encode("luxury", 0)) == (
        "pay the bank $6 for Personal Trainer (tax 1 at every 0): your luxury 1 of 3")
    to_actions(game, s, table)
    lemonade = A.ACTIONS.encode("open", KIND_OF["Lemonade Empire"], 3)  # slot 4 of page 2, over the casino
    assert "covering fees $2 to player_1 (total $5 with the launch cost)" in narrate.explain(game, s, lemonade)
    table.act(game, s, "play", KIND_OF["IRS Audit"] - B)
    assert narrate.explain(game, s, A.ACTIONS.encode("player", 0)) == (
        "player_1 pays the bank $2 now (2 tax symbols); they have $1: it knocks them out")


if __name__ == "__main__":  # record the narration anew (after a change to its words)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' shared helpers
    from conftest import NarrationFixture

    NARRATION.write_text("\n".join(line for game in FIXTURE_GAMES for line in narrate_game(NarrationFixture, *game))
                         + "\n")
