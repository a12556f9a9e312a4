"""Scenario tests for the rule IDs of d2r_envs/games/filthy_rich/rulebook.py: the book, set-up, the turn,
luxuries, actions, signs and covering fees, the dice and the draw. (Taxes, selling, knock-outs,
auctions and the option have their own test file.)

Chance is explicit. `new` starts a game with player 0 first (see conftest.py), puts every hand back in
the deck, deals the named hands, sets money and the page, and passes on player 0's luxury; tests then
put signs and cards where they need them with the conftest helpers, which take every card from the
deck, so every card stays accounted for. Dice are rolled by hand with `table.roll`.
"""

from __future__ import annotations

import random

import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich import invariants
from d2r_envs.games.filthy_rich.state import NO_OWNER, Phase

GAME = "filthy_rich"
K = {name: k for k, name in enumerate(C.KIND_NAMES)}
LUX = {x.name: i for i, x in enumerate(C.LUXURIES)}
TACOS, BOOKS, HOT_DOG, LEMONADE, FORTUNE, SHOE_SHINE = (
    "Sven's Swedish Tacos", "Chapter 11 Books", "Hot Dog Stand", "Lemonade Empire", "Fortune Teller",
    "Shoe Shine Kiosk")
TORNADO, MURPHY = "Tornado Cleaners", "Murphy's Fish House"
FILL = "Stock Portfolio"  # four copies: a card to discard
VERTICAL_PAIRS = ["1+4", "2+5", "3+6", "4+7", "5+8", "6+9"]


# Helpers ------------------------------------------------------------------------------------


def new(table, n=4, hands=None, money=None, page=1):
    """Player 0's turn, after the luxury (bought none), with two actions left: every hand is emptied
    into the deck, then `hands` ({seat: [names]}) are dealt from it; `money` is {seat: $}."""
    game, s = table.start(n)
    for p in range(n):
        table.hand(s, p, [])
    for p, names in (hands or {}).items():
        table.hand(s, p, names)
    for p, m in (money or {}).items():
        table.money(s, p, m)
    assert s.phase == Phase.LUXURY and s.turn == 0
    table.act(game, s, "done")
    turn_to(s, page)
    assert s.phase == Phase.ACTIONS and s.actions_left == 2, game.decision_name(s)
    assert invariants.violations(game, s) == []
    return game, s


def turn_to(s, page):
    """Open the book at `page` (1-4) by hand."""
    s.page = page - 1


def legal(game, s):
    """The legal actions as text, sorted."""
    out = sorted(game.action_to_string(s, a) for a in game.legal_actions(s))
    assert len(set(out)) == len(out)
    return out


def opens(game, s, name):
    """The slots ('3+6') of every legal opening of business `name`."""
    head = f"open {name} in slots "
    return sorted(t[len(head):] for t in legal(game, s) if t.startswith(head))


def open_id(name, slots):
    b = K[name]
    mask = sum(1 << (x - 1) for x in slots)
    return A.ACTIONS.encode("open", b, C.PLACEMENTS[b].index(mask))


def illegal(game, s, action):
    """`action` raises IllegalActionError and leaves the state as it was."""
    before = game.clone(s)
    with pytest.raises(IllegalActionError):
        game.apply_action(s, action)
    assert s == before


def ok(game, s):
    assert invariants.violations(game, s) == []


def discard(table, game, s, name):
    table.act(game, s, "discard", K[name])


def play(table, game, s, name):
    table.act(game, s, "play", K[name] - C.NUM_BUSINESSES)


def pass_turn(table, game, s, die=1, page_die=5):
    """The player whose turn it is buys no luxury, discards the first cards of their hand, rolls `die`
    on every business die and `page_die`; the draws take the first kinds left."""
    if s.phase == Phase.LUXURY:
        table.act(game, s, "done")
    while s.phase == Phase.ACTIONS and s.actions_left and s.hand_n[s.actor]:
        k = next(k for k, c in enumerate(s.hands[s.actor]) if c)
        table.act(game, s, "discard", k)
    if s.phase == Phase.ACTIONS:
        table.act(game, s, "done")
    table.roll(game, s, [die] * (s.page + 1 + s.extra_dice), page_die)


# The book -----------------------------------------------------------------------------------


@pytest.mark.rules("FR-COMP-2")
def test_the_book_has_four_pages_of_nine_slots_page_4_on_top(table):
    game, s = new(table, hands={0: ["Page Turner", "Windfall"]})
    assert len(s.book) == 4 and all(len(page) == 9 for page in s.book)
    assert C.PAGES == 4 and C.SLOTS == 9
    table.sign(s, 1, BOOKS, 1, [1])
    table.sign(s, 2, LEMONADE, 4, [1])
    # Page 4 is the top page: its sign covers the one on page 1; pages 2 and 3 see the one on page 1.
    assert [game.visible(s, 0, pg) for pg in range(4)] == [K[BOOKS]] * 3 + [K[LEMONADE]]
    assert game.book_to_string(s)[0].startswith("page 4") and game.book_to_string(s)[3].startswith("page 1 *")
    # Slots are 1-9 row by row: slot 1 is above slot 4 (a vertical sign), 1-2-3 is a row.
    assert C.slots_of(C.PLACEMENTS[K[TORNADO]][0]) == [1, 4]
    assert C.slots_of(C.PLACEMENTS[K["Shopping Mall"]][0]) == [1, 2, 3]
    # Page Turner offers the other pages, 1-4.
    play(table, game, s, "Page Turner")
    assert legal(game, s) == ["turn to page 2", "turn to page 3", "turn to page 4"]
    table.act(game, s, "page", 3)
    assert s.page == 3 and game.visible(s, 0) == K[LEMONADE]
    ok(game, s)


@pytest.mark.rules("FR-BOOK-1")
def test_a_sign_is_seen_from_its_page_and_the_pages_above_not_from_below(table):
    game, s = new(table, hands={0: ["Windfall", "Windfall"]})
    table.sign(s, 1, TACOS, 2, [5])
    table.sign(s, 2, BOOKS, 4, [5])
    table.sign(s, 3, LEMONADE, 1, [1])
    seen = []
    for pg in range(4):
        turn_to(s, pg + 1)
        seen.append((game.visible(s, 4), game.visible(s, 0), game.visible(s, 8)))
    # Slot 5: nothing from page 1 (the sign lies on page 2, above it), Tacos from pages 2 and 3
    # (page 4 above does not count), Books from page 4. Slot 1: Lemonade from every page.
    assert seen == [(-1, K[LEMONADE], -1), (K[TACOS], K[LEMONADE], -1), (K[TACOS], K[LEMONADE], -1),
                    (K[BOOKS], K[LEMONADE], -1)]
    # Dice agree: on page 1 a 5 hits nobody; on page 3 a 5 hits Tacos (Books on page 4 does not count).
    turn_to(s, 1)
    t = game.clone(s)
    discard(table, game, t, "Windfall")
    discard(table, game, t, "Windfall")
    table.roll(game, t, [5])
    assert t.money == [12, 10, 10, 10]
    ok(game, t)
    turn_to(s, 3)
    discard(table, game, s, "Windfall")
    discard(table, game, s, "Windfall")
    table.roll(game, s, [5, 1, 9])
    assert s.money == [12, 14, 10, 12]  # Tacos $4 to player 1, Lemonade $2 to player 3, Books nothing
    ok(game, s)


@pytest.mark.rules("FR-BOOK-2", "FR-DICE-2")
def test_a_covered_sign_is_not_visible_and_is_not_hit(table):
    game, s = new(table, hands={0: ["Windfall", "Windfall"]}, page=2)
    table.sign(s, 1, TACOS, 1, [5])
    table.sign(s, 2, BOOKS, 2, [5])
    assert game.visible(s, 4) == K[BOOKS]
    assert game.visible(s, 4, 0) == K[TACOS]
    discard(table, game, s, "Windfall")
    discard(table, game, s, "Windfall")
    table.roll(game, s, [5, 5])
    assert s.money == [12, 10, 16, 10]  # Books hit twice ($3 each), the covered Tacos never
    ok(game, s)


@pytest.mark.rules("FR-BOOK-3", "FR-DICE-4")
@pytest.mark.parametrize("dice, pay", [([2, 5], (4, 2)), ([2, 2], (0, 4)), ([5, 5], (8, 0)), ([8, 3], (0, 0))])
def test_a_partly_covered_sign_counts_only_its_visible_cards(table, dice, pay):
    game, s = new(table, hands={0: ["Windfall", "Windfall"]}, page=2)
    table.sign(s, 1, TORNADO, 1, [2, 5])  # hit: $4
    table.sign(s, 2, LEMONADE, 2, [2])  # hit: $2, covers the top card of Tornado Cleaners
    assert [game.visible(s, x) for x in (1, 4, 7)] == [K[LEMONADE], K[TORNADO], -1]
    discard(table, game, s, "Windfall")
    discard(table, game, s, "Windfall")
    table.roll(game, s, dice)
    assert (s.money[1] - 10, s.money[2] - 10) == pay
    ok(game, s)


@pytest.mark.rules("FR-BOOK-3", "FR-SIGN-6")
def test_covering_a_partly_covered_sign_pays_for_its_visible_cards_only(table):
    game, s = new(table, hands={0: ["Grand Hotel"]}, money={0: 30}, page=3)
    table.sign(s, 1, TORNADO, 1, [2, 5])
    table.sign(s, 2, LEMONADE, 2, [2])  # covers Tornado Cleaners' top card
    game.apply_action(s, open_id("Grand Hotel", [1, 2, 4, 5]))
    # Slot 2: Lemonade Empire ($2 to player 2); slot 5: Tornado's visible card ($2 to player 1).
    assert s.money == [30 - 15 - 4, 12, 12, 10]
    ok(game, s)


# Set-up -------------------------------------------------------------------------------------


@pytest.mark.rules("FR-SETUP-1", "FR-SETUP-2", "FR-SETUP-3")
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_set_up_deals_five_cards_from_the_shuffled_deck_and_ten_dollars(n):
    game = d2r_envs.make_game(GAME, n)
    s = game.new_initial_state()
    assert s.deck.n == C.DECK_SIZE == 73
    game.apply_action(s, 0)
    rng = random.Random(n)
    draws = 0
    while game.current_player(s) == CHANCE:
        assert s.draws
        # Each draw is a chance event weighted by the copies left in the (shuffled) deck.
        outcomes = game.chance_outcomes(s)
        assert outcomes == [(k, c / s.deck.n) for k, c in enumerate(s.deck) if c]
        game.apply_action(s, game.sample_chance(s, rng))
        draws += 1
    assert draws == 5 * n
    assert s.hand_n == [5] * n and [sum(h) for h in s.hands] == [5] * n
    assert s.deck.n == 73 - 5 * n and not any(s.discard)
    assert s.money == [10] * n
    assert s.page == 0 and game.state_to_string(s).startswith("page 1 ")
    assert all(o == NO_OWNER for o in s.lux_owner) and s.owner == [-1] * C.NUM_BUSINESSES
    assert all(pg == [-1] * 9 for pg in s.book)
    ok(game, s)


@pytest.mark.rules("FR-SETUP-4", "FR-TURN-1")
@pytest.mark.parametrize("n, first", [(2, 1), (3, 2), (5, 3)])
def test_the_first_player_is_drawn_at_random(table, n, first):
    game = d2r_envs.make_game(GAME, n)
    s = game.new_initial_state()
    assert game.current_player(s) == CHANCE and s.phase == Phase.FIRST_PLAYER
    assert game.chance_outcomes(s) == [(p, 1 / n) for p in range(n)]
    game.apply_action(s, first)
    table.settle(game, s)
    assert s.turn == s.actor == first == game.current_player(s)
    assert s.hand_n == [5] * n
    ok(game, s)


@pytest.mark.rules("FR-SETUP-5")
def test_any_luxury_may_be_bought_in_any_order_and_any_sign_used(table):
    game, s = table.start(4)
    for p in range(4):
        table.hand(s, p, [])
    table.hand(s, 0, ["Grand Hotel", "Sports Stadium", "Law Firm", "Theme Park", "Nail Salon"])
    table.money(s, 0, 100)
    # Every luxury lies face up: all 12 are for sale, and the dearest may be bought first.
    assert legal(game, s) == sorted(["buy no luxury"] + [f"buy {x.name} (${x.price})" for x in C.LUXURIES])
    table.act(game, s, "luxury", LUX["Space Shuttle"])
    assert s.lux_owner[LUX["Space Shuttle"]] == 0 and s.money[0] == 55
    # Every sign lies face up: any business in hand can be opened, in any order.
    for name in ["Grand Hotel", "Sports Stadium", "Law Firm", "Theme Park", "Nail Salon"]:
        assert opens(game, s, name), name
    game.apply_action(s, open_id("Sports Stadium", [5, 6, 8, 9]))
    assert s.owner[K["Sports Stadium"]] == 0
    ok(game, s)


# The turn -----------------------------------------------------------------------------------


@pytest.mark.rules("FR-TURN-1")
@pytest.mark.parametrize("n, first, order", [(4, 0, [0, 1, 2, 3, 0, 1]), (3, 1, [1, 2, 0, 1, 2])])
def test_turns_go_clockwise(table, n, first, order):
    game, s = table.start(n, first)
    seen = []
    for _ in order:
        seen.append(s.turn)
        assert s.actor == s.turn
        pass_turn(table, game, s)
        ok(game, s)
    assert seen == order


@pytest.mark.rules("FR-TURN-2", "FR-LUX-3")
def test_a_turn_is_luxury_actions_dice_page_die_draw(table):
    game, s = table.start(4)
    table.hand(s, 0, ["Windfall", "Windfall", "Lemonade Empire", FILL, "Networking"])
    hand0 = s.hands[0][:]
    # 1. Buy a luxury (optional): no luxury is bought, nothing else changes.
    assert s.phase == Phase.LUXURY and game.decision_name(s) == "player_0 may buy a luxury"
    assert "buy no luxury" in legal(game, s)
    assert not any(t.startswith(("discard", "open", "play")) for t in legal(game, s))
    table.act(game, s, "done")
    assert s.phase == Phase.ACTIONS and s.actions_left == 2 and s.money[0] == 10 and s.hands[0] == hand0
    # 2. Two actions; no luxury can be bought now.
    assert not any(t.startswith("buy") for t in legal(game, s))
    discard(table, game, s, "Windfall")
    assert s.phase == Phase.ACTIONS and s.actions_left == 1
    assert not any(t.startswith("buy") for t in legal(game, s))
    discard(table, game, s, FILL)
    # 3. The dice: one business die on page 1, then the page die.
    assert s.phase == Phase.DICE and game.current_player(s) == CHANCE
    assert game.chance_outcomes(s) == [(d, 0.1) for d in range(10)]
    game.apply_action(s, 7)
    assert s.phase == Phase.PAGE_DIE
    assert game.chance_outcomes(s) == [(d, 1 / 6) for d in range(1, 7)]
    game.apply_action(s, 3)
    # 4. Draw back to 5: two chance draws for player 0, then player 1's turn.
    assert s.draws == [0, 0] and game.decision_name(s) == "chance: player_0 draws"
    table.settle(game, s)
    assert s.hand_n[0] == 5 and s.turn == 1 and s.phase in (Phase.LUXURY, Phase.ACTIONS)
    assert s.money[0] == 12 and s.page == 2
    ok(game, s)


# Luxuries -----------------------------------------------------------------------------------


@pytest.mark.rules("FR-LUX-1")
def test_buy_one_available_luxury_at_the_start_of_the_turn(table):
    game, s = table.start(4)
    table.luxury(s, 1, "Designer Wardrobe")
    # Within $10, not already owned: Personal Trainer ($6) and Sports Car ($10).
    assert legal(game, s) == ["buy Personal Trainer ($6)", "buy Sports Car ($10)", "buy no luxury"]
    before = game.clone(s)
    illegal(game, s, A.LUXURY + LUX["Racehorse"])  # $12: too dear
    illegal(game, s, A.LUXURY + LUX["Designer Wardrobe"])  # owned
    table.act(game, s, "luxury", LUX["Sports Car"])
    assert s.money[0] == 0 and s.to_bank == before.to_bank + 10 and s.from_bank == before.from_bank
    assert s.lux_owner[LUX["Sports Car"]] == 0 and s.money[1:] == [10, 10, 10]
    # One luxury only: the actions follow, and no other luxury is offered.
    assert s.phase == Phase.ACTIONS and s.actions_left == 2
    assert not any(t.startswith("buy") for t in legal(game, s))
    illegal(game, s, A.LUXURY + LUX["Personal Trainer"])
    ok(game, s)


@pytest.mark.rules("FR-LUX-2")
def test_the_third_luxury_wins_at_once(table):
    game, s = table.start(4)
    table.luxury(s, 0, "Yacht")
    table.luxury(s, 0, "Racehorse")
    table.luxury(s, 2, "Sports Car")
    table.luxury(s, 2, "Art Collection")
    assert s.phase == Phase.LUXURY and "buy Personal Trainer ($6)" in legal(game, s)
    table.act(game, s, "luxury", LUX["Personal Trainer"])
    assert s.phase == Phase.OVER and s.winner == 0 and game.current_player(s) == TERMINAL
    assert game.returns(s) == [1.0, -1.0, -1.0, -1.0]
    assert s.money[0] == 4
    ok(game, s)


@pytest.mark.rules("FR-LUX-2")
def test_a_second_luxury_does_not_win(table):
    game, s = table.start(4)
    table.luxury(s, 0, "Yacht")
    table.act(game, s, "luxury", LUX["Personal Trainer"])
    assert s.phase == Phase.ACTIONS and s.winner == -1 and game.returns(s) == [0.0] * 4
    ok(game, s)


@pytest.mark.rules("FR-LUX-3")
def test_buying_a_luxury_is_optional(table):
    game, s = table.start(4)
    before = game.clone(s)
    table.act(game, s, "done")
    assert s.phase == Phase.ACTIONS and s.actions_left == 2
    assert s.money == before.money and s.lux_owner == before.lux_owner and s.to_bank == before.to_bank
    ok(game, s)


# Actions ------------------------------------------------------------------------------------


@pytest.mark.rules("FR-ACT-1")
def test_two_actions_must_be_taken_then_the_dice(table):
    game, s = new(table, hands={0: ["Windfall", "Windfall", FILL]})
    table.sign(s, 0, LEMONADE, 2, [1])  # a business: the player may sell before rolling
    assert "roll the dice" not in legal(game, s)
    illegal(game, s, A.DONE)
    discard(table, game, s, FILL)
    assert s.actions_left == 1 and "roll the dice" not in legal(game, s)
    illegal(game, s, A.DONE)
    play(table, game, s, "Windfall")
    # Two actions taken: only selling or rolling is left, no third action.
    assert s.actions_left == 0 and s.phase == Phase.ACTIONS
    assert legal(game, s) == ["roll the dice", f"sell {LEMONADE} ($2)"]
    illegal(game, s, A.DISCARD + K["Windfall"])
    illegal(game, s, A.PLAY + K["Windfall"] - C.NUM_BUSINESSES)
    table.act(game, s, "done")
    assert s.phase == Phase.DICE and s.hands[0][K["Windfall"]] == 1
    ok(game, s)


@pytest.mark.rules("FR-ACT-1")
def test_without_businesses_the_dice_follow_the_two_actions_at_once(table):
    game, s = new(table, hands={0: ["Windfall", "Windfall", FILL]})
    discard(table, game, s, FILL)
    assert s.phase == Phase.ACTIONS and s.actions_left == 1
    discard(table, game, s, "Windfall")
    assert s.phase == Phase.DICE and s.hand_n[0] == 1
    ok(game, s)


@pytest.mark.rules("FR-ACT-2")
def test_discarding_a_card_collects_one_dollar(table):
    game, s = new(table, hands={0: ["Tornado Cleaners", "Yakuza Loan", "Windfall"]}, money={0: 3})
    from_bank = s.from_bank
    assert "discard Tornado Cleaners for $1" in legal(game, s)
    discard(table, game, s, TORNADO)
    assert s.money[0] == 4 and s.from_bank == from_bank + 1
    assert s.hands[0][K[TORNADO]] == 0 and s.discard[K[TORNADO]] == 1 and s.hand_n[0] == 2
    discard(table, game, s, "Yakuza Loan")  # an asset card, discarded face up, not played
    assert s.money[0] == 5 and s.discard[K["Yakuza Loan"]] == 1 and s.assets[0][K["Yakuza Loan"]] == 0
    assert sum(s.discard) == 2
    ok(game, s)


@pytest.mark.rules("FR-ACT-3")
def test_an_action_card_is_followed_then_discarded(table):
    game, s = new(table, hands={0: ["Windfall", "Page Turner", FILL]}, money={0: 3})
    play(table, game, s, "Windfall")
    assert s.money[0] == 7 and s.discard[K["Windfall"]] == 1 and s.hands[0][K["Windfall"]] == 0
    assert s.assets[0] == bytearray(C.NUM_KINDS)
    play(table, game, s, "Page Turner")
    assert s.phase == Phase.TARGET and s.discard[K["Page Turner"]] == 1
    table.act(game, s, "page", 2)
    assert s.page == 2 and s.phase == Phase.DICE  # two actions taken, no business: roll
    assert sum(s.discard) == 2 and s.hand_n[0] == 1
    ok(game, s)


@pytest.mark.rules("FR-ACT-4", "FR-DICE-3")
def test_an_asset_is_paid_for_and_stays_on_the_table(table):
    game, s = new(table, n=2, hands={0: ["Billboard", FILL, "Windfall"]}, money={0: 7})
    table.sign(s, 0, TACOS, 1, [5])
    to_bank = s.to_bank
    play(table, game, s, "Billboard")
    assert s.money[0] == 1 and s.to_bank == to_bank + 6
    assert s.assets[0][K["Billboard"]] == 1 and s.hands[0][K["Billboard"]] == 0 and s.discard[K["Billboard"]] == 0
    discard(table, game, s, FILL)
    table.act(game, s, "done")
    table.roll(game, s, [5])
    assert s.money[0] == 1 + 1 + 4 + 1  # the discard, the hit, the Billboard's $1 more
    # It stays for the rest of the game: still there and still working two turns on.
    pass_turn(table, game, s, die=3)
    assert s.turn == 0
    pass_turn(table, game, s, die=5)
    assert s.assets[0][K["Billboard"]] == 1
    assert s.money[0] == 7 + 2 + 4 + 1  # two discards, the hit, the Billboard
    ok(game, s)


@pytest.mark.rules("FR-ACT-4", "FR-DECIDE-1")
def test_an_asset_is_played_only_if_its_cost_can_be_paid(table):
    game, s = new(table, hands={0: ["Stock Portfolio", "Fire Insurance", "Yakuza Loan"]}, money={0: 5})
    plays = [t for t in legal(game, s) if t.startswith("play")]
    assert plays == ["play Fire Insurance", "play Yakuza Loan"]  # Stock Portfolio costs $6
    illegal(game, s, A.PLAY + K["Stock Portfolio"] - C.NUM_BUSINESSES)
    play(table, game, s, "Yakuza Loan")  # costs $0, pays $12
    assert s.money[0] == 17 and s.assets[0][K["Yakuza Loan"]] == 1
    play(table, game, s, "Stock Portfolio")
    assert s.money[0] == 11 and s.assets[0][K["Stock Portfolio"]] == 1
    ok(game, s)


@pytest.mark.rules("FR-ACT-5")
def test_a_business_card_is_paid_for_and_goes_in_front_of_its_owner(table):
    game, s = new(table, hands={0: [LEMONADE, "Windfall"]}, money={0: 5})
    to_bank = s.to_bank
    game.apply_action(s, open_id(LEMONADE, [7]))
    assert s.money[0] == 2 and s.to_bank == to_bank + 3
    assert s.owner[K[LEMONADE]] == 0 and s.hands[0][K[LEMONADE]] == 0 and s.discard[K[LEMONADE]] == 0
    assert s.sign_page[K[LEMONADE]] == 0 and s.book[0][6] == K[LEMONADE]
    assert s.hand_n[0] == 1 and s.actions_left == 1
    ok(game, s)


# Signs --------------------------------------------------------------------------------------


@pytest.mark.rules("FR-SIGN-1", "FR-SIGN-2", "FR-ACT-5")
def test_tornado_cleaners_example_placements_on_an_empty_page(table):
    game, s = new(table, hands={0: [TORNADO]}, money={0: 12})
    assert legal(game, s) == sorted([f"open {TORNADO} in slots {x}" for x in VERTICAL_PAIRS]
                                    + [f"discard {TORNADO} for $1"])
    game.apply_action(s, open_id(TORNADO, [6, 9]))
    assert s.money[0] == 0 and s.owner[K[TORNADO]] == 0
    assert s.book[0] == [-1] * 5 + [K[TORNADO], -1, -1, K[TORNADO]]
    assert all(pg == [-1] * 9 for pg in s.book[1:])
    ok(game, s)


@pytest.mark.rules("FR-SIGN-1", "FR-SIGN-2")
def test_occupied_slots_of_the_current_page_remove_placements(table):
    game, s = new(table, hands={0: [TORNADO, "Pet Spa"]}, money={0: 30})
    table.sign(s, 1, TACOS, 1, [5])
    table.sign(s, 2, BOOKS, 2, [1])  # on another page: no bar on page 1
    assert opens(game, s, TORNADO) == ["1+4", "3+6", "4+7", "6+9"]
    assert opens(game, s, "Pet Spa") == ["1+2", "2+3", "7+8", "8+9"]  # side by side
    illegal(game, s, open_id(TORNADO, [2, 5]))
    illegal(game, s, open_id("Pet Spa", [4, 5]))
    # On page 2 the sign goes on page 2: slot 1 is taken there, slot 5 is free (over Tacos).
    turn_to(s, 2)
    assert opens(game, s, TORNADO) == ["2+5", "3+6", "4+7", "5+8", "6+9"]
    game.apply_action(s, open_id(TORNADO, [3, 6]))
    assert s.sign_page[K[TORNADO]] == 1 and s.book[1][2] == s.book[1][5] == K[TORNADO]
    assert s.book[0][2] == s.book[0][5] == -1
    ok(game, s)


@pytest.mark.rules("FR-SIGN-2")
@pytest.mark.parametrize("name, want", [
    ("Shopping Mall", ["1+2+3", "4+5+6", "7+8+9"]),
    ("Theme Park", ["1+4+5", "2+5+6", "4+7+8", "5+8+9"]),
    ("Grand Hotel", ["1+2+4+5", "2+3+5+6", "4+5+7+8", "5+6+8+9"]),
    (LEMONADE, ["1", "2", "3", "4", "5", "6", "7", "8", "9"]),
])
def test_every_sign_keeps_its_shape(table, name, want):
    game, s = new(table, hands={0: [name]}, money={0: 30})
    assert opens(game, s, name) == want
    ok(game, s)


@pytest.mark.rules("FR-SIGN-3")
def test_no_opening_without_room_for_the_sign_on_the_current_page(table):
    game, s = new(table, hands={0: [TORNADO, LEMONADE, "Grand Hotel"]}, money={0: 50})
    for name, slot in ((TACOS, 4), (BOOKS, 5), (HOT_DOG, 6)):
        table.sign(s, 1, name, 1, [slot])
    # The middle row is full: no two free slots one above the other, no free 2x2 square.
    assert opens(game, s, TORNADO) == [] and opens(game, s, "Grand Hotel") == []
    assert opens(game, s, LEMONADE) == ["1", "2", "3", "7", "8", "9"]
    illegal(game, s, open_id(TORNADO, [1, 4]))
    illegal(game, s, open_id(TORNADO, [3, 6]))
    # A full page: only discards are left.
    table.sign(s, 2, "Shopping Mall", 1, [1, 2, 3])
    table.sign(s, 3, "Drive-In Theater", 1, [7, 8])
    table.sign(s, 2, FORTUNE, 1, [9])
    assert legal(game, s) == sorted(f"discard {x} for $1" for x in (TORNADO, LEMONADE, "Grand Hotel"))
    illegal(game, s, open_id(LEMONADE, [9]))
    ok(game, s)


@pytest.mark.rules("FR-SIGN-4")
def test_no_opening_of_a_business_whose_sign_is_in_the_book(table):
    game, s = new(table, hands={0: [TACOS, "Windfall"]}, money={0: 30})
    table.sign(s, 1, TACOS, 3, [9])  # the other copy of the card, its sign on page 3
    assert s.hands[0][K[TACOS]] == 1
    assert opens(game, s, TACOS) == []
    illegal(game, s, open_id(TACOS, [1]))
    assert f"discard {TACOS} for $1" in legal(game, s)
    # Own sign in the book: still no second one.
    s2_game, s2 = new(table, hands={0: [TACOS, "Windfall"]}, money={0: 30})
    table.sign(s2, 0, TACOS, 1, [2])
    assert opens(s2_game, s2, TACOS) == []
    ok(game, s)
    ok(s2_game, s2)


@pytest.mark.rules("FR-SIGN-5", "FR-SIGN-6", "FR-SIGN-1")
def test_covering_fee_rulebook_example(table):
    """Page 3: Tornado Cleaners in slots 3 and 6 covers Murphy's Fish House on page 2 slot 6 ($2 to its
    owner), not the sign on page 1 slot 6 beneath Murphy's (not visible from page 3)."""
    game, s = new(table, hands={0: [TORNADO]}, money={0: 30}, page=3)
    table.sign(s, 1, MURPHY, 2, [6, 9])
    table.sign(s, 2, BOOKS, 1, [6])
    assert game.visible(s, 5) == K[MURPHY]
    assert f"open {TORNADO} in slots 3+6" in legal(game, s)
    bank = (s.from_bank, s.to_bank)
    game.apply_action(s, open_id(TORNADO, [3, 6]))
    assert s.money[:3] == [30 - 12 - 2, 12, 10] and s.money[3] == 10
    assert (s.from_bank, s.to_bank) == (bank[0], bank[1] + 12)  # the fee goes to Murphy's owner, not the bank
    assert s.book[2][2] == s.book[2][5] == K[TORNADO] and s.sign_page[K[TORNADO]] == 2
    assert [game.visible(s, x) for x in (2, 5, 8)] == [K[TORNADO], K[TORNADO], K[MURPHY]]
    assert game.visible(s, 5, 1) == K[MURPHY] and game.visible(s, 5, 0) == K[BOOKS]
    ok(game, s)


@pytest.mark.rules("FR-SIGN-5")
def test_covering_fee_is_two_dollars_per_covered_space_to_each_owner(table):
    game, s = new(table, hands={0: [TORNADO, "Windfall"]}, money={0: 30}, page=3)
    table.sign(s, 1, MURPHY, 2, [3, 6])  # both spaces covered: $4 to player 1
    game2, s2 = game, game.clone(s)
    game.apply_action(s, open_id(TORNADO, [3, 6]))
    assert s.money == [14, 14, 10, 10]
    ok(game, s)
    # Two owners, one space each, one of them seen through page 2 from page 1.
    game, s = new(table, hands={0: [TORNADO, "Windfall"]}, money={0: 30}, page=3)
    table.sign(s, 2, LEMONADE, 2, [4])
    table.sign(s, 3, BOOKS, 1, [7])
    game.apply_action(s, open_id(TORNADO, [4, 7]))
    assert s.money == [14, 10, 12, 12]
    ok(game, s)
    # Over empty slots: no fee.
    game2.apply_action(s2, open_id(TORNADO, [2, 5]))
    assert s2.money == [18, 10, 10, 10]
    ok(game2, s2)


@pytest.mark.rules("FR-SIGN-6")
def test_only_signs_visible_before_covering_earn_a_fee(table):
    game, s = new(table, hands={0: ["Grand Hotel"]}, money={0: 40}, page=4)
    table.sign(s, 1, TACOS, 3, [1])  # visible from page 4 through the empty slot
    table.sign(s, 2, BOOKS, 1, [1])  # under Tacos: not visible
    table.sign(s, 2, LEMONADE, 1, [2])  # visible from page 4
    table.sign(s, 3, HOT_DOG, 2, [5])  # visible
    table.sign(s, 1, SHOE_SHINE, 1, [5])  # under the Hot Dog Stand: not visible
    game.apply_action(s, open_id("Grand Hotel", [1, 2, 4, 5]))
    assert s.money == [40 - 15 - 6, 12, 12, 12]
    ok(game, s)


@pytest.mark.rules("FR-SIGN-7", "FR-SIGN-5")
def test_covering_your_own_sign_is_free(table):
    game, s = new(table, hands={0: [TORNADO]}, money={0: 12}, page=3)
    table.sign(s, 0, MURPHY, 2, [6, 9])
    table.sign(s, 1, BOOKS, 1, [3])  # visible from page 3: covering it costs $2
    # $12 buys the launch only: the placements over player 1's sign are out of reach, not those over mine.
    assert opens(game, s, TORNADO) == ["1+4", "2+5", "4+7", "5+8", "6+9"]
    game.apply_action(s, open_id(TORNADO, [6, 9]))
    assert s.money == [0, 10, 10, 10]
    ok(game, s)
    # Own sign and another's covered at once: only the other's space is paid for.
    game, s = new(table, hands={0: [TORNADO]}, money={0: 30}, page=3)
    table.sign(s, 0, MURPHY, 2, [6, 9])
    table.sign(s, 1, BOOKS, 1, [3])
    game.apply_action(s, open_id(TORNADO, [3, 6]))
    assert s.money == [16, 12, 10, 10]
    ok(game, s)


@pytest.mark.rules("FR-DECIDE-1")
def test_a_business_opens_only_if_launch_and_fees_can_be_paid(table):
    game, s = new(table, hands={0: [TORNADO, "Nail Salon"]}, money={0: 13}, page=2)
    table.sign(s, 1, TACOS, 1, [5])  # seen from page 2: covering each costs $2
    table.sign(s, 2, LEMONADE, 1, [3])
    table.sign(s, 3, BOOKS, 1, [8])
    # $13: the launch ($12) and no fee: only the placements that cover nothing.
    assert opens(game, s, TORNADO) == ["1+4", "4+7", "6+9"]
    illegal(game, s, open_id(TORNADO, [2, 5]))
    illegal(game, s, open_id(TORNADO, [5, 8]))
    table.money(s, 0, 14)
    assert opens(game, s, TORNADO) == ["1+4", "2+5", "3+6", "4+7", "6+9"]  # 5+8 needs $16
    table.money(s, 0, 16)
    assert opens(game, s, TORNADO) == VERTICAL_PAIRS
    game2, s2 = game, game.clone(s)
    game.apply_action(s, open_id(TORNADO, [5, 8]))
    assert s.money == [0, 12, 10, 12]
    ok(game, s)
    table.money(s2, 0, 8)  # Nail Salon: $7, so $8 covers no sign
    assert opens(game2, s2, TORNADO) == []
    assert opens(game2, s2, "Nail Salon") == ["1", "2", "4", "6", "7", "9"]
    table.money(s2, 0, 6)
    assert opens(game2, s2, "Nail Salon") == []
    assert [t for t in legal(game2, s2) if not t.startswith("discard")] == []
    ok(game2, s2)


# Dice ---------------------------------------------------------------------------------------


@pytest.mark.rules("FR-DICE-1", "FR-ACT-3")
@pytest.mark.parametrize("page", [1, 2, 3, 4])
@pytest.mark.parametrize("blitz", [0, 1, 2])
def test_as_many_business_dice_as_the_page_number_plus_advertising(table, page, blitz):
    cards = ["Advertising Blitz"] * blitz + [FILL] * (2 - blitz) + ["Windfall"]
    game, s = new(table, hands={0: cards}, page=page)
    for name in cards[:2]:
        if name == FILL:
            discard(table, game, s, name)
        else:
            play(table, game, s, name)
    assert s.discard[K["Advertising Blitz"]] == blitz
    want = page + blitz
    for i in range(want):
        assert s.phase == Phase.DICE and game.decision_name(s) == f"chance: business die {i + 1} of {want}"
        game.apply_action(s, 1)
    assert s.phase == Phase.PAGE_DIE and s.dice == [1] * want
    # The extra dice are for this turn only.
    game.apply_action(s, 5)
    table.settle(game, s)
    assert s.turn == 1 and s.extra_dice == 0
    ok(game, s)


@pytest.mark.rules("FR-DICE-2")
@pytest.mark.parametrize("slot", range(1, 10))
def test_a_die_hits_the_sign_in_its_slot(table, slot):
    game, s = new(table, hands={0: [FILL, FILL]})
    table.sign(s, 1, LEMONADE, 1, [slot])
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    for die in range(10):
        t = game.clone(s)
        table.roll(game, t, [die])
        assert t.money[1] == (12 if die == slot else 10), die
        assert t.money[0] == 12 and t.money[2:] == [10, 10]
        ok(game, t)


@pytest.mark.rules("FR-DICE-3")
def test_hits_follow_the_business_card(table):
    game, s = new(table, hands={0: [FILL, FILL]}, page=4)
    table.sign(s, 1, TACOS, 1, [1])  # hit: collect $4 from the bank
    table.sign(s, 2, FORTUNE, 1, [2])  # hit: the roller pays $4
    table.sign(s, 0, "Discount Tattoos", 1, [3, 6])  # the roller's own: the bank pays $3
    table.sign(s, 3, "Pawn Shop", 1, [9])  # hit: collect $3
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    table.act(game, s, "done")
    from_bank = s.from_bank
    table.roll(game, s, [1, 2, 3, 9])
    assert s.money == [12 - 4 + 3, 14, 14, 13]
    assert s.from_bank == from_bank + 4 + 3 + 3
    ok(game, s)


@pytest.mark.rules("FR-DICE-4")
def test_two_dice_on_one_sign_hit_it_twice(table):
    game, s = new(table, hands={0: [FILL, FILL]}, page=3)
    table.sign(s, 1, TACOS, 1, [5])
    table.sign(s, 2, TORNADO, 2, [3, 6])
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    table.roll(game, s, [5, 3, 5])
    assert s.money == [12, 18, 14, 10]
    ok(game, s)


@pytest.mark.rules("FR-DICE-5")
def test_a_zero_makes_everyone_pay_taxes_after_the_hits(table):
    game, s = new(table, hands={0: [FILL, FILL]}, money={1: 0}, page=2)
    table.sign(s, 1, TACOS, 1, [5])  # tax 1, hit $4: player 1 has $0 until the hit
    table.sign(s, 2, HOT_DOG, 2, [7])  # tax 1, not hit
    table.sign(s, 3, BOOKS, 2, [8])  # tax 0
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    # The 0 comes first, yet the hit is paid first: player 1 pays the tax out of it and stays in.
    game.apply_action(s, 0)
    game.apply_action(s, 5)
    assert s.money == [12, 4, 10, 10] and s.phase == Phase.TAX_SELL
    table.roll(game, s, [])
    assert s.money == [12, 3, 9, 10] and all(s.alive)
    ok(game, s)


@pytest.mark.rules("FR-DICE-5")
def test_each_zero_makes_everyone_pay_taxes(table):
    game, s = new(table, hands={0: [FILL, FILL]}, money={1: 1}, page=3)
    table.sign(s, 1, TACOS, 1, [5])
    table.sign(s, 2, HOT_DOG, 2, [7])
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    table.roll(game, s, [0, 5, 0])
    assert s.money == [12, 1 + 4 - 2, 8, 10] and all(s.alive)
    ok(game, s)


@pytest.mark.rules("FR-DICE-5")
def test_no_zero_no_taxes(table):
    game, s = new(table, hands={0: [FILL, FILL]}, page=4)
    table.sign(s, 2, HOT_DOG, 2, [7])
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    table.roll(game, s, [1, 2, 3, 4])
    assert s.money == [12, 10, 10, 10]
    ok(game, s)


@pytest.mark.rules("FR-DICE-6")
@pytest.mark.parametrize("page", [1, 2, 3, 4])
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_the_page_die_turns_to_pages_1_to_4_and_5_6_stay(table, page, die):
    game, s = new(table, hands={0: [FILL, FILL]}, page=page)
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    for _ in range(page):
        game.apply_action(s, 1)
    assert s.phase == Phase.PAGE_DIE and s.page == page - 1
    game.apply_action(s, die)
    assert s.page == (die - 1 if die <= 4 else page - 1)
    ok(game, s)


@pytest.mark.rules("FR-DICE-6", "FR-DICE-5")
def test_the_page_die_comes_after_the_hits_and_taxes(table):
    game, s = new(table, hands={0: [FILL, FILL]}, page=2)
    table.sign(s, 1, TACOS, 2, [5])  # on page 2: seen from page 2, not from page 1
    discard(table, game, s, FILL)
    discard(table, game, s, FILL)
    game.apply_action(s, 5)
    game.apply_action(s, 0)
    assert s.phase == Phase.TAX_SELL and s.page == 1  # no page die yet
    game.apply_action(s, A.DONE)
    assert s.phase == Phase.PAGE_DIE and s.money[1] == 14 - 1
    game.apply_action(s, 1)
    assert s.page == 0 and s.money[1] == 13
    ok(game, s)


# Draw ---------------------------------------------------------------------------------------


@pytest.mark.rules("FR-DRAW-1")
def test_the_turn_ends_by_drawing_back_to_five(table):
    game, s = new(table, hands={0: ["Windfall", "Windfall", LEMONADE, FILL, "Page Turner"]}, money={0: 20})
    deck = s.deck[:]
    game.apply_action(s, open_id(LEMONADE, [1]))
    discard(table, game, s, FILL)
    table.act(game, s, "done")
    game.apply_action(s, 9)
    game.apply_action(s, 6)
    assert s.hand_n[0] == 3 and s.draws == [0, 0] and game.current_player(s) == CHANCE
    assert game.chance_outcomes(s) == [(k, c / s.deck.n) for k, c in enumerate(s.deck) if c]
    game.apply_action(s, K["Networking"])
    game.apply_action(s, K["Billboard"])
    assert s.hand_n[0] == 5 and s.hands[0][K["Networking"]] == 1 and s.hands[0][K["Billboard"]] == 1
    assert s.deck.n == sum(deck) - 2 and s.turn == 1
    ok(game, s)


@pytest.mark.rules("FR-DRAW-1", "FR-DECIDE-3")
def test_no_draw_with_five_or_more_cards(table):
    game, s = new(table, hands={0: ["Networking", "Networking", FILL, "Windfall", "Windfall"]})
    play(table, game, s, "Networking")
    assert s.draws == [0, 0, 0]
    table.settle(game, s)
    play(table, game, s, "Networking")
    table.settle(game, s)
    assert s.hand_n[0] == 9 and s.phase == Phase.DICE
    deck_n = s.deck.n
    game.apply_action(s, 1)
    game.apply_action(s, 5)
    # Nine cards: nothing to draw, nothing to give back; player 1's turn follows.
    assert s.draws == [] and s.hand_n[0] == 9 and s.deck.n == deck_n and s.turn == 1
    ok(game, s)


@pytest.mark.rules("FR-DRAW-2")
def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out(table):
    game, s = new(table, hands={0: ["Windfall", "Windfall", FILL, "Lemonade Empire", "Nail Salon"]})
    # All of the deck but one Page Turner goes to the discard pile.
    for k in range(C.NUM_KINDS):
        s.discard[k] += s.deck[k]
        s.deck.counts[k] = 0
    s.discard[K["Page Turner"]] -= 1
    s.deck.counts[K["Page Turner"]] = 1
    s.deck.recount()
    ok(game, s)
    discard(table, game, s, "Windfall")
    discard(table, game, s, FILL)
    reshuffled = s.discard[:]
    assert sum(reshuffled) == 73 - 3 - 1
    game.apply_action(s, 4)
    game.apply_action(s, 5)
    # The first draw takes the last card of the deck; the second comes from the reshuffled discards.
    assert s.draws == [0, 0] and game.chance_outcomes(s) == [(K["Page Turner"], 1.0)]
    game.apply_action(s, K["Page Turner"])
    assert s.deck.counts == reshuffled and s.deck.n == 69 and not any(s.discard)
    assert game.current_player(s) == CHANCE and s.draws == [0]
    assert game.chance_outcomes(s) == [(k, c / 69) for k, c in enumerate(reshuffled) if c]
    game.apply_action(s, K["Windfall"])
    assert s.hand_n[0] == 5 and s.deck.n == 68 and s.hands[0][K["Windfall"]] == 2
    # Every card is in exactly one place.
    for k in range(C.NUM_KINDS):
        assert s.deck[k] + s.discard[k] + sum(h[k] for h in s.hands) + sum(a[k] for a in s.assets) == C.COPIES[k]
    ok(game, s)


@pytest.mark.rules("FR-DRAW-2", "FR-DECIDE-3")
def test_the_draw_stops_when_deck_and_discard_pile_are_empty(table):
    game, s = new(table, hands={0: ["Windfall", FILL, LEMONADE, "Nail Salon", "Page Turner"]},
                  money={0: 20})
    # Every other card is in player 3's hand.
    for k in range(C.NUM_KINDS):
        s.hands[3][k] += s.deck[k]
        s.deck.counts[k] = 0
    s.deck.recount()
    game.apply_action(s, open_id(LEMONADE, [1]))
    discard(table, game, s, "Windfall")
    table.act(game, s, "done")
    game.apply_action(s, 9)
    game.apply_action(s, 5)
    # Two cards to draw: the one discard is reshuffled and drawn, then there is nothing left.
    assert s.deck.counts == bytearray(K["Windfall"] * [0] + [1] + [0] * (C.NUM_KINDS - K["Windfall"] - 1))
    game.apply_action(s, K["Windfall"])
    assert s.hand_n[0] == 4 and s.draws == [] and s.deck.n == 0 and not any(s.discard)
    assert s.turn == 1
    ok(game, s)
