"""Rap Godz rules as data: stable rule ID -> one-line statement.

The law is shared/rulebooks/rap_godz.txt. IDs RG-DATA-* and RG-DECIDE-* state our reconstructions
and our readings of gaps (see the game README, "Deviations and reconstructions"); they are decisions,
not the rulebook's. tests/rap_godz/test_rules*.py check each ID with @pytest.mark.rules("ID").
"""

RULES: dict[str, str] = {
    # Components
    "RG-COMP-1": "The box has 155 Album cards (3 decks), 65 Come Upz (3 decks), 25 Rapperz, 25 Citiez, 9 Pick Upz, "
    "8 Goalz, 84 plaques (36 Bronze, 33 Gold, 15 Platinum), 8 Upgrade cubes and 12 Beef cubes.",
    "RG-COMP-2": "Plaques: Bronze = 1 point, Gold = 5, Platinum = 25.",
    # Set-up
    "RG-SETUP-1": "The Pick Upz are shuffled and placed at random on the matching symbols of the resource tracks.",
    "RG-SETUP-2": "Each player is dealt two Rapperz and two Citiez, keeps one of each and returns the others to their decks.",
    "RG-SETUP-3": "Each player's resource cubes start at the values on their City card.",
    "RG-SETUP-4": "The chosen Citiez go on the board; at 2 players one extra random City too.",
    "RG-SETUP-5": "The Champ plus random Goalz fill the Goalz spaces, all face up.",
    "RG-SETUP-6": "Come Upz are flipped face up from the Come Upz 1 deck: players + 1 of them.",
    "RG-SETUP-7": "Each player is dealt 5 Album 1 cards, or what their Rapper ability says.",
    "RG-SETUP-8": "The crossfaders start on Album 1, Track 1.",
    "RG-SETUP-9": "The Medallion (first player) goes to the most Streetz; a die roll decides a tie.",
    # The turn
    "RG-TURN-1": "On your turn: get a card, then play a card; play passes to the left.",
    "RG-TURN-2": "Get a card: draw from the current Album deck, or spend 3 cards from your hand for a face-up Come Upz.",
    "RG-TURN-3": "You cannot both draw and take a Come Upz, except a draw from a Rapper ability or a +1 Card Pick Upz.",
    "RG-TURN-4": "A Come Upz taken from the board is replaced at once.",
    "RG-TURN-5": "Always draw from the deck of the current Album.",
    "RG-PLAY-1": "Then play a card face up into your career timeline, collecting its plaques and rap resources, or start Beef.",
    "RG-PLAY-2": "A card with a lock and key can be played only with at least the required amount of its rap resource.",
    # Beef
    "RG-BEEF-1": "Beef: play a Beef card against a chosen player.",
    "RG-BEEF-2": "The starter rolls their colour die and the red Beef die; the target rolls their colour die.",
    "RG-BEEF-3": "The highest single die wins; a tie rerolls all dice.",
    "RG-BEEF-4": "The loser puts the Beef card in their career timeline and gives the winner its plaques and resources.",
    "RG-BEEF-5": "The winner takes a Beef cube.",
    "RG-BEEF-EXAMPLE": "Rulebook example: player 1 starts Beef, rolls the red die and their die; player 2 rolls higher and wins.",
    # Resources and Pick Upz
    "RG-RES-1": "Three rap resources, Streetz, Skillz and Swag, each on its track.",
    "RG-RES-2": "At 30 on a track the standard cube becomes an Upgrade cube.",
    "RG-PICK-1": "A player whose cube reaches a Pick Upz token on the track collects it.",
    "RG-PICK-2": "+1 Card (draw a card) and +3 Resources (add to one resource) may be used at any time on your turn.",
    "RG-PICK-3": "+2 on Beef adds 2 to your Beef dice value, used after any Beef dice are rolled.",
    # Rapperz
    "RG-RAP-1": "Rapper abilities are used as stated on the card.",
    "RG-RAP-2": "A once-per-Album ability is covered when used and refreshed at the next Album.",
    "RG-RAP-3": "Every Rapper has a difficulty level: Easy, Medium or Hard.",
    "RG-RAP-4": "At the end, bonus plaques for each timeline card matching the Rapper's Card Category Bonus colour.",
    "RG-RAP-5": "At the end, the Rapper Goal's plaques if it is completed.",
    # Tracks and Albums
    "RG-TRACK-1": "When play gets back to the Medallion holder the crossfader moves to the next Track.",
    "RG-ALBUM-1": "After Track 5 the next Album: Rapper abilities are refreshed.",
    "RG-ALBUM-2": "All Come Upz are replaced with cards from the next Come Upz deck.",
    "RG-ALBUM-3": "Each player draws from the next Album deck up to 5 cards (or what an ability says).",
    "RG-ALBUM-4": "The Medallion goes to the most Skillz at Album 2 and the most Swag at Album 3.",
    "RG-END-1": "The game ends when the last player has taken their turn on Track 5 of Album 3.",
    # Goalz, Citiez, scoring
    "RG-GOAL-1": "In-game Goalz go to the first player to complete them (Platinum!: first to 25 plaques, 10 plaques).",
    "RG-GOAL-2": "End-game Goalz go to the player who completes them (The Champ: most Beef cubes, 10 plaques).",
    "RG-GOAL-3": "Homeslice: win or tie your Hometown, 10 plaques.",
    "RG-GOAL-4": "A tie for Goalz or Citiez splits the points evenly, rounded down.",
    "RG-CITY-1": "A City goes to the player with the most icons of its colour (New Orleans: most Yellow, 10 plaques).",
    "RG-SCORE-1": "The winner has the most plaque points.",
    # Our decisions and reconstructions (README: Deviations and reconstructions)
    "RG-DATA-CARDS": "Album decks 55/50/50 (10/9/9 cards of each colour, 5 Beef each) and Come Upz 25/20/20, values reconstructed.",
    "RG-DATA-RAPPERZ": "25 Rapperz: 5 per bonus colour, Easy 9 / Medium 9 / Hard 7, five ability kinds, a goal of N bonus-colour cards.",
    "RG-DATA-CITIEZ": "25 Citiez: 5 per icon colour, starting resources a permutation of 3/2/1, 10 plaques.",
    "RG-DATA-GOALZ": "8 Goalz: The Champ, Platinum!, Homeslice and 5 reconstructions, each 10 plaques; players + 1 in play.",
    "RG-DATA-TRACK": "Tracks run 0-30, upgraded to 60; Pick Upz symbols at 5, 12 and 20 of each track; 3 of each type.",
    "RG-DATA-BEEF": "Beef stakes by Album: 2/4/6 plaques and 1/2/3 resources in all, each from the loser's highest resource then, paid as far as the loser has them.",
    "RG-DECIDE-UPGRADE": "Only 2 Upgrade cubes per player: a third resource stops at 30; an Upgrade stays once taken.",
    "RG-DECIDE-PLAQUES": "Plaques are paid greedily from the supply; what it cannot make is kept as points owed.",
    "RG-DECIDE-COMEUPZ": "A Come Upz taken lies face up in front of its owner until played, like a hand card.",
    "RG-DECIDE-SPEND": "Spent cards go face up to a discard pile, out of the game.",
    "RG-DECIDE-PASS": "A player with no playable card passes the play (and a player who can neither draw nor buy skips the get).",
    "RG-DECIDE-BOOST": "+2 on Beef: after each roll the starter, then the target, may boost or pass, until both pass in a row.",
    "RG-DECIDE-CUBES": "With no Beef cube left in the supply the winner takes none.",
    "RG-DECIDE-MOST": "A 'most' Goal or City needs at least 1; with nobody above 0 nobody collects it.",
    "RG-DECIDE-TIE": "Tied plaque points: more Beef cubes, then fewer cards in hand; still tied, joint winners.",
    "RG-DECIDE-DRAFT": "The draft: in seat order each player keeps a Rapper, then a City (the kept ones are public).",
    "RG-DECIDE-PICKUPZ": "Pick Upz lie face up; crossing several symbols at once collects each.",
    "RG-DECIDE-EMPTY": "An empty Album deck cannot be drawn from.",
}
