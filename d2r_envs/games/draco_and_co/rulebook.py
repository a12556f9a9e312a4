"""Draco & Co rules as data: stable rule ID -> one-line statement.

The law is shared/rulebooks/draco_and_co.txt. IDs DRACO-CARD-* state the card effects that
cards.py reconstructs (the rulebook gives no card list); they are our decisions, not the rulebook's.
tests/draco_and_co/test_rules.py checks each ID with @pytest.mark.rules("ID").
"""

RULES: dict[str, str] = {
    # Components
    "DRACO-COMP-1": "The box holds 6 castle colours, 12 player characters (2 per colour), 3 special characters "
    "(Aunt Sarah, Brother John, Zork), Draco, 74 action cards, 1 six-sided die, 1 cup, 20 silver and 25 gold coins.",
    # Set-up
    "DRACO-SETUP-1": "3 players use green, purple, yellow; 4 add red; 5 add blue; 6 add black (seat i plays colour i).",
    "DRACO-SETUP-2": "The characters of the colours not in play are removed: the circle holds the players' "
    "2 characters each plus the 3 special characters.",
    "DRACO-SETUP-3": "Those characters are shuffled and laid out in a circle following Draco, first place "
    "being next to his preferred (cup) side.",
    "DRACO-SETUP-4": "The action cards are shuffled and each player is dealt 5; the rest form the draw pile.",
    "DRACO-SETUP-5": "Each player receives one gold coin; the remaining coins form the bank.",
    "DRACO-SETUP-6": "The first player is chosen at random; the player to their right (the last player) takes the cup.",
    "DRACO-HIDDEN-1": "A player's hand always remains hidden from the other players.",
    # Wealth
    "DRACO-WEALTH-1": "A player's fortune is always visible to everyone.",
    "DRACO-WEALTH-2": "One gold coin is worth three silver coins; the bank makes change whenever necessary.",
    "DRACO-WEALTH-3": "A player who must pay more than they have pays what they can and is excused from the rest.",
    # Characters
    "DRACO-CHAR-1": "'Character' means any character including the three specials but never Draco.",
    "DRACO-CHAR-2": "'Player characters' are those of the players' colours (plus Aunt Sarah after Old Friendship); "
    "each is controlled by the player of its colour.",
    # Turn
    "DRACO-TURN-1": "Players take turns clockwise, starting with the first player.",
    "DRACO-TURN-2": "A turn is: play an action card (mandatory), propose a toast (optional), draw a card (mandatory).",
    # Playing a card
    "DRACO-PLAY-1": "The played card's action is carried out, then the card is discarded face up "
    "next to the draw pile.",
    "DRACO-PLAY-2": "Only cards bearing the dragon symbol affect Draco.",
    "DRACO-PLAY-3": "When a card does not say which character, how far or which way, the player who plays it decides.",
    "DRACO-PLAY-4": "When a die decides a movement, the player chooses the character before rolling.",
    # Movement
    "DRACO-MOVE-1": "Forward means toward Draco's preferred side; moving forward k places jumps over the k "
    "characters ahead (backward: the reverse).",
    "DRACO-MOVE-2": "Nobody passes Draco: a forward move stops in first place, a backward move stops in last place.",
    "DRACO-MOVE-3": "The other characters shift to keep a regular arrangement (their relative order is kept).",
    "DRACO-MOVE-4": "When several characters must move and the card gives no order, the player who plays it "
    "chooses the order.",
    # Toast
    "DRACO-TOAST-1": "A toast may be proposed only while the cup is in the centre; nobody must propose one.",
    "DRACO-TOAST-2": "At a toast the first four places receive 4, 3, 2 and 1 silver.",
    "DRACO-TOAST-3": "At a toast the last place pays 2 silver to the bank and the second-to-last pays 1.",
    "DRACO-TOAST-4": "At a toast the players controlling the player characters next to Aunt Sarah draw a card "
    "each; a player controlling both neighbours draws two.",
    "DRACO-CUP-1": "The proposer takes the cup and returns it to the centre after playing on their next turn.",
    "DRACO-CUP-2": "The set-up cup goes back to the centre at the end of the last player's first turn, so no "
    "toast can happen in the first round.",
    # Drawing
    "DRACO-DRAW-1": "The draw phase takes the top card of the draw pile into the hand.",
    "DRACO-DRAW-2": "Hand sizes may grow or shrink away from five through Aunt Sarah and the cards.",
    # End
    "DRACO-END-1": "Drawing the last card of the draw pile shuffles the discard pile into a new draw pile.",
    "DRACO-END-2": "After that, the game goes on until a player proposes a toast; that toast is the final one.",
    "DRACO-END-3": "The richest player after the final toast wins.",
    "DRACO-TIE-1": "Players tied for richest eliminate each other and the next richest player wins.",
    "DRACO-TIE-2": "If all players are tied, Draco wins and all players lose.",
    # Special characters
    "DRACO-DRACO-1": "Draco never receives, pays or draws; he sits outside the circle of places.",
    "DRACO-ZORK-1": "Zork receives nothing at a toast, even in the first four places.",
    "DRACO-ZORK-2": "Zork pays double at a toast (4 in last place, 2 in second-to-last) and the richest player "
    "pays for him.",
    "DRACO-ZORK-3": "If no single player is richest (a tie for richest), nobody pays for Zork.",
    "DRACO-JOHN-1": "Money Brother John receives goes to the character in the next place "
    "(John 2nd: the 3rd place gets 3 + 2 = 5).",
    "DRACO-JOHN-2": "When Brother John must pay, the character in the preceding place pays for him if it is "
    "Zork or a player character; otherwise nobody does.",
    "DRACO-JOHN-3": "Worked example: John last and Zork second-to-last: the richest player pays 2 + 2x1 = 4.",
    "DRACO-SARAH-1": "Aunt Sarah neither receives nor pays (nor draws) unless Old Friendship was played.",
    "DRACO-SARAH-2": "Old Friendship makes Aunt Sarah a player character of the player who played it: "
    "her gains and payments are theirs.",
    "DRACO-SARAH-3": "After Old Friendship Aunt Sarah still makes her neighbours' controllers draw at a toast.",
    # Variants
    "DRACO-VARIANT-1": "Shorter game: remove the last 10 or 20 action cards from the draw pile.",
    "DRACO-VARIANT-2": "Longer game: the game ends only after the draw pile has been exhausted for the second time.",
    # Card effects (our reconstruction of the 74 cards, see cards.py and README.md)
    "DRACO-CARD-CATALOGUE": "The 74 cards are the kinds in cards.CATALOGUE, each with a provenance "
    "(rulebook, found, reconstructed); movement cards are the majority.",
    "DRACO-CARD-CLASSES": "Each colour's two characters have the classes found for it (amazon, goblin, rogue, dwarf).",
    "DRACO-CARD-MOVE": "MOVE: the chosen character moves the printed number of places (+ forward, - backward).",
    "DRACO-CARD-MOVE-DIE": "MOVE_DIE: choose a character, roll the die, move it that many places.",
    "DRACO-CARD-MOVE-GROUP": "MOVE_GROUP: every character of the group moves, in the order the player chooses.",
    "DRACO-CARD-SWAP": "SWAP: two chosen characters exchange places.",
    "DRACO-CARD-DRACO-FLIP": "DRACO_FLIP (dragon): Draco changes hands; the order of places reverses.",
    "DRACO-CARD-DRACO-MOVE": "DRACO_MOVE (dragon): Draco moves k places in the chosen direction; the first k "
    "become last, or the last k become first.",
    "DRACO-CARD-STEAL": "STEAL: take the printed silver from a player of your choice (what they have).",
    "DRACO-CARD-GAIN": "GAIN: take the printed silver from the bank.",
    "DRACO-CARD-PAY": "PAY: pay the printed silver to the bank (what you can).",
    "DRACO-CARD-GAMBLE": "GAMBLE: roll the die; 1-3 pay 1 silver, 4-6 take 2 silver from the bank.",
    "DRACO-CARD-DRAW": "DRAW: draw the printed number of action cards.",
    "DRACO-CARD-OLD-FRIENDSHIP": "OLD_FRIENDSHIP: Aunt Sarah becomes a character you control (you may choose her "
    "as one of your characters).",
    "DRACO-CARD-SHUFFLE-ALL": "SHUFFLE_ALL: all characters but Draco are shuffled and laid out again after him.",
    "DRACO-CARD-MONTE": "MONTE: choose three characters; chance lays them back at random in their three places.",
    "DRACO-CARD-REARRANGE-SPECIALS": "REARRANGE_SPECIALS: the player puts the three specials in their three places "
    "in any order.",
}
