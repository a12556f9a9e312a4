"""Scenario tests for taxes, selling, knock-outs, auctions, the one-tax option and the card effects of
Filthy Rich (rule IDs in d2r_envs/games/filthy_rich/rulebook.py).

Each test deals a game with the conftest `table` fixture (player 0 first unless it says otherwise),
empties every hand, then puts signs, assets, luxuries and money where it needs them. Dice are chosen
explicitly; card draws take the first kind left in the deck. Seats go clockwise: the player on a
player's left is the next seat up. `A.PLAYER + k` targets the player k+1 seats to the actor's left.
"""

from __future__ import annotations

import pytest

from d2r_envs.core.game import CHANCE, IllegalActionError
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich import invariants
from d2r_envs.games.filthy_rich.state import NO_OWNER, ON_AUCTION, REMOVED, Ask, Phase

B = C.NUM_BUSINESSES
KIND = {name: k for k, name in enumerate(C.KIND_NAMES)}
LUX = {x.name: i for i, x in enumerate(C.LUXURIES)}


# Helpers ------------------------------------------------------------------------------------


def begin(table, n=4, first=0, **options):
    """A dealt game at player `first`'s luxury decision, every hand emptied back into the deck."""
    g, s = table.start(n, first, **options)
    for p in range(n):
        table.hand(s, p, [])
    assert s.phase == Phase.LUXURY and s.actor == first
    return g, s


def sell(name):
    return A.SELL + KIND[name]


def play(name):
    return A.PLAY + KIND[name] - B


def burn(name):
    return A.BUSINESS + KIND[name]


def target(g, s, q):
    """The `player` action by which the actor targets seat q."""
    return A.PLAYER + (q - s.actor - 1) % g.n


def bid(i):
    return A.BID + i


def to_dice(g, s):
    """Buy no luxury and roll (the actor's hand must be empty or their actions spent)."""
    while s.phase in (Phase.LUXURY, Phase.ACTIONS):
        g.apply_action(s, A.DONE)
    assert s.phase == Phase.DICE, g.decision_name(s)


def roll(g, s, *dice):
    for d in dice:
        assert s.phase == Phase.DICE, g.decision_name(s)
        g.apply_action(s, d)


def to_discard(s, name):
    """Move one card of this kind from the deck to the discard pile."""
    k = KIND[name]
    s.deck.take(k)
    s.discard[k] += 1


def check(g, s):
    assert invariants.violations(g, s) == []


def refused(g, s, action):
    """The action raises IllegalActionError and changes nothing."""
    before = g.clone(s)
    with pytest.raises(IllegalActionError):
        g.apply_action(s, action)
    assert s == before


def sells_in(actions):
    return {a for a in actions if A.SELL <= a < A.PLAY}


# Taxes ----------------------------------------------------------------------------------------


@pytest.mark.rules("FR-TAX-2", "FR-TAX-3", "FR-OPT-1")
@pytest.mark.parametrize(
    "one_tax, page, dice, paid",
    [
        (False, 1, [0], 3),  # the rulebook: three symbols, one 0: $3
        (False, 2, [0, 0], 6),  # two 0s: $6
        (False, 3, [0, 0, 0], 9),  # "and so on"
        (False, 2, [0, 7], 3),  # a die that is not a 0 costs nothing
        (True, 2, [0, 0], 3),  # the fan variant: only the first 0 taxes
        (True, 3, [0, 7, 0], 3),
    ],
)
def test_rulebook_tax_example(table, one_tax, page, dice, paid):
    g, s = begin(table, one_tax_per_turn=one_tax)
    table.sign(s, 0, "Hot Dog Stand", 1, [5])  # a business: 1 tax symbol
    table.luxury(s, 0, "Personal Trainer")  # a luxury: 1
    table.asset(s, 0, "Stock Portfolio")  # an asset: 1
    s.page = page - 1
    assert g.tax_symbols(s, 0) == 3
    to_dice(g, s)
    roll(g, s, *dice)
    assert s.phase == Phase.TAX_SELL and s.actor == 0
    g.apply_action(s, A.DONE)  # Andrea sells nothing
    assert s.phase == Phase.PAGE_DIE
    assert s.money == [10 - paid, 10, 10, 10]
    assert s.to_bank == paid
    check(g, s)


@pytest.mark.rules("FR-TAX-2", "FR-TAX-3")
def test_rulebook_tax_example_with_a_hit_first(table):
    """Andrea earns on her business hit and pays her three symbols, twice for two 0s."""
    g, s = begin(table)
    table.sign(s, 0, "Hot Dog Stand", 1, [5])  # pays $3 a hit
    table.luxury(s, 0, "Personal Trainer")
    table.asset(s, 0, "Stock Portfolio")
    s.page = 2  # page 3: three dice
    to_dice(g, s)
    roll(g, s, 0, 5, 0)
    assert s.actor == 0 and s.money[0] == 13  # the hit is paid before the sale round
    g.apply_action(s, A.DONE)
    assert s.money == [7, 10, 10, 10]
    check(g, s)


@pytest.mark.rules("FR-TAX-2", "FR-DICE-5")
@pytest.mark.parametrize("dice", [[0, 1], [1, 0]])
def test_taxes_are_paid_with_money_earned_on_the_same_roll(table, dice):
    """Player 1 has no money; the hit on their Nail Salon pays the taxes on it, whatever the dice order."""
    g, s = begin(table)
    table.sign(s, 1, "Nail Salon", 1, [1])  # hit: $5; 1 tax symbol
    table.money(s, 1, 0)
    s.page = 1  # page 2: two dice
    to_dice(g, s)
    roll(g, s, *dice)
    assert s.phase == Phase.TAX_SELL and s.actor == 1 and s.money[1] == 5
    g.apply_action(s, A.DONE)
    assert s.alive == [True] * 4
    assert s.money == [10, 4, 10, 10]
    check(g, s)


@pytest.mark.rules("FR-TAX-1", "FR-TAX-4", "FR-SELL-1", "FR-SELL-2")
def test_sale_round_goes_in_turn_order_from_the_roller_and_sold_businesses_are_not_taxed(table):
    g, s = begin(table, first=2)
    table.sign(s, 2, "Lemonade Empire", 1, [1])  # tax 0
    table.sign(s, 3, "Hot Dog Stand", 1, [2])  # tax 1
    table.sign(s, 0, "Nail Salon", 1, [3])  # tax 2
    table.sign(s, 0, "Shoe Shine Kiosk", 1, [4])  # tax 0
    table.luxury(s, 1, "Personal Trainer")  # player 1: a tax symbol but no business to sell
    to_dice(g, s)
    roll(g, s, 0)

    assert s.phase == Phase.TAX_SELL and s.actor == 2  # the roller first
    assert set(g.legal_actions(s)) == {A.DONE, sell("Lemonade Empire")}
    g.apply_action(s, A.DONE)

    assert s.actor == 3
    assert set(g.legal_actions(s)) == {A.DONE, sell("Hot Dog Stand")}
    refused(g, s, sell("Nail Salon"))  # another player's business
    g.apply_action(s, sell("Hot Dog Stand"))  # player 3's last business: nothing more to ask them

    assert s.actor == 0  # then clockwise; player 1, with nothing to sell, is not asked
    assert set(g.legal_actions(s)) == {A.DONE, sell("Nail Salon"), sell("Shoe Shine Kiosk")}
    g.apply_action(s, A.DONE)

    assert s.phase == Phase.PAGE_DIE
    # Player 3 sold Hot Dog Stand for $2 and owes nothing on it; 0 pays 2, 1 pays 1, 2 pays 0.
    assert s.money == [8, 9, 10, 12]
    assert s.owner[KIND["Hot Dog Stand"]] == NO_OWNER
    assert s.book[0][1] == -1 and s.discard[KIND["Hot Dog Stand"]] == 1
    check(g, s)


@pytest.mark.rules("FR-TAX-1", "FR-TAX-4", "FR-SELL-1")
def test_selling_at_tax_time_raises_the_money_for_the_taxes(table):
    g, s = begin(table)
    table.sign(s, 1, "Nail Salon", 1, [1])  # tax 1, not hit
    table.sign(s, 1, "Riverboat Casino", 1, [2, 5])  # tax 2, two sign cards
    table.money(s, 1, 0)
    to_dice(g, s)
    roll(g, s, 0)
    assert s.actor == 1
    assert set(g.legal_actions(s)) == {A.DONE, sell("Nail Salon"), sell("Riverboat Casino")}
    g.apply_action(s, sell("Riverboat Casino"))  # $4, and its 2 symbols are gone
    assert s.money[1] == 4
    g.apply_action(s, A.DONE)
    assert s.alive[1] and s.money[1] == 3
    assert s.book[0][1] == s.book[0][4] == -1
    check(g, s)


# Selling ----------------------------------------------------------------------------------------


@pytest.mark.rules("FR-SELL-1")
@pytest.mark.parametrize(
    "name, slots, price",
    [
        ("Lemonade Empire", [1], 2),
        ("Tornado Cleaners", [1, 4], 4),
        ("Shopping Mall", [1, 2, 3], 6),
        ("Grand Hotel", [1, 2, 4, 5], 8),
    ],
)
def test_a_business_sells_for_2_per_sign_card_all_of_it(table, name, slots, price):
    g, s = begin(table)
    table.sign(s, 0, name, 2, slots)
    table.hand(s, 0, ["Windfall"])
    g.apply_action(s, A.DONE)  # no luxury
    assert s.phase == Phase.ACTIONS and s.actions_left == 2
    assert sells_in(g.legal_actions(s)) == {sell(name)}  # one sale for the whole sign
    g.apply_action(s, sell(name))
    b = KIND[name]
    assert s.money[0] == 10 + price and s.from_bank == price
    assert s.owner[b] == NO_OWNER and s.sign_mask[b] == 0 and s.sign_page[b] == -1
    assert all(x == -1 for page in s.book for x in page)
    assert s.discard[b] == 1 and s.discard.count(0) == C.NUM_KINDS - 1
    assert s.actions_left == 2  # selling is not one of the two actions
    check(g, s)


@pytest.mark.rules("FR-SELL-2")
def test_selling_on_your_own_turn_before_the_roll(table):
    g, s = begin(table)
    table.sign(s, 0, "Lemonade Empire", 1, [1])
    table.sign(s, 0, "Shoe Shine Kiosk", 1, [2])
    table.sign(s, 0, "Pet Spa", 1, [4, 5])
    table.hand(s, 0, ["Windfall", "Windfall"])

    # The luxury phase.
    mine = {sell("Lemonade Empire"), sell("Shoe Shine Kiosk"), sell("Pet Spa")}
    assert sells_in(g.legal_actions(s)) == mine
    g.apply_action(s, sell("Lemonade Empire"))
    assert s.phase == Phase.LUXURY and s.money[0] == 12
    g.apply_action(s, A.DONE)

    # During the actions.
    assert s.phase == Phase.ACTIONS and s.actions_left == 2
    assert sells_in(g.legal_actions(s)) == mine - {sell("Lemonade Empire")}
    g.apply_action(s, sell("Shoe Shine Kiosk"))
    assert s.actions_left == 2 and s.money[0] == 14
    table.act(g, s, "discard", KIND["Windfall"])
    table.act(g, s, "discard", KIND["Windfall"])

    # After the two actions, before the roll: sell or roll, nothing else.
    assert s.phase == Phase.ACTIONS and s.actions_left == 0
    assert set(g.legal_actions(s)) == {A.DONE, sell("Pet Spa")}
    g.apply_action(s, A.DONE)

    # After the roll (no 0): no decision for player 0 until the next player's turn.
    assert g.current_player(s) == CHANCE
    roll(g, s, 9)
    assert s.phase == Phase.PAGE_DIE and g.legal_actions(s) == []
    g.apply_action(s, 5)
    table.settle(g, s)
    assert s.turn == s.actor == 1 and s.phase == Phase.LUXURY
    assert sells_in(g.legal_actions(s)) == set()  # player 1 owns nothing; Pet Spa is not theirs to sell
    refused(g, s, sell("Pet Spa"))
    assert s.owner[KIND["Pet Spa"]] == 0 and s.money[0] == 16
    check(g, s)


@pytest.mark.rules("FR-SELL-2", "FR-AUCT-3")
def test_no_selling_at_an_auction_after_the_roll(table):
    """Player 1 is knocked out by the taxes; at the auction of their luxury (after the roll, after the
    sale round) the roller may bid or pass but not sell."""
    g, s = begin(table)
    table.sign(s, 0, "Lemonade Empire", 1, [1])
    table.luxury(s, 1, "Personal Trainer")  # 1 tax symbol
    table.money(s, 1, 0)
    to_dice(g, s)
    roll(g, s, 0)
    assert s.phase == Phase.TAX_SELL and s.actor == 0
    g.apply_action(s, A.DONE)
    assert not s.alive[1]
    assert s.phase == Phase.AUCTION and s.actor == 2
    g.apply_action(s, A.DONE)
    g.apply_action(s, A.DONE)
    assert s.actor == 0
    assert set(g.legal_actions(s)) == {A.DONE, bid(0), bid(1), bid(2), bid(3)}  # $6, $7, $8, $10
    refused(g, s, sell("Lemonade Empire"))
    check(g, s)


@pytest.mark.rules("FR-SELL-2")
def test_no_selling_on_another_players_turn(table):
    g, s = begin(table)
    table.sign(s, 1, "Lemonade Empire", 1, [1])
    table.hand(s, 0, ["Lawsuit", "Windfall"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Lawsuit"))
    assert s.phase == Phase.TARGET
    assert all(not A.SELL <= a < A.PLAY for a in g.legal_actions(s))
    refused(g, s, sell("Lemonade Empire"))  # neither player 0 nor anyone else may sell it now
    g.apply_action(s, target(g, s, 2))
    assert s.actor == 0 and s.actions_left == 1
    refused(g, s, sell("Lemonade Empire"))
    check(g, s)


@pytest.mark.rules("FR-SELL-3")
def test_luxuries_and_assets_cannot_be_sold(table):
    g, s = begin(table)
    assert A.PLAY - A.SELL == C.NUM_BUSINESSES  # sell actions exist for businesses only
    table.luxury(s, 0, "Personal Trainer")  # 1 tax symbol
    table.asset(s, 0, "Yakuza Loan")  # 2 tax symbols
    table.sign(s, 0, "Lemonade Empire", 1, [1])
    table.hand(s, 0, ["Windfall"])
    assert sells_in(g.legal_actions(s)) == {sell("Lemonade Empire")}
    g.apply_action(s, A.DONE)
    assert sells_in(g.legal_actions(s)) == {sell("Lemonade Empire")}
    g.apply_action(s, sell("Lemonade Empire"))
    assert sells_in(g.legal_actions(s)) == set()
    assert set(g.legal_actions(s)) == {play("Windfall"), A.DISCARD + KIND["Windfall"]}
    g.apply_action(s, play("Windfall"))
    # No business left: the roll comes at once, and no sale round is offered at tax time.
    assert s.phase == Phase.DICE
    roll(g, s, 0)
    assert s.phase == Phase.PAGE_DIE
    assert s.money[0] == 10 + 2 + 4 - 3
    assert s.lux_owner[LUX["Personal Trainer"]] == 0 and s.assets[0][KIND["Yakuza Loan"]] == 1
    check(g, s)


# Knock-outs -----------------------------------------------------------------------------------


@pytest.mark.rules("FR-OUT-1", "FR-OUT-2", "FR-DECIDE-2")
def test_a_player_who_cannot_pay_the_taxes_pays_what_they_have_and_is_out(table):
    g, s = begin(table)
    table.sign(s, 1, "Nail Salon", 1, [1])  # tax 1
    table.sign(s, 1, "Hot Dog Stand", 1, [2])  # tax 1
    table.asset(s, 1, "Billboard")
    table.hand(s, 1, ["Windfall", "Lawsuit", "Tornado Cleaners"])
    table.money(s, 1, 1)
    to_dice(g, s)
    roll(g, s, 0)
    assert s.actor == 1
    bank = s.to_bank
    g.apply_action(s, A.DONE)
    assert s.alive == [True, False, True, True]
    assert s.money == [10, 0, 10, 10] and s.to_bank == bank + 1  # the $1 they had went to the bank
    assert s.hand_n[1] == 0 and not any(s.hands[1]) and not any(s.assets[1])
    assert 1 not in s.owner and s.book[0][0] == s.book[0][1] == -1
    for name in ("Windfall", "Lawsuit", "Tornado Cleaners", "Billboard", "Nail Salon", "Hot Dog Stand"):
        assert s.discard[KIND[name]] == 1, name
    assert sum(s.discard) == 6
    assert s.phase == Phase.PAGE_DIE
    g.apply_action(s, 5)
    table.settle(g, s)
    assert s.turn == 2  # player 1 is skipped
    check(g, s)


@pytest.mark.rules("FR-OUT-1", "FR-DECIDE-2", "FR-DATA-3")
def test_lawsuit_knock_out_pays_the_creditor_what_they_have(table):
    g, s = begin(table)
    table.money(s, 1, 3)
    table.sign(s, 1, "Pet Spa", 1, [1, 2])
    table.hand(s, 0, ["Lawsuit", "Lawsuit"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Lawsuit"))
    assert set(g.legal_actions(s)) == {A.PLAYER + 0, A.PLAYER + 1, A.PLAYER + 2}
    g.apply_action(s, target(g, s, 1))
    assert s.alive == [True, False, True, True]
    assert s.money == [13, 0, 10, 10]  # all $3 went to player 0
    assert s.owner[KIND["Pet Spa"]] == NO_OWNER and s.discard[KIND["Pet Spa"]] == 1
    g.apply_action(s, play("Lawsuit"))
    assert set(g.legal_actions(s)) == {target(g, s, 2), target(g, s, 3)}  # not the player who is out
    check(g, s)


@pytest.mark.rules("FR-OUT-1", "FR-DECIDE-2", "FR-DATA-3")
def test_irs_audit_knock_out(table):
    g, s = begin(table)
    table.sign(s, 1, "Nail Salon", 1, [1])  # 2 symbols
    table.luxury(s, 1, "Personal Trainer")  # 1 symbol
    table.money(s, 1, 1)
    table.hand(s, 0, ["IRS Audit"])
    bank = s.to_bank
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("IRS Audit"))
    g.apply_action(s, target(g, s, 1))
    assert not s.alive[1] and s.money[1] == 0 and s.to_bank == bank + 1
    assert s.money == [10, 0, 10, 10]
    assert s.phase == Phase.AUCTION and s.lot == LUX["Personal Trainer"] and s.actor == 2
    check(g, s)


@pytest.mark.rules("FR-OUT-1", "FR-OUT-2", "FR-DECIDE-2", "FR-DECIDE-7")
def test_a_roller_who_cannot_pay_a_roller_hit_is_out_and_draws_nothing(table):
    g, s = begin(table)
    table.sign(s, 1, "Fortune Teller", 1, [3])  # the roller pays the owner $3
    table.hand(s, 0, ["Windfall", "Networking"])
    g.apply_action(s, A.DONE)
    table.act(g, s, "discard", KIND["Windfall"])
    table.act(g, s, "discard", KIND["Networking"])
    assert s.phase == Phase.DICE  # nothing to sell: the dice come at once
    table.money(s, 0, 1)
    roll(g, s, 3)
    assert s.alive == [False, True, True, True]
    assert s.money == [0, 11, 10, 10]  # the $1 went to the owner
    assert s.phase == Phase.PAGE_DIE
    deck = s.deck.n
    g.apply_action(s, 5)
    assert s.deck.n == deck and s.hand_n[0] == 0  # the turn ends; player 0 draws nothing
    assert s.turn == s.actor == 1 and s.phase == Phase.LUXURY
    check(g, s)


@pytest.mark.rules("FR-OUT-3")
def test_last_player_standing_wins_two_players(table):
    g, s = begin(table, n=2)
    table.money(s, 1, 2)
    table.hand(s, 0, ["Lawsuit"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Lawsuit"))
    assert not g.is_terminal(s)
    g.apply_action(s, A.PLAYER + 0)
    assert g.is_terminal(s) and s.phase == Phase.OVER and s.winner == 0
    assert g.returns(s) == [1.0, -1.0]
    assert s.money == [12, 0]
    check(g, s)


@pytest.mark.rules("FR-OUT-3", "FR-OUT-1")
def test_last_player_standing_wins_when_taxes_knock_out_the_others(table):
    g, s = begin(table, n=3)
    table.luxury(s, 1, "Personal Trainer")
    table.luxury(s, 2, "Designer Wardrobe")
    table.money(s, 1, 0)
    table.money(s, 2, 0)
    to_dice(g, s)
    roll(g, s, 0)
    assert g.is_terminal(s) and s.winner == 0
    assert g.returns(s) == [1.0, -1.0, -1.0]
    assert s.alive == [True, False, False]
    assert s.lux_owner[LUX["Personal Trainer"]] == REMOVED  # no one left to bid
    assert s.lux_owner[LUX["Designer Wardrobe"]] == REMOVED
    check(g, s)


@pytest.mark.rules("FR-OUT-3")
def test_the_game_goes_on_while_two_players_remain(table):
    g, s = begin(table, n=3)
    table.money(s, 1, 0)
    table.luxury(s, 1, "Personal Trainer")
    to_dice(g, s)
    roll(g, s, 0)
    assert s.alive == [True, False, True]
    assert not g.is_terminal(s) and g.returns(s) == [0.0, 0.0, 0.0]
    check(g, s)


# Auctions -------------------------------------------------------------------------------------


def knock_out_1_by_lawsuit(g, s, table, luxuries):
    """Player 0 sues player 1 (who has $0 and these luxuries) out of the game."""
    for name in luxuries:
        table.luxury(s, 1, name)
    table.money(s, 1, 0)
    table.hand(s, 0, ["Lawsuit", "Windfall"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Lawsuit"))
    g.apply_action(s, target(g, s, 1))
    assert not s.alive[1]


@pytest.mark.rules("FR-AUCT-1", "FR-AUCT-2", "FR-AUCT-3", "FR-AUCT-4", "FR-AUCT-5", "FR-DECIDE-4")
def test_auction_of_a_knocked_out_players_luxuries(table):
    g, s = begin(table)
    table.money(s, 3, 7)
    knock_out_1_by_lawsuit(g, s, table, ["Sports Car", "Personal Trainer"])  # $10 and $6
    assert s.money == [10, 0, 10, 7]

    # The cheapest first; the player on player 1's left opens.
    assert s.phase == Phase.AUCTION and s.lot == LUX["Personal Trainer"] and s.actor == 2
    assert s.lux_owner[LUX["Sports Car"]] == ON_AUCTION
    # Lowest bid: the printed $6; steps $0, $1, $2, $4 are within player 2's $10, $6 + $8 is not.
    assert set(g.legal_actions(s)) == {A.DONE, bid(0), bid(1), bid(2), bid(3)}
    g.apply_action(s, A.DONE)
    assert s.actor == 3
    assert set(g.legal_actions(s)) == {A.DONE, bid(0), bid(1)}  # $6, $7: $8 is beyond $7
    refused(g, s, bid(2))
    g.apply_action(s, A.DONE)
    assert s.actor == 0
    g.apply_action(s, bid(2))  # $8
    assert s.high == 8 and s.high_bidder == 0
    assert s.actor == 2  # player 2 passed before, and may still bid
    assert set(g.legal_actions(s)) == {A.DONE, bid(0), bid(1)}  # $9, $10
    g.apply_action(s, bid(0))  # $9
    # Player 3 cannot pay $10 and is passed without a decision.
    assert s.actor == 0
    assert set(g.legal_actions(s)) == {A.DONE, bid(0)}  # $10; $11 is beyond player 0's $10
    g.apply_action(s, A.DONE)
    assert s.lux_owner[LUX["Personal Trainer"]] == 2
    assert s.money == [10, 0, 1, 7]

    # Then the Sports Car ($10): players 2 and 3 cannot pay it and are passed; player 0 passes.
    assert s.phase == Phase.AUCTION and s.lot == LUX["Sports Car"] and s.actor == 0
    assert set(g.legal_actions(s)) == {A.DONE, bid(0)}
    g.apply_action(s, A.DONE)
    assert s.lux_owner[LUX["Sports Car"]] == REMOVED
    assert s.phase == Phase.ACTIONS and s.actor == 0 and s.actions_left == 1
    assert s.money == [10, 0, 1, 7]
    check(g, s)


@pytest.mark.rules("FR-AUCT-4", "FR-AUCT-5", "FR-DECIDE-4")
def test_a_luxury_nobody_bids_on_is_removed(table):
    g, s = begin(table)
    knock_out_1_by_lawsuit(g, s, table, ["Personal Trainer"])
    for p in (2, 3, 0):
        assert s.phase == Phase.AUCTION and s.actor == p
        g.apply_action(s, A.DONE)
    assert s.lux_owner[LUX["Personal Trainer"]] == REMOVED
    assert s.phase == Phase.ACTIONS and s.actor == 0
    assert A.LUXURY + LUX["Personal Trainer"] not in g.legal_actions(s)
    # On player 2's turn it is not for sale either.
    s.actions_left = 0
    to_dice(g, s)
    roll(g, s, 9)
    g.apply_action(s, 5)
    table.settle(g, s)
    assert s.turn == 2 and s.phase == Phase.LUXURY
    assert A.LUXURY + LUX["Personal Trainer"] not in g.legal_actions(s)
    assert A.LUXURY + LUX["Designer Wardrobe"] in g.legal_actions(s)
    check(g, s)


@pytest.mark.rules("FR-AUCT-2", "FR-DECIDE-4")
@pytest.mark.parametrize("step", range(len(A.BID_STEPS)))
def test_bid_actions_are_the_lowest_bid_plus_a_step(table, step):
    g, s = begin(table)
    for p in (0, 2, 3):
        table.money(s, p, 40)
    knock_out_1_by_lawsuit(g, s, table, ["Designer Wardrobe"])  # $8
    assert s.actor == 2
    g.apply_action(s, bid(step))
    g.apply_action(s, A.DONE)  # player 3
    g.apply_action(s, A.DONE)  # player 0
    assert s.lux_owner[LUX["Designer Wardrobe"]] == 2
    assert s.money[2] == 40 - (8 + A.BID_STEPS[step])
    check(g, s)


@pytest.mark.rules("FR-AUCT-4", "FR-DECIDE-4")
def test_a_raise_is_the_high_bid_plus_one_plus_a_step(table):
    g, s = begin(table)
    for p in (0, 2, 3):
        table.money(s, p, 40)
    knock_out_1_by_lawsuit(g, s, table, ["Personal Trainer"])
    g.apply_action(s, bid(1))  # player 2: $7
    g.apply_action(s, bid(3))  # player 3: $8 + $4 = $12
    g.apply_action(s, A.DONE)  # player 0
    g.apply_action(s, bid(0))  # player 2: $13
    g.apply_action(s, A.DONE)  # player 3
    assert s.phase == Phase.AUCTION  # player 0 has not passed since the last bid
    g.apply_action(s, A.DONE)
    assert s.lux_owner[LUX["Personal Trainer"]] == 2
    assert s.money == [40, 0, 27, 40]
    check(g, s)


@pytest.mark.rules("FR-AUCT-3")
@pytest.mark.parametrize(
    "n, out, dead, first_bidder",
    [
        (4, 1, None, 2),
        (4, 3, None, 0),
        (4, 1, 2, 3),  # seat 2 is already out: the next player still in
        (3, 2, None, 0),
        (5, 4, None, 0),
    ],
)
def test_the_player_on_the_knocked_out_players_left_bids_first(table, n, out, dead, first_bidder):
    g, s = begin(table, n=n)
    if dead is not None:
        s.alive[dead] = False
        table.money(s, dead, 0)
    table.luxury(s, out, "Personal Trainer")
    table.money(s, out, 0)
    table.hand(s, 0, ["Lawsuit"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Lawsuit"))
    g.apply_action(s, target(g, s, out))
    assert s.phase == Phase.AUCTION and s.actor == first_bidder
    order = []
    while s.phase == Phase.AUCTION:
        order.append(s.actor)
        g.apply_action(s, A.DONE)
    alive = [p for p in range(n) if s.alive[p]]
    assert sorted(order) == alive and len(order) == len(alive)
    assert order == [(first_bidder + i) % n for i in range(n) if s.alive[(first_bidder + i) % n]]
    check(g, s)


@pytest.mark.rules("FR-DECIDE-5", "FR-AUCT-1")
def test_a_third_luxury_won_at_auction_wins_at_once(table):
    g, s = begin(table)
    table.luxury(s, 2, "Designer Wardrobe")
    table.luxury(s, 2, "Sports Car")
    knock_out_1_by_lawsuit(g, s, table, ["Racehorse", "Personal Trainer"])
    assert s.lot == LUX["Personal Trainer"] and s.actor == 2
    g.apply_action(s, bid(0))
    g.apply_action(s, A.DONE)
    assert not g.is_terminal(s)
    g.apply_action(s, A.DONE)
    assert g.is_terminal(s) and s.winner == 2
    assert g.returns(s) == [-1.0, -1.0, 1.0, -1.0]
    assert s.money[2] == 4
    assert s.lux_owner[LUX["Racehorse"]] == REMOVED  # not auctioned: the game is over
    check(g, s)


@pytest.mark.rules("FR-DECIDE-4", "FR-AUCT-5")
def test_players_who_cannot_pay_the_lowest_bid_are_passed_without_a_decision(table):
    g, s = begin(table)
    table.money(s, 2, 5)
    table.money(s, 3, 40)
    knock_out_1_by_lawsuit(g, s, table, ["Personal Trainer"])  # $6: player 2 cannot pay it
    assert s.actor == 3  # player 2 never decides
    g.apply_action(s, A.DONE)
    assert s.actor == 0
    g.apply_action(s, bid(0))
    assert s.actor == 3  # player 2 is passed again; player 3 passed once and may still bid
    assert set(g.legal_actions(s)) == {A.DONE} | {bid(i) for i in range(6)}
    g.apply_action(s, A.DONE)
    assert s.lux_owner[LUX["Personal Trainer"]] == 0 and s.phase == Phase.ACTIONS
    assert s.money == [4, 0, 5, 40]
    check(g, s)


@pytest.mark.rules("FR-DECIDE-4", "FR-AUCT-5")
def test_a_luxury_no_one_can_pay_for_is_removed_without_a_decision(table):
    g, s = begin(table)
    for p in (0, 2, 3):
        table.money(s, p, 5)
    table.hand(s, 0, ["Lawsuit", "Windfall"])
    table.luxury(s, 1, "Personal Trainer")
    table.money(s, 1, 0)
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Lawsuit"))
    g.apply_action(s, target(g, s, 1))
    assert s.lux_owner[LUX["Personal Trainer"]] == REMOVED
    assert s.phase == Phase.ACTIONS and s.actor == 0 and s.actions_left == 1
    check(g, s)


# 0-roll payouts and the one-tax option ----------------------------------------------------------


@pytest.mark.rules("FR-DECIDE-6")
def test_zero_payouts_come_before_the_sale_round_and_the_taxes(table):
    g, s = begin(table)
    table.sign(s, 1, "Pawn Shop", 1, [9])  # each 0: $2; 1 tax symbol
    table.asset(s, 1, "Offshore Account")  # each 0: $2
    table.money(s, 1, 0)
    to_dice(g, s)
    roll(g, s, 0)
    assert s.phase == Phase.TAX_SELL and s.actor == 1
    assert s.money[1] == 4
    g.apply_action(s, A.DONE)
    assert s.alive[1] and s.money[1] == 3
    check(g, s)


@pytest.mark.rules("FR-OPT-1", "FR-TAX-3", "FR-DECIDE-6")
@pytest.mark.parametrize("one_tax, money", [(False, [6, 14, 14, 6]), (True, [8, 12, 12, 8])])
def test_two_zeros_pay_out_and_tax_twice_unless_one_tax_per_turn(table, one_tax, money):
    g, s = begin(table, one_tax_per_turn=one_tax)
    table.sign(s, 1, "Pawn Shop", 1, [9])  # each 0: $2 to player 1; 1 tax symbol
    table.asset(s, 1, "Offshore Account")  # each 0: $2 to player 1
    table.asset(s, 2, "Protection Racket")  # each 0: every other player pays player 2 $1; 1 tax symbol
    table.luxury(s, 0, "Personal Trainer")  # 1 tax symbol
    table.luxury(s, 3, "Designer Wardrobe")  # 1 tax symbol
    s.page = 1
    to_dice(g, s)
    roll(g, s, 0, 0)
    g.apply_action(s, A.DONE)  # player 1 sells nothing
    # Two 0s: player 1 +4 +4 -2 (racket) -2 (taxes); player 2 +6 -2; players 0 and 3 -2 (racket) -2.
    # One tax per turn: each of those once.
    assert s.money == money
    check(g, s)


# Card effects (FR-DATA-3) ---------------------------------------------------------------------


@pytest.mark.rules("FR-DATA-3")
def test_irs_audit_makes_the_target_pay_their_taxes_once(table):
    g, s = begin(table)
    table.sign(s, 2, "Riverboat Casino", 1, [1, 4])  # 2
    table.luxury(s, 2, "Personal Trainer")  # 1
    table.asset(s, 2, "Government Connections")  # -2
    table.asset(s, 2, "Yakuza Loan")  # 2
    table.hand(s, 0, ["IRS Audit", "Windfall"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("IRS Audit"))
    assert s.phase == Phase.TARGET and s.ask == Ask.PLAYER
    assert set(g.legal_actions(s)) == {A.PLAYER + 0, A.PLAYER + 1, A.PLAYER + 2}
    g.apply_action(s, target(g, s, 2))
    assert s.money == [10, 10, 7, 10] and s.to_bank == 3
    assert s.discard[KIND["IRS Audit"]] == 1 and s.phase == Phase.ACTIONS and s.actions_left == 1
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_business_scout_takes_a_business_card_from_the_discard_pile(table):
    g, s = begin(table)
    to_discard(s, "Tornado Cleaners")
    to_discard(s, "Pet Spa")
    to_discard(s, "Windfall")
    table.hand(s, 0, ["Business Scout"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Business Scout"))
    assert s.phase == Phase.TARGET and s.ask == Ask.SCOUT
    assert set(g.legal_actions(s)) == {burn("Tornado Cleaners"), burn("Pet Spa")}
    g.apply_action(s, burn("Tornado Cleaners"))
    assert s.hands[0][KIND["Tornado Cleaners"]] == 1 and s.hand_n[0] == 1
    assert s.discard[KIND["Tornado Cleaners"]] == 0 and s.discard[KIND["Pet Spa"]] == 1
    assert s.discard[KIND["Business Scout"]] == 1
    assert s.phase == Phase.ACTIONS and s.actions_left == 1
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_business_scout_draws_a_card_when_no_business_is_discarded(table):
    g, s = begin(table)
    to_discard(s, "Windfall")
    table.hand(s, 0, ["Business Scout"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Business Scout"))
    assert g.current_player(s) == CHANCE and s.draws == [0]
    first = next(k for k in range(C.NUM_KINDS) if s.deck[k])
    deck = s.deck.n
    table.settle(g, s)
    assert s.hand_n[0] == 1 and s.hands[0][first] == 1 and s.deck.n == deck - 1
    assert s.phase == Phase.ACTIONS and s.actor == 0 and s.actions_left == 1
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_mysterious_fire_burns_another_players_business(table):
    g, s = begin(table)
    table.sign(s, 0, "Lemonade Empire", 1, [9])
    table.sign(s, 1, "Tornado Cleaners", 1, [1, 4])
    table.sign(s, 2, "Pet Spa", 1, [2, 3])
    table.hand(s, 0, ["Mysterious Fire"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Mysterious Fire"))
    assert s.phase == Phase.TARGET and s.ask == Ask.BUSINESS
    assert set(g.legal_actions(s)) == {burn("Tornado Cleaners"), burn("Pet Spa")}  # not my own
    g.apply_action(s, burn("Tornado Cleaners"))
    assert s.owner[KIND["Tornado Cleaners"]] == NO_OWNER and s.book[0][0] == s.book[0][3] == -1
    assert s.discard[KIND["Tornado Cleaners"]] == 1 and s.discard[KIND["Mysterious Fire"]] == 1
    assert s.money == [10] * 4
    assert s.owner[KIND["Pet Spa"]] == 2 and s.owner[KIND["Lemonade Empire"]] == 0
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_mysterious_fire_needs_another_players_business(table):
    g, s = begin(table)
    table.sign(s, 0, "Lemonade Empire", 1, [9])
    table.hand(s, 0, ["Mysterious Fire"])
    g.apply_action(s, A.DONE)
    assert set(g.legal_actions(s)) == {sell("Lemonade Empire"), A.DISCARD + KIND["Mysterious Fire"]}
    refused(g, s, play("Mysterious Fire"))


@pytest.mark.rules("FR-DATA-3")
def test_fire_insurance_stops_the_next_fire_then_is_discarded(table):
    g, s = begin(table)
    table.sign(s, 1, "Tornado Cleaners", 1, [1, 4])
    table.asset(s, 1, "Fire Insurance")
    table.hand(s, 0, ["Mysterious Fire", "Mysterious Fire"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Mysterious Fire"))
    g.apply_action(s, burn("Tornado Cleaners"))
    assert s.owner[KIND["Tornado Cleaners"]] == 1 and s.book[0][0] == s.book[0][3] == KIND["Tornado Cleaners"]
    assert s.assets[1][KIND["Fire Insurance"]] == 0 and s.discard[KIND["Fire Insurance"]] == 1
    g.apply_action(s, play("Mysterious Fire"))
    g.apply_action(s, burn("Tornado Cleaners"))  # no insurance left
    assert s.owner[KIND["Tornado Cleaners"]] == NO_OWNER and s.discard[KIND["Tornado Cleaners"]] == 1
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_windfall_collects_4_from_the_bank(table):
    g, s = begin(table)
    table.hand(s, 0, ["Windfall"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Windfall"))
    assert s.money == [14, 10, 10, 10] and s.from_bank == 4
    assert s.discard[KIND["Windfall"]] == 1
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
@pytest.mark.parametrize("q", [1, 2, 3])
def test_lawsuit_makes_the_chosen_player_pay_4(table, q):
    g, s = begin(table)
    table.hand(s, 0, ["Lawsuit"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Lawsuit"))
    g.apply_action(s, target(g, s, q))
    want = [14, 10, 10, 10]
    want[q] = 6
    assert s.money == want and s.from_bank == s.to_bank == 0
    assert s.discard[KIND["Lawsuit"]] == 1
    check(g, s)


@pytest.mark.rules("FR-DATA-3", "FR-DICE-4")
def test_advertising_blitz_rolls_one_more_die(table):
    g, s = begin(table)
    table.sign(s, 1, "Lemonade Empire", 1, [1])  # $2 a hit
    table.hand(s, 0, ["Advertising Blitz"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Advertising Blitz"))
    assert s.discard[KIND["Advertising Blitz"]] == 1
    to_dice(g, s)  # page 1: one die, plus one
    g.apply_action(s, 1)
    assert s.phase == Phase.DICE
    g.apply_action(s, 1)
    assert s.phase == Phase.PAGE_DIE
    assert s.money == [10, 14, 10, 10]
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_page_turner_turns_to_the_chosen_page(table):
    g, s = begin(table)
    table.hand(s, 0, ["Page Turner"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Page Turner"))
    assert s.phase == Phase.TARGET and s.ask == Ask.PAGE
    assert set(g.legal_actions(s)) == {A.PAGE + 1, A.PAGE + 2, A.PAGE + 3}
    g.apply_action(s, A.PAGE + 2)
    assert s.page == 2 and s.phase == Phase.DICE  # nothing left to do: the roll, on page 3
    roll(g, s, 9, 9)
    assert s.phase == Phase.DICE  # three dice on page 3
    roll(g, s, 9)
    assert s.phase == Phase.PAGE_DIE
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_networking_draws_3_cards(table):
    g, s = begin(table)
    table.hand(s, 0, ["Networking"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Networking"))
    assert s.draws == [0, 0, 0]
    deck = s.deck.n
    table.settle(g, s)
    assert s.hand_n[0] == 3 and s.deck.n == deck - 3 and s.discard[KIND["Networking"]] == 1
    assert s.phase == Phase.ACTIONS and s.actions_left == 1
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_yakuza_loan_pays_12_and_carries_2_tax_symbols(table):
    g, s = begin(table)
    table.hand(s, 0, ["Yakuza Loan"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Yakuza Loan"))
    assert s.money[0] == 22 and s.assets[0][KIND["Yakuza Loan"]] == 1
    assert g.tax_symbols(s, 0) == 2
    roll(g, s, 0)
    assert s.money[0] == 20
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_protection_racket_collects_1_from_every_other_player_per_zero(table):
    g, s = begin(table)
    table.hand(s, 0, ["Protection Racket"])
    s.page = 1
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Protection Racket"))  # $6
    assert s.money[0] == 4 and s.assets[0][KIND["Protection Racket"]] == 1
    roll(g, s, 0, 0)
    # +$1 from each of three players per 0, and its own tax symbol per 0.
    assert s.money == [4 + 6 - 2, 8, 8, 8]
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
@pytest.mark.parametrize(
    "signs, paid",
    [([("Riverboat Casino", [1, 4]), ("Hot Dog Stand", [3])], 1), ([("Hot Dog Stand", [3])], 0)],  # 3 - 2 and max(0, 1 - 2)
)
def test_government_connections_cut_2_tax_symbols(table, signs, paid):
    g, s = begin(table)
    for name, slots in signs:
        table.sign(s, 0, name, 1, slots)
    table.hand(s, 0, ["Government Connections"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Government Connections"))  # $7
    assert s.money[0] == 3
    g.apply_action(s, A.DONE)
    roll(g, s, 0)
    g.apply_action(s, A.DONE)
    assert s.money[0] == 3 - paid
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_offshore_account_collects_2_per_zero(table):
    g, s = begin(table)
    table.hand(s, 0, ["Offshore Account"])
    s.page = 2
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Offshore Account"))  # $6
    assert s.money[0] == 4
    roll(g, s, 0, 5, 0)
    assert s.money == [8, 10, 10, 10]
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_billboard_pays_1_more_per_hit_on_your_businesses(table):
    g, s = begin(table)
    table.sign(s, 0, "Lemonade Empire", 1, [1])  # $2
    table.sign(s, 1, "Shoe Shine Kiosk", 1, [2])  # $2
    table.hand(s, 0, ["Billboard"])
    s.page = 2
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Billboard"))  # $6
    g.apply_action(s, A.DONE)
    roll(g, s, 1, 1, 2)
    assert s.money == [4 + 2 * 3, 12, 10, 10]
    check(g, s)


@pytest.mark.rules("FR-DATA-3")
def test_stock_portfolio_pays_2_at_the_start_of_each_of_your_turns(table):
    g, s = begin(table, n=2)
    table.hand(s, 0, ["Stock Portfolio"])
    g.apply_action(s, A.DONE)
    g.apply_action(s, play("Stock Portfolio"))  # $6
    assert s.money == [4, 10]
    roll(g, s, 9)
    g.apply_action(s, 5)
    table.settle(g, s)
    assert s.turn == 1 and s.money == [4, 10]  # not on player 1's turn
    table.hand(s, 1, [])
    to_dice(g, s)
    roll(g, s, 9)
    g.apply_action(s, 5)
    table.settle(g, s)
    assert s.turn == 0 and s.money == [6, 10]
    check(g, s)


# The three kinds of business hit (FR-DATA-3: the card texts of cards.py) -------------------------


@pytest.mark.rules("FR-DATA-3", "FR-DICE-3")
def test_bank_hit_pays_the_owner_from_the_bank(table):
    g, s = begin(table)
    table.sign(s, 1, "Chapter 11 Books", 1, [4])  # BANK, $3
    to_dice(g, s)
    roll(g, s, 4)
    assert s.money == [10, 13, 10, 10] and s.from_bank == 3
    check(g, s)


@pytest.mark.rules("FR-DATA-3", "FR-DICE-3")
@pytest.mark.parametrize("owner, money", [(1, [6, 14, 10, 10]), (0, [14, 10, 10, 10])])
def test_roller_hit_is_paid_by_the_roller_or_by_the_bank_on_your_own_roll(table, owner, money):
    g, s = begin(table)
    table.sign(s, owner, "Fortune Teller", 1, [4])  # ROLLER, $4
    to_dice(g, s)
    roll(g, s, 4)
    assert s.money == money
    assert s.from_bank == (4 if owner == 0 else 0)
    check(g, s)


@pytest.mark.rules("FR-DATA-3", "FR-DICE-3", "FR-DECIDE-6")
def test_tax_man_hit_pays_per_hit_and_per_zero(table):
    g, s = begin(table)
    table.sign(s, 1, "Pawn Shop", 1, [4])  # TAX_MAN: $3 a hit, $2 a 0; 1 tax symbol
    s.page = 2
    to_dice(g, s)
    roll(g, s, 4, 0, 0)
    assert s.phase == Phase.TAX_SELL and s.actor == 1
    assert s.money[1] == 10 + 3 + 2 * 2
    g.apply_action(s, A.DONE)
    assert s.money == [10, 15, 10, 10]
    check(g, s)


@pytest.mark.rules("FR-DECIDE-8", "FR-DECIDE-6", "FR-AUCT-1")
@pytest.mark.parametrize("cause", ["roller hit", "racket dues"])
def test_when_the_luxuries_of_a_knocked_out_roller_are_auctioned(table, cause):
    """Player 0, the roller, is knocked out holding Personal Trainer; a 0 is rolled. Out by a
    Fortune Teller hit, the luxury is auctioned before the selling round and the taxes, so its buyer
    pays its tax symbol in this roll. Out by Protection Racket dues (paid after the selling round), it
    is auctioned after the taxes."""
    g, s = begin(table)
    table.luxury(s, 0, "Personal Trainer")
    if cause == "roller hit":
        table.sign(s, 1, "Fortune Teller", 1, [3])  # the roller pays $4; tax 1
        to_dice(g, s)
        table.money(s, 0, 1)
        s.page = 1  # two dice
        roll(g, s, 3, 0)
    else:
        table.asset(s, 1, "Protection Racket")  # tax 1
        to_dice(g, s)
        table.money(s, 0, 0)
        roll(g, s, 0)
    assert s.alive == [False, True, True, True]
    assert s.phase == Phase.AUCTION and s.actor == 1
    g.apply_action(s, bid(0))  # $6, the printed price
    g.apply_action(s, A.DONE)
    g.apply_action(s, A.DONE)
    if cause == "roller hit":
        assert s.phase == Phase.TAX_SELL and s.actor == 1  # the selling round comes after the auction
        g.apply_action(s, A.DONE)
        # $10 + $1 from the roller - $6 - taxes: Fortune Teller 1 + Personal Trainer 1.
        assert s.money[1] == 10 + 1 - 6 - 2
    else:
        # $10 + $1 each from players 2 and 3 - tax on the Racket 1 (taxes before the auction) - $6.
        assert s.money[1] == 10 + 2 - 1 - 6
    assert s.phase == Phase.PAGE_DIE
    check(g, s)
