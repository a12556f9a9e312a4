"""Filthy Rich rules as data: stable rule ID -> one-line statement.

The law is shared/rulebooks/filthy_rich.txt. IDs FR-DATA-* and FR-DECIDE-* state our
reconstructions and our readings of gaps (see the game README); they are decisions, not the rulebook's.
tests/filthy_rich/test_rules*.py check each ID with @pytest.mark.rules("ID").
"""

RULES: dict[str, str] = {
    # Components and set-up
    "FR-COMP-1": "The game has 22 business signs, 12 luxuries and 73 Filthy Rich cards (actions, assets, businesses).",
    "FR-COMP-2": "The book has four pages of nine slots numbered 1-9; page 4 is on top, page 1 at the bottom.",
    "FR-SETUP-1": "Each player is dealt 5 Filthy Rich cards from the shuffled deck.",
    "FR-SETUP-2": "Each player starts with $10.",
    "FR-SETUP-3": "Play begins on page 1.",
    "FR-SETUP-4": "The first player is decided (at random).",
    "FR-SETUP-5": "Signs and luxuries lie face up: any luxury may be bought, in any order.",
    # The book
    "FR-BOOK-1": "A sign in a slot is visible from the current page if no sign lies over it on a page between it "
    "and the current page; pages above the current page do not count.",
    "FR-BOOK-2": "A sign covered by another sign is not visible.",
    "FR-BOOK-3": "Of a multi-card sign, the visible cards count as visible and the covered ones do not.",
    # Turn
    "FR-TURN-1": "Players take turns clockwise.",
    "FR-TURN-2": "A turn is: buy a luxury (optional), take two actions, roll the dice, draw back to 5 cards.",
    # Luxuries
    "FR-LUX-1": "At the beginning of the turn the player may buy any one available luxury, paying its price to the bank.",
    "FR-LUX-2": "A player who buys their third luxury wins the game at once.",
    "FR-LUX-3": "Buying a luxury is optional.",
    # Actions
    "FR-ACT-1": "The player must take two actions, each playing a card or discarding one.",
    "FR-ACT-2": "Discarding a card from the hand collects $1 from the bank; the card goes face up on the discard pile.",
    "FR-ACT-3": "An action card's instructions are followed and the card goes face up on the discard pile.",
    "FR-ACT-4": "An asset card's cost is paid to the bank and it stays on the table, active for the rest of the game "
    "unless it says otherwise.",
    "FR-ACT-5": "A business card's launch cost is paid to the bank and the card goes on the table in front of its owner.",
    # Signs
    "FR-SIGN-1": "A business's sign is placed in empty slots of the current page.",
    "FR-SIGN-2": "The sign keeps the configuration shown on its business card (Tornado Cleaners: one card above the "
    "other, e.g. slots 1 and 4, 2 and 5, 6 and 9).",
    "FR-SIGN-3": "A business cannot be opened if the current page lacks empty slots for its sign.",
    "FR-SIGN-4": "A business cannot be opened if its sign is already in the book.",
    "FR-SIGN-5": "Opening a business over other players' visible signs costs a covering fee of $2 per covered space, "
    "paid to their owners.",
    "FR-SIGN-6": "Only signs visible before being covered earn a covering fee (the rulebook's page 3/2/1 example).",
    "FR-SIGN-7": "Covering your own sign costs nothing.",
    # Dice
    "FR-DICE-1": "The player rolls as many business dice as the page number (1-4).",
    "FR-DICE-2": "A business die matching a slot number hits the business whose sign is visible in that slot.",
    "FR-DICE-3": "Each hit follows the business card's instructions (typically the owner earns money).",
    "FR-DICE-4": "Each die is a separate hit: two dice on one sign, or on two visible cards of one sign, hit it twice.",
    "FR-DICE-5": "Every 0 rolled makes everyone pay taxes; hits are settled before taxes.",
    "FR-DICE-6": "After hits and taxes the page die is rolled: 1-4 turn to that page, 5-6 stay on the same page.",
    # Draw
    "FR-DRAW-1": "At the end of the turn the player draws back to 5 cards.",
    "FR-DRAW-2": "When the deck runs out, the discard pile is reshuffled into a new deck.",
    # Taxes
    "FR-TAX-1": "When a 0 is rolled, every player first gets a chance to sell businesses, in turn order from the "
    "player whose turn it is.",
    "FR-TAX-2": "Then every player pays the bank $1 per tax symbol on their businesses, luxuries and assets.",
    "FR-TAX-3": "Taxes are paid once for each 0 rolled (the rulebook's example: 3 symbols, $3 for one 0, $6 for two).",
    "FR-TAX-4": "Businesses sold before taxes are not taxed.",
    # Selling
    "FR-SELL-1": "A business sells for $2 per sign card, all of it: its card goes to the discard pile and its sign "
    "leaves the book.",
    "FR-SELL-2": "A player may sell businesses at any time during their own turn before the roll, and at tax time, "
    "but not otherwise.",
    "FR-SELL-3": "Only businesses can be sold, not luxuries or assets.",
    # Knock-outs
    "FR-OUT-1": "A player who must pay money and cannot pay it all is out of the game.",
    "FR-OUT-2": "A knocked-out player's cards are discarded and their signs leave the book.",
    "FR-OUT-3": "When all players but one are out, the remaining player wins.",
    # Auctions
    "FR-AUCT-1": "A knocked-out player's luxuries are auctioned, cheapest first.",
    "FR-AUCT-2": "The minimum bid is the luxury's printed price.",
    "FR-AUCT-3": "The player on the knocked-out player's left bids or passes first, then clockwise.",
    "FR-AUCT-4": "Bidding goes on until all players have passed; a player who passed may still bid later.",
    "FR-AUCT-5": "A luxury nobody bids on is removed from the game.",
    # Options
    "FR-OPT-1": "Fan variant (option one_tax_per_turn, off by default): only the first 0 rolled each turn triggers "
    "taxes and 0-roll payouts.",
    # Our readings and reconstructions
    "FR-DATA-1": "The 73 cards are 26 business cards (22 businesses; four single-card ones have 2 cards), 25 action cards "
    "and 22 asset cards, as listed in cards.py; every sign has 1-4 cards and fits a 3x3 page.",
    "FR-DATA-2": "The 12 luxuries are a price ladder from Personal Trainer ($6) to Space Shuttle ($45) with 1-3 tax symbols.",
    "FR-DATA-3": "Each action and asset card does what its text in cards.py says.",
    "FR-DECIDE-1": "A business or asset may be played only if its owner can pay the whole cost, covering fees included.",
    "FR-DECIDE-2": "A player who cannot pay a debt in full pays all their money to the creditor, then is out.",
    "FR-DECIDE-3": "The end-of-turn draw brings the hand back to 5 cards (none if it already has 5 or more); when the "
    "deck and discard pile are both empty, the draw stops.",
    "FR-DECIDE-4": "A bid must be one the bidder can pay; a player who cannot pay the lowest bid passes; the auction "
    "ends when all the others pass in a row after a bid, or all pass with no bid.",
    "FR-DECIDE-5": "A player whose third luxury comes from an auction wins at once.",
    "FR-DECIDE-6": "0-roll payouts from the bank (Pawn Shop, Bowling Alley, Law Firm, Offshore Account) are settled "
    "with the hits, before the selling round; Protection Racket dues are paid after the selling round, before the taxes.",
    "FR-DECIDE-7": "A knocked-out current player's turn ends after the roll; they draw nothing.",
    "FR-DECIDE-8": "The luxuries of a player knocked out during the hits are auctioned before the selling round and "
    "the taxes; a player with no business left is not asked to sell.",
}
