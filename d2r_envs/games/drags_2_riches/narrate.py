"""Drags 2 Riches event log: each transition told in plain English, as each seat may see it.

`events(game, before, action, after)` applies the action to a copy of `before` that has a sink
(`State.tell`): the rules themselves tell what happens, as it happens (facts.py), and each fact is put
into words, reading the names, counts and values it mentions from the copy as it stands at that moment.
The words are all this module holds; what happens is said once, by rules.py. A copy of `before`, rather
than the caller's state, keeps `events` the same for every caller (core.events.Log, the web table,
the tests), who never holds a state with a sink on it; only a log pays for the narration (the action
applied a second time), and without a sink the rules pay one test of `s.tell` at each point where
something happens. `after` is what the rules make of `before` and the action, so the narration does not
need it. `explain(game, state, action)` says what a legal action does, for a person choosing it.

What each seat sees follows the observation (encode.py, `D2R-HIDDEN-1`, `D2R-HIDDEN-2`): a drawn
card is named to its drawer only. A run of draws is announced once, to all, by the transition that
queues it, with its count ("they Untuck and draw a new hand of 5 cards", "Shopping Spree: they draw 2
extra cards first"), and the draws themselves tell the others nothing; a Dry Clean in the middle of a
run, and a run cut short by an empty Wardrobe and Floordrobe, are told when they happen. A new hand (the
deal, Untucking) starts empty, so its drawer is told it whole, once, at its last draw; any other draw
names its card to the drawer as it comes. A card worn face down is named to its wearer only (the others
learn the slot); the card picked to Lend, Shessica's type and each thumbs declaration stay with the
chooser until the rules show them (the Lend, the Drag Mother target, the reveal once everyone has
declared); a Peek's cards go to the peeker alone. Everything that lands face up (Floordrobes, the
Market, activated cards, the trash, random discards, revealed Looks once they are discarded) is
public, and so is each player's hand as it goes to their Floordrobe at Untucking.
"""

from __future__ import annotations

from d2r_envs.core.events import Event, public, secret
from d2r_envs.core.words import plural
from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.cards import Character, Op
from d2r_envs.games.drags_2_riches import facts as F
from d2r_envs.games.drags_2_riches.state import Ask, Phase, State, Task

_THUMBS_WORDS = ("thumbs down", "thumbs up", "thumbs up with Glam Stoker's Deathdrop Diva (+2)")


def _p(q: int) -> str:
    return f"player_{q}"


def _name(k: int) -> str:
    return C.KINDS[k].name


def _event(e: int) -> str:
    ev = C.EVENTS[e]
    return f"{ev.name} ({ev.prestige} prestige)" if ev.kind != C.EventKind.SPREE else ev.name


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _order(n: int, first: int) -> list[int]:
    return [(first + i) % n for i in range(n)]


def _other(game, p: int, action: int) -> int:
    """The seat a `target` action names, relative to `p`."""
    return (p + 1 + action - A.TARGET) % game.n


def _effect(op: int, victim: str, beneficiary: str) -> str:
    """A Shade's effect on `victim` for `beneficiary` ("you" for the person reading)."""
    if op == Op.DISCARD:
        return ("you discard" if victim == "you" else f"{victim} discards") + " 1 card at random"
    peeks = "you peek" if beneficiary == "you" else f"{beneficiary} peeks"
    return f"{peeks} at {victim}'s hand, then Borrow" + ("" if beneficiary == "you" else "s") + " 1 of those cards"


def _character(ch: int) -> str:
    """"Kelisha Keys' All Tea No Shade"; "Cheeks Illustra's ability" where the name is unknown."""
    name, ability, _text, _source = C.CHARACTERS[ch]
    return f"{name}{_s(name)} " + ("ability" if ability.startswith("(") else ability)


def _s(name: str) -> str:
    return "'" if name.endswith("s") else "'s"


def _does(kind: C.Kind) -> str:
    """The card's text ("no action" for a card without one)."""
    return kind.text.strip("()")


# Facts into words ---------------------------------------------------------------------------


def events(game, before: State, action: int, after: State) -> list[Event]:
    """What happened in `before` --action--> `after`, in the order it happened, as each seat sees it."""
    told = game.clone(before)
    teller = told.tell = _Teller(game, told)
    game.apply_legal(told, action)
    return teller.done()


class _Teller:
    """The sink of a narrated copy: each fact becomes events as it is told.

    A few facts wait for, or are changed by, the ones after them: the draws a drawing run drops make one
    line per seat, and a new hand is named to its drawer once nothing more is due to it; draws queued for
    the same seat later in the transition (a two-player Shopping Spree's, at the next turn) join them, so
    the hand is not yet whole and they count against the draws dropped; a reversed Shade that waits adds
    to the reversal's line; Last Minute Additions that end before anyone is asked go untold."""

    def __init__(self, game, s: State) -> None:
        self.game, self.s = game, s
        self.out: list[Event | None] = []
        self.drawing = False  # a card was drawn, and no turn has begun since: dropped draws are told
        self.phase = Phase.PLAY  # the phase of the draw: a new hand is drawn in DEAL and UNTUCK
        self.dropped: dict[int, int] = {}  # draws dropped, per seat, not told yet
        self.short: dict[int, tuple[int, int]] = {}  # per seat: (line, draws) of the dropped draws told
        self.hand: tuple[int, int, int] | None = None  # (seat, line, draws still due) of a new hand drawn
        self.lma: int | None = None  # the line that told Last Minute Additions began

    def __call__(self, fact: tuple) -> None:
        if isinstance(fact, F.DrawDropped):
            if self.drawing:
                self.dropped[fact.seat] = self.dropped.get(fact.seat, 0) + 1
            return
        self._flush()
        s, out = self.s, self.out
        match fact:
            case F.Drew(seat, kind):
                self.drawing = True
                self.phase = s.phase
                if s.phase not in (Phase.DEAL, Phase.UNTUCK):
                    out.append(secret(seat, f"{_p(seat)} draws {_name(kind)}"))
                    return
                due = sum(1 for t, q in s.chance if t == Task.DRAW and q == seat)
                self.hand = (seat, len(out), due)
                out.append(None if due else self._new_hand(seat))
            case F.TurnBegan(p):
                self.drawing = False
                self._more_due(p)
                out.append(public(_turn_text(s, p)))
            case F.ShadeWaits(victim):
                out[-1] = public(f"{out[-1].public}; {_p(victim)}'s hand is empty, so the reversed Shade waits for"
                                 " their next hand")
            case F.LastMinuteBegan():
                self.lma = len(out)
                out.append(public(f"Last Minute Additions: from {_p(s.first)}, each player may add cards from"
                                  " their hand to the empty slots of their Look"))
            case F.LastMinuteOver():
                if self.lma is not None:  # nobody had anything to add
                    out[self.lma] = None
            case _:
                out.extend(_words(self.game, s, fact))

    def _new_hand(self, seat: int) -> Event:
        hand = "their hand" if self.phase == Phase.DEAL else "a new hand"
        return secret(seat, f"{_p(seat)} draws {hand}: {C.counts_to_string(self.s.hands[seat])}")

    def _short(self, q: int, draws: int) -> Event:
        text = f"{_p(q)}'s Wardrobe and Floordrobe are empty: they draw {plural(draws, 'card')} fewer than due"
        if self.phase in (Phase.DEAL, Phase.UNTUCK):
            text += f", for a hand of {plural(sum(self.s.hands[q]), 'card')}"
        return public(text)

    def _flush(self) -> None:
        """The draws dropped so far, one line per seat."""
        if not self.dropped:
            return
        if self.hand is not None:
            seat, line, due = self.hand
            if due and self.dropped.get(seat) == due:  # the rest of the new hand was dropped: it is whole
                self.out[line] = self._new_hand(seat)
        for q in sorted(self.dropped):
            self.short[q] = (len(self.out), self.dropped[q])
            self.out.append(self._short(q, self.dropped[q]))
        self.dropped = {}

    def _more_due(self, p: int) -> None:
        """Draws just queued for `p` (a Shopping Spree's) that will be drawn, in the transition that drew
        or dropped the last of p's new hand."""
        if not _draws_due(self.s, p):
            return
        more = sum(1 for t, q in self.s.chance if t == Task.DRAW and q == p)
        if self.hand is not None and self.hand[0] == p:
            self.out[self.hand[1]] = None
        if p in self.short:
            line, draws = self.short[p]
            self.out[line] = self._short(p, draws - more) if draws > more else None

    def done(self) -> list[Event]:
        self._flush()
        return [e for e in self.out if e is not None]


def _words(game, s: State, fact: tuple) -> list[Event]:
    """What each seat reads of `fact`, told by the rules of `s` just after it changed `s`."""
    n = game.n
    match fact:
        case F.FirstPlayer(p):
            text = f"{_p(p)} takes the First Player token"
            if game.config.characters:
                text += "; Characters are chosen in seat order from them"
            return [public(text)]
        case F.CharacterChosen(p, ch):
            name, ability, text, _source = C.CHARACTERS[ch]
            return [public(f"{_p(p)} chooses {name} (" + ("" if ability.startswith("(") else f"{ability}: ")
                           + f"{text})")]
        case F.MarketFilled(k):
            if s.round == 0:
                return [public(f"Market set-up: {_name(k)} is laid out")]
            return [public(f"the Market is refilled with {_name(k)}")]
        case F.RoundBegan():
            return [public(_round_text(game, s))]
        case F.DryCleaned(q):
            return [public(f"{_p(q)}'s Wardrobe is empty: they Dry Clean, shuffling their Floordrobe"
                           f" ({plural(s.wardrobes[q].n, 'card')}) into a new Wardrobe")]
        case F.Untucked(p, coins, hand, active):
            return [public(_untuck_text(s, p, coins, hand, active))]
        case F.Activated(p, k):
            return [public(_activate_text(s, p, k))]
        case F.Worn(p, k, old):
            return [_wear_event(game, s, p, k, old)]
        case F.Bought(p, k, free, werk):
            return [public(_buy_text(s, p, k, free, werk))]
        case F.AbilityUsed(p, ch, took):
            return [public(_ability_text(s, p, ch, took))]
        case F.Targeted(p, target):
            effect = _effect(C.KINDS[s.card].op, _p(target), _p(p))
            return [public(f"{_p(p)} targets {_p(target)} ({plural(sum(s.hands[target]), 'card')} in hand)"
                           f" with the Shade of {_name(s.card)} ({effect}); {_p(target)} may block or reverse it")]
        case F.Borrowed(p, victim, k):
            return [public(f"{_p(p)} borrows {_name(k)} from {_p(victim)}'s hand, into their own Floordrobe")]
        case F.Returned(p, k):
            return [public(f"{_p(p)} returns {_name(k)} from their Floordrobe to their hand ({_name(s.card)})")]
        case F.PickedToLend(p, k):
            return [secret(p, f"{_p(p)} picks {_name(k)} to lend", f"{_p(p)} picks a card from their hand to lend")]
        case F.Lent(p, other, k):
            return [public(f"{_p(p)} lends {_name(k)} to {_p(other)}, into {_p(other)}'s Floordrobe")]
        case F.Trashed(p, k):
            text = f"{_p(p)} trashes {_name(k)} from their Floordrobe (Boujee)"
            if s.phase == Phase.CARD and s.ask == Ask.TRASH:
                text += f"; {s.left} more to trash"
            return [public(text)]
        case F.TookFromMarket(p, k):
            return [public(f"{_p(p)} takes {_name(k)} (value {C.VALUE[k]}) from the Market into their Floordrobe"
                           " (Executive Realness)")]
        case F.Zeroed(p, t):
            return [public(f"{_p(p)} (Sickening): {C.TYPES[t]} cards are worth 0 for every other player this round")]
        case F.TypeChosen(p, t):
            return [secret(p, f"{_p(p)} chooses {C.TYPES[t]} for Drag Mother, and next the other player",
                           f"{_p(p)} chooses a Look type for Drag Mother")]
        case F.Doubled(p, other, t):
            return [public(f"{_p(p)} (Drag Mother): {C.TYPES[t]} cards count double for {_p(p)} and {_p(other)}"
                           " this round")]
        case F.ShadeTaken(p):
            text = f"{_p(p)} takes the Shade"
            if not any(s.hands[p]):
                text += ": their hand is empty, so it does nothing"
            return [public(text)]
        case F.ShadeBlocked(p):
            return [public(f"{_p(p)} shows a Block Shade card from their hand (it stays there): the Shade is blocked")]
        case F.ShadeReversed(p, by_character):
            via = (_character(Character.KELISHA_KEYS) if by_character
                   else "a Reverse Shade card (Mirror) from their hand")
            return [public(f"{_p(p)} reverses the Shade with {via}: it turns back on {_p(s.turn)}")]
        case F.WaitingShadeResolves(q, op, beneficiary):
            effect = _effect(op, _p(q), _p(beneficiary))
            return [public(f"the reversed Shade waiting for {_p(q)}'s new hand resolves: {effect}")]
        case F.WaitingShadesDropped(q, count):
            return [public(f"{_p(q)}'s hand is empty: {count} waiting reversed Shade(s) dropped")]
        case F.Peeked(who, victim):
            seen = C.counts_to_string(s.peek_hand[who])
            return [Event(f"{_p(who)} peeks at {_p(victim)}'s hand and will Borrow 1 of those cards",
                          {who: f"{_p(who)} peeks at {_p(victim)}'s hand: {seen}; they Borrow 1 of those cards"})]
        case F.DiscardedAtRandom(q, k):
            return [public(f"{_p(q)} discards {_name(k)} at random, into their Floordrobe (Shade)")]
        case F.DoneAdding(p):
            return [public(f"{_p(p)} is done adding to their Look")]
        case F.ThumbsBegan(able):
            names = [_p(q) for q in able]
            who = (f"{_join(names)} (who have a Look) declare" if len(names) > 1
                   else f"{names[0]} (who has a Look) declares")
            return [public(f"Event Phase for {_event(s.event)}: {who} thumbs up or down, face down, in seat order")]
        case F.Declared(p, thumbs):
            return [secret(p, f"{_p(p)} declares {_THUMBS_WORDS[thumbs]} (hidden until everyone has declared)",
                           f"{_p(p)} declares their thumbs, face down")]
        case F.ThumbsShown():
            said = [f"{_p(q)} " + ("down", "up", "up with Deathdrop Diva")[s.thumbs[q]]
                    for q in _order(n, s.first) if s.thumbs[q] >= 0]
            return [public("everyone has declared; thumbs: " + ", ".join(said))]
        case F.LooksRevealed(tied, winner):
            return _reveal_events(n, s, tied, winner)
        case F.Judged(p, w):
            return [public(f"{_p(p)}, the first player, awards {_event(s.event)} to {_p(w)} (Category Is)")]
        case F.Won(w, e):
            judged = s.phase == Phase.JUDGE
            why = "chosen by the first player" if judged else f"with the best Look (value {max(s.last_values)})"
            out = [public(f"{_p(w)} wins {C.EVENTS[e].name}, {why}: +{C.EVENTS[e].prestige} prestige"
                          f" (now {s.prestige[w]}, {plural(len(s.won[w]), 'Event')})")]
            if judged:
                shown = [f"{_p(q)} ({_look_text(s, q, s.thumbs[q] == 2)})" for q in _order(n, s.first)
                         if s.thumbs[q] >= 1]
                out.append(public("the revealed Looks go to their Floordrobes: " + "; ".join(shown)))
            else:
                out.append(public("every revealed Look goes to its owner's Floordrobe"))
            return out
        case F.EventTrashed(e, declared):
            why = "nobody declared thumbs up" if declared else "nobody has a Look to compete with"
            return [public(f"{why}: {_event(e)} is trashed")]
        case F.SpreeOver():
            return [public("the Shopping Spree ends with no Event Phase; its card is discarded")]
        case F.FirstPassed(p):
            return [public(f"the First Player token passes to {_p(p)}")]
        case F.GameOver():
            return final_events(game, s)
    raise ValueError(f"no words for {fact!r}")


def _draws_due(s: State, p: int) -> int:
    """How many of the draws queued for `p` will be drawn: the Wardrobe, with the Floordrobe Dry Cleaned
    into it, is all there is, and nothing else moves cards in or out during a run."""
    queued = sum(1 for t, q in s.chance if t == Task.DRAW and q == p)
    return min(queued, s.wardrobes[p].n + sum(s.floors[p]))


def _draw_text(s: State, p: int, due: int, what: str = "", when: str = "") -> str:
    """'they draw 3 cards', told when the draws are queued, with what an empty Wardrobe and Floordrobe
    leave of them. `what` names the cards ('extra cards'; 'cards' by default), `when` follows them."""
    got = _draws_due(s, p)
    if not got:
        return "nothing left to draw (Wardrobe and Floordrobe empty)"
    text = (f"they draw {due} {what}" if what else f"they draw {plural(due, 'card')}") + when
    if got < due:
        text += f", but only {got} {'is' if got == 1 else 'are'} left in their Wardrobe and Floordrobe"
    return text


def _turn_text(s: State, p: int) -> str:
    text = f"{_p(p)}'s turn (Playing Phase)"
    if C.EVENTS[s.event].kind == C.EventKind.SPREE:
        text += "; Shopping Spree: " + _draw_text(s, p, C.SPREE_EXTRA, "extra cards", " first")
    return text


def _untuck_text(s: State, p: int, coins: int, hand: bytearray, active: bytearray) -> str:
    text = f"{_p(p)} ends their turn"
    if coins:
        text += f", leaving {plural(coins, 'coin')} unspent"
    moved = []
    if any(hand):
        moved.append(f"hand {C.counts_to_string(hand)}")
    if any(active):
        moved.append(f"activated {C.counts_to_string(active)}")
    if moved:
        text += "; to their Floordrobe: " + "; ".join(moved)
    got = _draws_due(s, p)
    if not got:
        return text + "; they Untuck, with nothing left to draw (Wardrobe and Floordrobe empty)"
    text += f"; they Untuck and draw a new hand of {plural(C.HAND_SIZE, 'card')}"
    if got < C.HAND_SIZE:
        text += f", but only {got} {'is' if got == 1 else 'are'} left in their Wardrobe and Floordrobe"
    return text


def _activate_text(s: State, p: int, k: int) -> str:
    kind = C.KINDS[k]
    text = f"{_p(p)} activates {kind.name} ({_does(kind)})"
    if kind.coins:
        text += f": {s.coins} to spend"
    if kind.op == Op.DRAW:
        text += "; " + _draw_text(s, p, kind.amount)
    elif kind.op == Op.RETURN and s.ask != Ask.RETURN:
        text += f"; nothing in the Floordrobe of value {kind.amount} or less to Return"
    elif kind.op == Op.LEND and s.ask != Ask.LEND_CARD:
        text += "; no card left in the hand to Lend"
    elif kind.shade:
        text += "; they choose a target"
    return text


def _wear_event(game, s: State, p: int, k: int, old: int) -> Event:
    slot = C.TYPES[C.TYPE_OF[k]]
    replaced = f", replacing {_name(old)}, which goes to their Floordrobe face up" if old >= 0 else ""
    mine = (f"{_p(p)} wears {_name(k)} face down in their {slot} slot{replaced}"
            f" (Look value now {game.look_value(s, p)})")
    return secret(p, mine, f"{_p(p)} wears a card face down in their {slot} slot{replaced}")


def _buy_text(s: State, p: int, k: int, free: bool, werk: bool) -> str:
    name, value = _name(k), C.VALUE[k]
    if free:
        text = f"{_p(p)} takes {name} (value {value}) free by Thrifting"
    else:
        text = f"{_p(p)} buys {name} for {plural(value, 'coin')} ({s.coins} left)"
    if s.event == C.SELL_OUT:
        text += ", into their hand (Sell-Out Tour: playable this round)"
    else:
        text += ", into their Floordrobe"
        if werk:
            text += "; the Werk Phase begins: no more cards are played this turn"
    if not s.pile.n and not any(t == Task.MARKET for t, _ in s.chance):
        text += "; the Market pile is empty, so the space stays empty"
    return text


def _ability_text(s: State, p: int, ch: int, took: int) -> str:
    text = C.CHARACTERS[ch][2]
    head = f"{_p(p)} uses {_character(ch)} (once per game)"
    if ch == Character.HO_COUTURE:
        return head + f": +{C.HO_BONUS} to each card in their Look this round"
    if ch == Character.GLAM_STOKER:
        return head + f": +{C.GLAM_BONUS} to their Look this round"
    if ch == Character.KENYA_FEELIT:
        return head + ": they choose a Look type worth 0 for every other player this round"
    if ch == Character.BI_FELICIA:
        return head + f": they trash up to {C.FELICIA_TRASH} cards from their Floordrobe"
    if ch == Character.CATASTROPHOEBE:
        if took >= 0:
            return head + (f": takes {_name(took)} (value {C.VALUE[took]}), the highest value Market card,"
                           " into their Floordrobe")
        return head + ": they choose one of the tied highest value Market cards"
    if ch == Character.SHESSICA:
        return head + ": they choose a Look type to double for themselves and one other player this round"
    if ch == Character.CHEEKS_ILLUSTRA:
        return head + ": " + _draw_text(s, p, C.CHEEKS_DRAW)
    return head + f": {text}"


def _round_text(game, s: State) -> str:
    ev = C.EVENTS[s.event]
    text = f"Round {s.round}: the Event is {_event(s.event)}"
    if ev.kind == C.EventKind.SPREE:
        text += f": every player draws {C.SPREE_EXTRA} extra cards at the start of their turn; no Event Phase"
    elif ev.kind == C.EventKind.SELL_OUT:
        text += ": the final round; cards bought this round go to the hand and can be played at once"
    if s.round == 1:
        text += f"; everyone draws a hand of {C.HAND_SIZE}, from {_p(s.first)}"
        short = [f"{_p(q)} only {_draws_due(s, q)}" for q in _order(game.n, s.first)
                 if _draws_due(s, q) < C.HAND_SIZE]
        if short:
            text += f" (Wardrobe and Floordrobe short: {', '.join(short)})"
    return text


def _look_text(s: State, q: int, glam: bool) -> str:
    """The cards of q's Look, each with its value this round."""
    parts = []
    for t, k in enumerate(s.looks[q]):
        if k < 0:
            continue
        v = C.VALUE[k]
        notes = []
        if s.zeroed[q] >> t & 1:
            v, notes = 0, ["Sickening"]
        else:
            if s.doubled[q] >> t & 1:
                v *= 2
                notes.append("doubled")
            if s.ho[q]:
                v += C.HO_BONUS
                notes.append("Glamazon")
        parts.append(f"{_name(k)} {v}" + (f" ({', '.join(notes)})" if notes else ""))
    bonus = s.bonus[q] + (C.GLAM_BONUS if glam else 0)
    return ", ".join(parts) + (f", +{bonus} Deathdrop Diva" if bonus else "")


def _reveal_events(n: int, s: State, tied: tuple[int, ...], winner: int) -> list[Event]:
    """The Looks of the players with thumbs up, valued (their cards too, unless the first player is to
    judge a tie: those show once the Looks are discarded), and how a tie is settled."""
    out = []
    for q in _order(n, s.first):
        if s.thumbs[q] < 1:
            continue
        if winner < 0:
            out.append(public(f"{_p(q)} reveals their Look: value {s.last_values[q]}"))
        else:
            out.append(public(f"{_p(q)} reveals their Look: {_look_text(s, q, s.thumbs[q] == 2)}"
                              f" = value {s.last_values[q]}"))
    if len(tied) > 1:
        names = _join([_p(q) for q in _order(n, s.first) if q in tied])
        top = s.last_values[tied[0]]
        if winner < 0:
            out.append(public(f"{names} tie at {top}: {_p(s.first)}, the first player, judges (Category Is)"))
        else:
            out.append(public(f"{names} tie at {top}: {_p(winner)} wins it, nearest the first player"
                              f" ({_p(s.first)}) in seat order"))
    return out


def final_events(game, s: State) -> list[Event]:
    """The end: every seat's prestige and Events, the winners and how a tie was broken."""
    n = game.n
    scores = [(s.prestige[q], len(s.won[q])) for q in range(n)]
    table = ", ".join(f"{_p(q)} {p} prestige ({plural(w, 'Event')})" for q, (p, w) in enumerate(scores))
    winners = list(s.winners)
    best = max(p for p, _ in scores)
    on_top = [q for q in range(n) if scores[q][0] == best]
    names = _join([_p(q) for q in winners])
    if len(winners) > 1:
        verdict = f"{names} are joint winners, tied on {best} prestige and {plural(scores[winners[0]][1], 'Event')}"
    elif len(on_top) > 1:
        verdict = f"{names} wins: tied on {best} prestige, with the most Event cards ({scores[winners[0]][1]})"
    else:
        verdict = f"{names} wins with {best} prestige"
    return [public(f"game over after the Sell-Out Tour. Final scores: {table}. {verdict}")]


# Explanations ------------------------------------------------------------------------------------


def explain(game, s: State, action: int) -> str:
    """What a legal action does, for a person about to choose it ("" where its name says it all)."""
    if game.current_player(s) < 0:
        return ""
    seg, index = A.ACTIONS.decode(action)
    i = index[0] if index else 0
    p = s.actor
    ph = s.phase
    if seg == "end":
        if ph == Phase.LAST_MINUTE:
            return "Add nothing more to your Look"
        text = "End your turn: hand and activated cards to your Floordrobe, draw a new hand of 5"
        if s.coins:
            text += f"; your {plural(s.coins, 'coin')} left are lost"
        return text
    if seg == "activate":
        kind = C.KINDS[i]
        return f"{_does(kind)} (value {kind.value})"
    if seg == "wear":
        kind = C.KINDS[i]
        slot = C.TYPES[kind.type]
        old = s.looks[p][kind.type]
        text = f"Worth {kind.value} in your Look, face down in the {slot} slot"
        if old >= 0:
            text += f"; replaces {_name(old)} (worth {C.VALUE[old]}), which goes to your Floordrobe"
        return text + (f"; worn, it gives up its {_does(kind)}" if _does(kind) != "no action" else "")
    if seg == "buy":
        kind = C.KINDS[i]
        cost = (f"Costs {plural(kind.value, 'coin')} (you have {s.coins})" if kind.value <= s.coins
                else "Free by Thrifting")
        where = "to your hand, playable now (Sell-Out Tour)" if s.event == C.SELL_OUT else "to your Floordrobe"
        text = f"{cost}; activated: {_does(kind)}; worn: worth {kind.value}; goes {where}"
        if ph == Phase.PLAY and s.event != C.SELL_OUT:
            text += "; buying ends your Playing Phase"
        return text
    if seg == "ability":
        ch = s.characters[p]
        return "Once per game: " + C.CHARACTERS[ch][2]
    if seg == "character":
        when = "when targeted by a Shade" if i == Character.KELISHA_KEYS else "once per game"
        _who, ability, text, _source = C.CHARACTERS[i]
        return ("Ability" if ability.startswith("(") else ability) + f" ({when}): {text}"
    if seg == "card":
        return _explain_card(game, s, p, i)
    if seg == "thumbs":
        ev = _event(s.event)
        if i == 0:
            return f"Do not compete for {ev}: your Look stays face down for a later round"
        value = game.look_value(s, p, i == 2)
        text = (f"Reveal your Look (value {value} now) to compete for {ev}; revealed, it goes to your Floordrobe,"
                " win or lose")
        if i == 2:
            text += f"; spends Glam Stoker's once-per-game Deathdrop Diva for +{C.GLAM_BONUS}"
        return text
    if seg == "react":
        return _explain_react(game, s, p, action)
    if seg == "target":
        other = _other(game, p, action)
        if s.ask == Ask.SHADE_TARGET:
            effect = _effect(C.KINDS[s.card].op, _p(other), "you")
            return (f"Shade {_p(other)} ({plural(sum(s.hands[other]), 'card')} in hand) with {_name(s.card)}: {effect},"
                    " unless they block it")
        if s.ask == Ask.LEND_TARGET:
            return f"{_name(s.picked)} goes into {_p(other)}'s Floordrobe"
        if s.ask == Ask.SHESSICA_TARGET:
            return f"{C.TYPES[s.chosen_type]} cards count double for {_p(other)} too this round"
        return ""
    if seg == "look_type":
        if s.ask == Ask.KENYA_TYPE:
            return f"{C.TYPES[i]} cards are worth 0 for every other player this round"
        return f"{C.TYPES[i]} cards count double for you and for one other player you choose next, this round"
    if seg == "winner":
        w = (p + i) % game.n
        return f"{_p(w)} wins {_event(s.event)}"
    return ""


def _explain_card(game, s: State, p: int, k: int) -> str:
    kind = C.KINDS[k]
    what = f"value {kind.value}; {_does(kind)}"
    ask = s.ask
    if ask == Ask.BORROW:
        return f"Into your Floordrobe from {_p(s.victim)}'s hand: {what}"
    if ask == Ask.RETURN:
        return f"From your Floordrobe to your hand, to play this turn: {what}"
    if ask == Ask.LEND_CARD:
        return f"Lend it from your hand, then choose whose Floordrobe it goes to: {what}"
    if ask == Ask.TRASH:
        return f"Removed from the game ({s.left} to trash): {what}"
    if ask == Ask.TAKE:
        return f"From the Market into your Floordrobe, free: {what}"
    return what


def _explain_react(game, s: State, p: int, action: int) -> str:
    attacker = s.turn
    op = C.KINDS[s.card].op
    if action == A.TAKE:
        if not any(s.hands[p]):
            return "Take it: your hand is empty, so it does nothing"
        if op == Op.DISCARD:
            return "Take it: you discard 1 card from your hand at random"
        return f"Take it: {_p(attacker)} sees your hand and Borrows 1 of its cards"
    if action == A.BLOCK:
        return "Show a Block Shade card from your hand (it stays there): the Shade does nothing to you"
    via = ("show a Reverse Shade card from your hand (it stays there)" if any(s.hands[p][k] for k in C.REVERSERS)
           else f"spend {_character(Character.KELISHA_KEYS)} (once per game)")
    effect = _effect(op, _p(attacker), "you")
    text = f"Reverse it: {via}; the Shade is blocked and turned back: {effect}"
    if not any(s.hands[attacker]):
        text += " (their hand is empty now, so it waits for their next hand)"
    return text
