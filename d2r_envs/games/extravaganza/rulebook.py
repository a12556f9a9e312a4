"""Extravaganza rules as data: stable rule ID -> one line of the rule.

The law is ../shared/rulebooks/extravaganza.txt. EX-DECIDE-* are our readings of its gaps and
EX-DATA-* our reconstructions of the components it does not list (the game README explains each).
tests/extravaganza/test_rules*.py checks each ID with @pytest.mark.rules("ID").
"""

RULES: dict[str, str] = {
    # Components and set-up
    "EX-COMP-1": "The box: 50 rhinestones, 40 lips, 20 ten-tokens, 8 queens, 150 dance move cards in 10 categories "
    "(3 moves x 5 colours), 30 lyric tokens, 60 desire tokens, 24 reveal cards.",
    "EX-SETUP-1": "A dance category is drawn at random for each of the 5 judges (or chosen by option).",
    "EX-SETUP-2": "Each chosen category's 15-card deck is shuffled face down above its judge and its top card "
    "flipped face up (the card display).",
    "EX-SETUP-3": "The lyric tokens are shuffled and dealt face up as the song: 12 / 18 / 24 tokens for 2 / 3 / 4 players.",
    "EX-SETUP-4": "One random rhinestone from the bag is dealt to each stage space.",
    "EX-SETUP-5": "The purse first player is chosen at random.",
    "EX-SETUP-6": "Starting resources in clockwise order: 2nd player a random rhinestone; 3rd a random rhinestone "
    "and a lip; 4th a random rhinestone, a lip and a card of their choice from the display.",
    "EX-SETUP-7": "From the first player, each places their queen on an unoccupied space, taking its rhinestone.",
    "EX-SETUP-8": "Each player plays one of the 8 queens (dealt at random, or drafted by option from the first player).",
    # The turn
    "EX-TURN-1": "From the first player, clockwise; a turn is Bedazzle (required), Move, Draw, Dance, Lip Sync "
    "(optional), in that order.",
    "EX-BEDAZZLE-1": "Bedazzle: fill each empty, unoccupied space of your current stage area with a random "
    "rhinestone from the bag.",
    "EX-BEDAZZLE-2": "When the bag is empty, all spent rhinestones go back into the bag.",
    "EX-MOVE-1": "Move like a chess queen: any distance in one straight line, staying on the stage.",
    "EX-MOVE-2": "A queen may not land on another queen; moving through one costs a rhinestone of your choice, paid to her.",
    "EX-MOVE-3": "Landing on a rhinestone takes it and every rhinestone of the same colour moved past on the way.",
    "EX-NEARBY-1": "Nearby means the 8 spaces directly adjacent in all directions.",
    "EX-DRAW-1": "Draw: take a display card into your hand and 1 lip per display card and per played card of "
    "yours with the drawn card's colour, the drawn card included.",
    "EX-DRAW-2": "After taking lips, the drawn card's deck flips its next card face up.",
    "EX-DANCE-1": "Dance: play a card from hand paying one same-colour pair per star, up to the card's maximum stars.",
    "EX-DANCE-2": "Each extra pair must be one colour, but the pairs need not match each other.",
    "EX-DANCE-3": "Cards in hand and played cards may be discarded as the rhinestone printed on them; discarded "
    "cards leave the game.",
    "EX-DANCE-4": "Spent rhinestones are put aside, not back in the bag.",
    "EX-DANCE-5": "The played card goes on top of the player's stack of played cards.",
    "EX-DANCE-6": "The move scores its category's rule times its stars, added to that category's track, capped at 40.",
    "EX-LIP-1": "Lip Sync: claim any number of lyric tokens strictly in song order, paying lips equal to their words.",
    "EX-LIP-2": "Score the claimed tokens' stars plus every lyric already held that matches a colour claimed now.",
    "EX-LIP-3": "Lip-sync points go to the category of the top card of your stack; with no played card, no lip sync.",
    "EX-END-1": "After a player claims the lyric revealing the flag for the player count, play continues until "
    "all players have had equal turns; then Judge Deliberation.",
    # Categories
    "EX-CAT-BOOTY": "Booty: per rhinestone in your supply, plus those of each nearby queen with fewer.",
    "EX-CAT-RUNWAY": "Runway: per space moved this turn, each queen moved through counting 2 more; reveal movement counts.",
    "EX-CAT-ELEGANZA": "Eleganza: per spent rhinestone of one colour, which then go back in the bag.",
    "EX-CAT-FLOORWERK": "Floorwerk: bedazzle the nearby empty spaces, then per stage rhinestone of one colour.",
    "EX-CAT-HANDWERK": "Handwerk: reveal up to 3 cards from hand, each nearby queen reveals 1; per star on them.",
    "EX-CAT-LYRICISM": "Lyricism: per word of the current lyric and per colour among your claimed lyrics.",
    "EX-CAT-SHAWAM": "Shawam: per empty stage space (no queen, no rhinestone), then bedazzle the whole stage.",
    "EX-CAT-SHADE": "Shade: discard the top card of 3 category decks, removed from the game; per star on them.",
    "EX-CAT-TUCK": "Tuck: per played card (this one included), plus those of each nearby queen with fewer.",
    "EX-CAT-TWIRLS": "Twirls: per rhinestone colour nearby and per rhinestone colour in your supply.",
    # Queen powers
    "EX-QUEEN-TUCKINGHAM": "Jen Ga: after a dance, +1 per rhinestone colour among your supply and played cards (this card too).",
    "EX-QUEEN-LINGUIST": "Savannah Wonders: drawing for 1 lip takes 2; for 2 lips takes 3.",
    "EX-QUEEN-CHERRY": "Lana Candy: after paying for a dance, before scoring, draw a random rhinestone.",
    "EX-QUEEN-ODDY": "Ella Grande: landing nearby a queen, take a rhinestone from her supply of a colour you lack "
    "(after taking the landing rhinestone).",
    "EX-QUEEN-GREEN": "Modern Tart: green rhinestones on the stage and in supply count as any colour; one so used is no longer green.",
    "EX-QUEEN-PIROUETTE": "Victoria Pointe: each time you bedazzle, take 1 bedazzled rhinestone of a colour you lack.",
    "EX-QUEEN-PRESENCE": "Kiki Flowers: your current stage area pays as a rhinestone of its colour (not an actual rhinestone).",
    "EX-QUEEN-BLOOD": "Anne Demic: lip-sync with a nearby queen's held lyrics instead of your own (not at the end).",
    # Judge Desires
    "EX-DESIRE-1": "Judge Desires set-up: one face-up desire per judge, the rest a face-down stack.",
    "EX-DESIRE-2": "Fulfilling a desire claims it onto that judge's space of your board; several may be claimed a turn.",
    "EX-DESIRE-3": "At the end of your turn each judge without a desire gets a new random one.",
    "EX-DESIRE-4": "The six desire types: actual stone of a colour; card of a colour; dance in an area; discarded "
    "card of a colour; actual stone and area of a colour; discarded card and card of a colour.",
    # 10s & Reveals
    "EX-TEN-1": "10s & Reveals set-up: as many 10-tokens per judge as players; 3 reveal cards dealt to each player.",
    "EX-TEN-2": "Scoring 10+ points in one category in a whole turn earns that judge's 10-token, once per category.",
    "EX-REVEAL-1": "One reveal card a turn, at any point of the turn, free; its N is the categories you have 10'd.",
    "EX-REVEAL-2": "The six reveal condition types (area dance; discarded card and area; 3+ move onto an area; "
    "actual stone and card; actual stone and discarded card; 3+ move onto a rhinestone).",
    # Judge Deliberation
    "EX-FINAL-1": "10s Across the Board: a 10-token from every judge scores your lowest category score.",
    "EX-FINAL-2": "Lyric Diversity: 0/1/3/6/10/15 for 0..5 colours among your lyric tokens.",
    "EX-FINAL-3": "Category Review: each category's points; with Judge Desires the highest scorer in each category "
    "earns an extra desire token from its judge.",
    "EX-FINAL-4": "Desire Sets: 10 points per set of one desire token from each judge.",
    "EX-FINAL-5": "Judge Desires: 3 / 4 / 5 / 4 / 3 points per desire token, judges left to right.",
    "EX-FINAL-6": "The most points wins.",
    "EX-LEVEL-1": "Levels: Basic = no module, Fierce = Queen Powers, Sickening = + Judge Desires, Legendary = all three (our decision).",
    # Our decisions
    "EX-DECIDE-HIDDEN": "Hands are hidden but for their sizes, reveal cards but for their owner; deck order, the bag "
    "and the desire stack are random draws.",
    "EX-DECIDE-TIE": "A tie for the most points: the tied players score 0, the others -1.",
    "EX-DECIDE-ROUNDS": "If the flag is still not claimed after 60 rounds, the game ends after that round.",
    "EX-DECIDE-GREEN": "Green Screen: paying, a green stone may be any colour; landing on green she names its colour, and "
    "passed green stones count as the landing colour.",
    "EX-DECIDE-ODDY": "Body Oddy: at most one rhinestone per landing, from one nearby queen of her choice.",
    "EX-DECIDE-REVEAL": "A reveal is played at the turn's step decisions (move, draw, dance, lip sync) or at its end.",
    "EX-DECIDE-SHADE": "Shade discards the display cards of 3 distinct judges (fewer if fewer have one); each deck then flips.",
    "EX-DECIDE-TEN": "The 10-token counts points scored in the turn before the 40 cap.",
    "EX-DECIDE-REVIEW": "Category Review ties: every tied highest scorer (above 0) earns the extra token.",
    "EX-DECIDE-PIROUETTE": "Pirouette's take is optional, chosen among the spaces just bedazzled.",
    # Data reconstructions
    "EX-DATA-COLOURS": "Colours purple, orange, blue, green, yellow; 10 rhinestones each.",
    "EX-DATA-STAGE": "Stage 5x5, five 5-space colour areas; layout 'pinwheel' (default) or 'bands'.",
    "EX-DATA-CARDS": "Each category: moves I/II/III of max 1/2/3 stars, one per colour; printed stars = max stars.",
    "EX-DATA-LYRICS": "30 lyric tokens: each colour with words 1,2,3,3,4,5; stars = lips = words.",
    "EX-DATA-FLAGS": "The flag lies under the last dealt slot (12/18/24), or with flags=early under slot 10/15/20.",
    "EX-DATA-DESIRES": "60 desire tokens: 6 types x 5 colours x 2.",
    "EX-DATA-REVEALS": "24 reveal cards: 6 conditions x 4 rewards (lips, rhinestones, strut, bedazzle), colours round robin.",
    "EX-DATA-JUDGES": "Judges left to right by listing order: Sultan Pepper, Alice Jolie, Francis Labelle, Madame Mystique, Wilmina Grace.",
}
