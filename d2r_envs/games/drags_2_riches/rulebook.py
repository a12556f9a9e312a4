"""Drags 2 Riches rules as data: stable rule ID -> one-line statement.

The law is shared/rulebooks/drags2riches.txt. IDs D2R-DATA-* and D2R-DECIDE-* state our
reconstructions and our readings of gaps (see the game README); they are decisions, not the rulebook's.
tests/drags_2_riches/test_rules*.py check each ID with @pytest.mark.rules("ID").
"""

RULES: dict[str, str] = {
    # Components and set-up
    "D2R-COMP-1": "The box holds 75 Wardrobe cards, 25 Starter cards, 15 Event cards, 15 Coin cards and 8 Character cards.",
    "D2R-COMP-2": "Starter cards have value 1: one each of Outfit, Hair, Heels, Makeup and Accessories per player; "
    "Coin cards are Silver (1) and Gold (2).",
    "D2R-SETUP-1": "Each player's starting deck is one Starter of each of the five types, 1 Gold and 2 Silver, "
    "shuffled into their Wardrobe; unused starting cards go back to the box.",
    "D2R-SETUP-2": "The Wardrobe cards are shuffled into a draw pile and 8 are laid out face up as the Market.",
    "D2R-SETUP-3": "The Event cards form decks I, II and III, each shuffled; a Shopping Spree goes to the bottom of "
    "decks I and II and the Sell-Out Tour to the bottom of deck III; I is on top of II on top of III.",
    "D2R-SETUP-4": "The introductory game uses decks I and II only.",
    "D2R-SETUP-5": "A random player takes the First Player token.",
    # Rounds
    "D2R-ROUND-1": "A round starts by turning over a new Event card.",
    "D2R-ROUND-2": "Each player draws a hand of 5 from their Wardrobe before the first round.",
    "D2R-ROUND-3": "Beginning with the first player, each player takes a turn: Playing, Werk, Untucking.",
    "D2R-ROUND-4": "At the end of the round the First Player token passes to the left.",
    # Playing Phase
    "D2R-PLAY-1": "A player plays as many cards as they like, each either Activated (face up, its action) or Worn "
    "(face down in the Look), never both; unplayed cards are discarded at Untucking.",
    "D2R-PLAY-2": "Coin cards cannot be Worn.",
    "D2R-PLAY-3": "A Look holds at most one card of each type (Hair, Outfit, Heels, Makeup, Accessories).",
    "D2R-PLAY-4": "A card worn into a filled slot replaces it; the replaced card goes to the Floordrobe.",
    "D2R-PLAY-5": "An activated card's whole action is performed.",
    "D2R-PLAY-6": "A worn card gives neither its action nor its coin symbols.",
    # Shade
    "D2R-SHADE-1": "A player using a Shade card shows it and picks the target player.",
    "D2R-SHADE-2": "The target may reveal a Block Shade card from their hand: the Shade effect is negated and the "
    "Block Shade card stays in their hand.",
    "D2R-SHADE-3": "A blocked Shade card's other actions still work for the attacker.",
    "D2R-SHADE-4": "A target who does not block suffers the Shade in full.",
    "D2R-SHADE-5": "Reverse Shade blocks the Shade and reverses its effect onto the attacker.",
    "D2R-SHADE-6": "A reversed effect that cannot be completed on the attacker's current hand waits until they "
    "have drawn a new hand.",
    # Werk Phase
    "D2R-WERK-1": "Coins to spend are the coin symbols of the cards activated this turn.",
    "D2R-WERK-2": "A player may buy any number of Market cards they can afford; a card's cost is its Look value.",
    "D2R-WERK-3": "A Market space is refilled from the draw pile as soon as its card is taken.",
    "D2R-WERK-4": "Purchased cards go to the Floordrobe and are not played this turn.",
    "D2R-WERK-5": "Once buying starts, no more cards are played this turn.",
    # Untucking
    "D2R-UNTUCK-1": "Activated cards and the cards left in hand go to the Floordrobe.",
    "D2R-UNTUCK-2": "The player draws 5 from their Wardrobe; if it runs out they Dry Clean (shuffle the Floordrobe "
    "into a new Wardrobe) and draw the rest.",
    "D2R-UNTUCK-3": "The Floordrobe is never Dry Cleaned until the Wardrobe is entirely empty.",
    "D2R-UNTUCK-4": "Worn Look cards stay where they are until revealed.",
    # Event Phase
    "D2R-EVENT-1": "Only players with cards in their Look may compete for the Event.",
    "D2R-EVENT-2": "Players declare thumbs up or down simultaneously: no choice is visible to others until all have chosen.",
    "D2R-EVENT-3": "Players with thumbs up reveal their Look; its value is the sum of its cards' Look values; the "
    "highest value wins the Event card.",
    "D2R-EVENT-4": "Ties are decided by the first player.",
    "D2R-EVENT-5": "All revealed Looks are discarded to the Floordrobe, whether they won or lost.",
    "D2R-EVENT-6": "Players who did not compete keep their Look hidden and in play for a later round.",
    "D2R-EVENT-7": "An Event nobody competes for is trashed (removed from play).",
    "D2R-EVENT-8": "Worked example: a Look worth 5 (Hair 1, Makeup 2, Accessories 2) loses to a Look worth 8.",
    # Special events and the end
    "D2R-SPREE-1": "Shopping Spree: every player draws 2 extra cards at the start of their turn; there is no Event "
    "Phase; the card is discarded and the token passes as normal.",
    "D2R-SELLOUT-1": "Sell-Out Tour: cards bought this round can be Activated or Worn straight away.",
    "D2R-END-1": "The game ends when the Sell-Out Tour is resolved.",
    "D2R-END-2": "The winner has the most prestige from Events; ties go to more Event cards; otherwise joint winners.",
    # Glossary
    "D2R-GLOSS-BORROW": "Borrow: take another player's card (at random unless specified) into your Floordrobe.",
    "D2R-GLOSS-DISCARD": "Discard: the card goes to its owner's Floordrobe; another player's card is discarded at random.",
    "D2R-GLOSS-DRAW": "Draw: take a card from your Wardrobe (Dry Cleaning if it is empty).",
    "D2R-GLOSS-LEND": "Lend: give a card from your hand to another player's Floordrobe.",
    "D2R-GLOSS-PEEK": "Peek: privately view the specified cards.",
    "D2R-GLOSS-RETURN": "Return: bring a card of up to the stated value from your Floordrobe to the stated place.",
    "D2R-GLOSS-TRASH": "Trash: the card is removed from the game.",
    "D2R-GLOSS-FLOOR": "The Floordrobe is face up and not hidden information.",
    # Hidden information
    "D2R-HIDDEN-1": "A player sees their own hand and Look but not others' hands, Wardrobes or worn cards (only "
    "which slots are filled), nor any Wardrobe's order.",
    "D2R-HIDDEN-2": "What a Peek showed is seen only by the player who peeked.",
    # Optional rules
    "D2R-OPT-LMA": "Last Minute Additions: before the Event Phase, in turn order, players may add cards from their "
    "new hand to their Look; those cards are not replaced.",
    "D2R-OPT-CATEGORY": "Category Is: the first player judges a tie and awards the Event to one of the tied players.",
    "D2R-OPT-THRIFT": "Thrifting: a player who cannot afford any Market card may take a cheapest one for free.",
    "D2R-OPT-CHAR": "Characters: each player chooses a Character; its action is usable once per game, on their own "
    "turn unless it says otherwise.",
    "D2R-CHAR-KELISHA": "Kelisha Keys: when receiving Shade, block it and reverse the effect onto the shady player.",
    "D2R-CHAR-GLAM": "Glam Stoker: at any time before Looks are revealed, +2 to your Look this round.",
    "D2R-CHAR-FELICIA": "Bi Felicia: trash 3 cards from your Floordrobe.",
    "D2R-CHAR-CATASTROPHOEBE": "Catastrophoebe: take the highest value card from the Market.",
    "D2R-CHAR-SHESSICA": "Shessica: double one Look type's value for yourself and one other player of your choice.",
    "D2R-CHAR-KENYA": "Kenya Feelit: choose a Look type; it is worth 0 for every other player this round (reconstructed ending).",
    "D2R-CHAR-HO": "Ho Couture: +1 to each card in your Look this round (reconstructed).",
    "D2R-CHAR-CHEEKS": "Cheeks Illustra: draw 3 cards (reconstructed).",
    # Our decisions on the rulebook's gaps
    "D2R-DECIDE-TIE": "Default tie-break: the tied player nearest the first player in seat order (the first player "
    "first, then to their left) wins.",
    "D2R-DECIDE-INTRO": "The introductory game ends with the Sell-Out Tour in place of deck II's Shopping Spree.",
    "D2R-DECIDE-REACT": "Block Shade and Reverse Shade cards are shown, not played: both stay in the hand; a reversed "
    "Peek lets the target see the attacker's hand and Borrow one card of it.",
    "D2R-DECIDE-SELLOUT": "In the Sell-Out Tour, bought cards go to the hand and buying does not end the Playing Phase.",
    "D2R-DATA-WARDROBE": "The 75 Wardrobe cards follow one template per type: values 2x5, 3x4, 4x3, 5x2, 6x1, with "
    "coins, Draw, Return, Lend, two Shades, a Block Shade and a Reverse Shade (reconstructed).",
    "D2R-DATA-EVENTS": "The 15 Event cards are 12 contests (4 per deck, prestige 3-11) plus 2 Shopping Sprees and "
    "the Sell-Out Tour (12 prestige).",
}
