"""Filthy Rich narration: the event log of a transition (`events`) and what a legal action does (`explain`).

Read only by logs and people (d2r_envs.core.events), never by the rules' fast paths. A transition can
set off a cascade (the last die settles every hit, the 0-roll payouts, the selling round, the Protection
Racket dues, the taxes, knock-outs and auctions; a draw can end the turn and start the next), and the
rules say what happens in it, once: `events` applies the action to a copy of the state before it with a
sink set (`State.tell`), and the rules tell each thing as it happens (facts.py: a die and what it hits,
a payment with its payer, receiver and reason, a sign opened or closed, a knock-out, a bid, the end).
Each fact is put into words as it is told, reading the names, fortunes and piles it mentions from the
copy as it stands at that moment. This module holds the words only.

Why a copy of the state before rather than the caller's state: `events` keeps its meaning for
every caller (core.events.Log, the web table, the tests), who never holds a state with a sink on it,
and only a log pays for the narration (the action applied a second time); without a sink the rules pay
one test of `s.tell` at each point where something happens. `after` is what the rules make of the state
before and the action, so the narration does not need it.

Who sees what follows encode.py: every seat sees money, the book, the table, the discard pile and the
hand sizes; a seat's hand is its own. A run of draws is announced once, to all, by the transition that
queues it, with its count ("each player is dealt 5 cards", "player_2 draws back up to 5: 2 cards",
"player_1 plays Networking: they draw 3 cards"), and the draws themselves say nothing to the others. The
drawer is told each card as it comes, except at the deal, where every hand starts empty: each seat is
told its whole hand once, at its last deal draw. A run the deck and the discard pile cannot fill says so,
when it is announced and when the draws run out. Every card that is played, opened, discarded or goes to
the discard pile at a knock-out is named for all, since it lies face up.
"""

from __future__ import annotations

from d2r_envs.core.events import Event, public, secret
from d2r_envs.core.words import indefinite, plural
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich import facts as F
from d2r_envs.games.filthy_rich.state import Ask, Phase, State

_INSURANCE, _RACKET = C.EFFECT_KIND[C.Effect.INSURANCE], C.EFFECT_KIND[C.Effect.RACKET]


def who(p: int) -> str:
    return f"player_{p}"


def _money(x: int) -> str:
    return f"${x}"


def _slots(mask: int) -> str:
    """'slot 5' or 'slots 1+4'."""
    slots = C.slots_of(mask)
    return ("slot " if len(slots) == 1 else "slots ") + "+".join(map(str, slots))


def _cards(counts) -> str:
    return C.counts_to_string(counts)


def _biz(s: State, b: int) -> str:
    """'Lemonade Empire (player_1)', or the name alone for a business nobody runs."""
    o = s.owner[b]
    return f"{C.BUSINESSES[b].name} ({who(o)})" if o >= 0 else C.BUSINESSES[b].name


# Facts into words -----------------------------------------------------------------------------------


def events(game, before: State, action: int, after: State) -> list[Event]:
    """What happened in `before` --action--> `after`, in order, as each seat may see it."""
    told = game.clone(before)
    out: list[Event] = []
    told.tell = lambda fact: out.extend(_words(game, told, fact))
    game.apply_legal(told, action)
    return out


def _facts(game, s: State, action: int) -> list[tuple]:
    """What the rules tell as they apply `action` to a copy of `s`."""
    told = game.clone(s)
    facts: list[tuple] = []
    told.tell = facts.append
    game.apply_legal(told, action)
    return facts


def _short(s: State) -> str:
    """What the queued draws will really bring, where the deck and the discard pile cannot fill them
    ("" where they can; nothing else moves cards in or out of them during a run of draws)."""
    left = s.deck.n + sum(s.discard)
    if not left or left >= len(s.draws):
        return ""  # (none left at all: the line that drops the draws follows at once)
    got = {q: s.draws[:left].count(q) for q in dict.fromkeys(s.draws)}
    cut = [f"{who(q)} gets {got[q]}" for q in got if got[q] < s.draws.count(q)]
    return f" (only {plural(left, 'card')} left in the deck and the discard pile: {', '.join(cut)})"


def _why(why: tuple) -> str:
    """Why money moved: 'sale of Lemonade Empire, 2 sign cards', 'taxes: 3 tax symbols x 2 zeros'."""
    match why:
        case F.Sale(b):
            return f"sale of {C.BUSINESSES[b].name}, {plural(C.SIZE[b], 'sign card')}"
        case F.Portfolio(copies):
            return "Stock Portfolio" + (f" x{copies}" if copies > 1 else "")
        case F.ByCard(kind):
            return C.KIND_NAMES[kind]
        case F.Hit(b, die, own):
            return f"{C.BUSINESSES[b].name} hit by die {die + 1}" + (
                ", the bank paying for the roller's own business" if own else "")
        case F.Billboard(b, die):
            return f"Billboard, {C.BUSINESSES[b].name} hit by die {die + 1}"
        case F.ZeroPaid(kind):
            return f"{C.KIND_NAMES[kind]}: a 0 was rolled"
        case F.Audit(symbols):
            return f"IRS Audit: taxes once, {plural(symbols, 'tax symbol')}"
        case F.Dues():
            return "Protection Racket dues"
        case F.Taxes(symbols, zeros):
            return f"taxes: {plural(symbols, 'tax symbol')}" + (f" x {plural(zeros, 'zero')}" if zeros > 1 else "")
    raise ValueError(f"no words for {why!r}")


def _words(game, s: State, fact: tuple) -> list[Event]:
    """What each seat reads of `fact`, told by the rules of `s` as it happened."""
    match fact:
        case F.Began(first):
            return [public(f"{who(first)} goes first; each player is dealt {C.HAND_SIZE} cards" + _short(s))]
        case F.Drawn(p, kind):
            if s.phase != Phase.DEAL:
                return [secret(p, f"{who(p)} draws {C.KIND_NAMES[kind]}")]
            if p in s.draws:  # the deal: told once the hand is in
                return []
            return [secret(p, f"{who(p)} is dealt {_cards(s.hands[p])}")]
        case F.Reshuffled():
            n = s.deck.n
            return [public(f"the deck is empty: the discard pile ({plural(n, 'card')}) is shuffled into a new deck")]
        case F.DrawsLost(due):
            lost = {q: due.count(q) for q in dict.fromkeys(due)}
            text = "the deck and the discard pile are empty: no more cards to draw"
            text += "".join(f"; {who(q)} gets {plural(m, 'card')} fewer than due" for q, m in lost.items())
            out = [public(text)]
            if s.phase == Phase.DEAL:  # a hand cut short is told here, as its last deal draw will not come
                out += [secret(q, f"{who(q)} is dealt {_cards(s.hands[q])}") for q in lost if any(s.hands[q])]
            return out
        case F.DrawsBackUp(p, count):
            return [public(f"{who(p)} draws back up to {C.HAND_SIZE}: {plural(count, 'card')}" + _short(s))]
        case F.TurnBegan(p):
            return [public(f"{who(p)}'s turn: the book is on page {s.page + 1} ({who(p)} has {_money(s.money[p])})")]
        case F.NoLuxury(p):
            return [public(f"{who(p)} buys no luxury")]
        case F.Bought(p, x, price):
            lux = C.LUXURIES[x]
            return [public(f"{who(p)} buys {lux.name}")] + _paid_bank(p, price, f"price of {lux.name}")
        case F.Rolls(p, count, forced):
            why = " (no cards left to play and no business to sell)" if forced else ""
            return [public(f"{who(p)} rolls {plural(count, 'business die')}{why}")]
        case F.Die(value, nth, count, b, taxed):
            head = f"business die {nth} of {count} shows {value}"
            if value == 0:
                return [public(head + (": taxes!" if taxed else ": a 0, but taxes were already called this turn"))]
            return [public(head + (f": it hits {_biz(s, b)}" if b >= 0 else f": slot {value} is empty"))]
        case F.TaxesDue(zeros):
            return [public(f"taxes are due ({plural(zeros, 'zero')}): players running a business may first sell, "
                           f"in turn order from {who(s.turn)}")]
        case F.KeepsBusinesses(p):
            return [public(f"{who(p)} sells no more businesses")]
        case F.PageDie(value, was, page):
            if page != was:
                return [public(f"the page die shows {value}: the book turns to page {page + 1}")]
            return [public(f"the page die shows {value}: the book stays on page {was + 1}")]
        case F.Sold(p, b, page, tax_time):
            when = " before taxes" if tax_time else ""
            return [public(f"{who(p)} sells {C.BUSINESSES[b].name}{when}: its sign leaves page {page + 1}")]
        case F.Discarded(p, kind, pay):
            return [public(f"{who(p)} discards {C.KIND_NAMES[kind]}"),
                    public(f"{who(p)} collects {_money(pay)} from the bank (discarding a card)")]
        case F.Opened(p, b, page, mask, cost, fees):
            biz = C.BUSINESSES[b]
            sign = f"{indefinite(biz.shape)} sign on page {page + 1}, {_slots(mask)}"
            out = [public(f"{who(p)} opens {biz.name}: {sign}")]
            out += _paid_bank(p, cost, f"launch cost of {biz.name}")
            for q, covered in _by_receiver(fees).items():
                what = ", ".join(f"slot {slot + 1} over {C.BUSINESSES[c].name}" for slot, c, _ in covered)
                fee = sum(f for _, _, f in covered)
                out.append(public(f"{who(p)} pays {who(q)} {_money(fee)} (covering fee: {what})"))
            return out
        case F.AssetPlayed(p, kind, cost):
            card = C.card_of(kind)
            return [public(f"{who(p)} plays {card.name} ({card.text})")] + _paid_bank(p, cost, f"cost of {card.name}")
        case F.Played(p, kind):
            card = C.card_of(kind)
            return [public(f"{who(p)} plays {card.name} ({card.text})")]
        case F.Networking(p, kind, count):
            card = C.card_of(kind)
            return [public(f"{who(p)} plays {card.name}: they draw {plural(count, 'card')}" + _short(s))]
        case F.ExtraDie(p, count):
            return [public(f"{who(p)} will roll {count} business dice this turn")]
        case F.NothingToScout(p):
            return [public(f"no business card lies in the discard pile: {who(p)} draws a card instead" + _short(s))]
        case F.Aimed(p, kind, q):
            return [public(f"{who(p)} aims {C.KIND_NAMES[kind]} at {who(q)}")]
        case F.Fire(p, b, owner, page, insured):
            name = f"{C.BUSINESSES[b].name} ({who(owner)})"
            if insured:
                return [public(f"{who(p)} sets a Mysterious Fire at {name}, but {who(owner)}'s Fire Insurance "
                               "stops it; the Fire Insurance goes to the discard pile")]
            return [public(f"{who(p)}'s Mysterious Fire burns {name}: its card goes to the discard pile and "
                           f"its sign leaves page {page + 1}")]
        case F.Scouted(p, b):
            return [public(f"{who(p)}'s Business Scout takes {C.BUSINESSES[b].name} from the discard pile "
                           "into their hand")]
        case F.PageTurned(p, page):
            return [public(f"{who(p)}'s Page Turner turns the book to page {page + 1}")]
        case F.Gained(p, amount, why):
            return [public(f"{who(p)} collects {_money(amount)} from the bank ({_why(why)})")]
        case F.Owed(p, amount, paid, to, why):
            if not s.alive[p]:  # out already: nothing to pay
                if isinstance(why, F.Hit):
                    return [public(f"{who(p)} is out and pays nothing for the hit on {_biz(s, why.b)}")]
                return []
            if amount <= 0:
                return [public(f"{who(p)} has no tax symbols and pays nothing")] if isinstance(why, F.Audit) else []
            receiver = "the bank" if to < 0 else who(to)
            if paid < amount:
                pays = f"pays {receiver} {_money(paid)} and " if paid else ""
                return [public(f"{who(p)} owes {receiver} {_money(amount)} ({_why(why)}) but has only "
                               f"{_money(paid)}: {who(p)} {pays}is knocked out")]
            return [public(f"{who(p)} pays {receiver} {_money(paid)} ({_why(why)})")]
        case F.KnockedOut(p, hand, assets, closed):
            gone = [f"{what} {_cards(cards)}" for what, cards in (("hand", hand), ("assets", assets)) if any(cards)]
            out = [public(f"{who(p)} is out: their cards go to the discard pile ({'; '.join(gone)})" if gone
                          else f"{who(p)} is out")]
            if closed:
                out.append(public(f"{who(p)}'s businesses close, their signs leaving the book: "
                                  + ", ".join(f"{C.BUSINESSES[b].name} (page {pg + 1})" for b, pg in closed)))
            return out
        case F.LuxuriesLeave(p, xs):
            names = ", ".join(C.LUXURIES[x].name for x in xs)
            return [public(f"{who(p)}'s luxuries leave the game, with nobody left to bid: {names}")]
        case F.ToAuction(p, xs):
            names = ", ".join(C.LUXURIES[x].name for x in xs)
            return [public(f"{who(p)}'s luxuries will be auctioned, cheapest first: {names}")]
        case F.AuctionOpens(x, seller, bidder):
            lux = C.LUXURIES[x]
            return [public(f"auction of {who(seller)}'s {lux.name} (price ${lux.price}, tax {lux.tax}): "
                           f"bidding starts with {who(bidder)}, at ${lux.price} or more")]
        case F.Bid(p, x, amount):
            return [public(f"{who(p)} bids {_money(amount)} for {C.LUXURIES[x].name}")]
        case F.PassedOn(p, x):
            return [public(f"{who(p)} passes on {C.LUXURIES[x].name}")]
        case F.CannotBid(p, lowest):
            return [public(f"{who(p)} cannot pay {_money(lowest)} and passes")]
        case F.AuctionWon(p, x, price):
            lux = C.LUXURIES[x]
            return ([public(f"{who(p)} wins the auction of {lux.name} for {_money(price)}")]
                    + _paid_bank(p, price, f"auction of {lux.name}"))
        case F.Unsold(x):
            return [public(f"nobody bids for {C.LUXURIES[x].name}: it leaves the game")]
        case F.Won(p, x):
            third = [public(f"{C.LUXURIES[x].name} is {who(p)}'s third luxury")] if x >= 0 else []
            return third + _end_events(game, s)
    raise ValueError(f"no words for {fact!r}")


def _paid_bank(p: int, amount: int, why: str) -> list[Event]:
    """A payment `p` chose and could afford, to the bank (nothing said of $0)."""
    return [public(f"{who(p)} pays the bank {_money(amount)} ({why})")] if amount else []


def _by_receiver(fees: tuple) -> dict[int, list[tuple[int, int, int]]]:
    """Covering fees (slot, receiver, business covered, fee), grouped by receiver in slot order."""
    out: dict[int, list[tuple[int, int, int]]] = {}
    for slot, q, c, fee in fees:
        out.setdefault(q, []).append((slot, c, fee))
    return out


def _end_events(game, s: State) -> list[Event]:
    w = s.winner
    mine = [C.LUXURIES[x].name for x, o in enumerate(s.lux_owner) if o == w]
    if len(mine) >= 3:
        head = f"game over: {who(w)} wins with three luxuries ({', '.join(mine)})"
    else:
        head = f"game over: {who(w)} wins as the last player in"
    lines = []
    for p in range(game.n):
        if not s.alive[p]:
            lines.append(f"{who(p)} out")
            continue
        lux = [C.LUXURIES[x].name for x, o in enumerate(s.lux_owner) if o == p]
        lines.append(f"{who(p)} {_money(s.money[p])}, {plural(len(lux), 'luxury')}"
                     + (f" ({', '.join(lux)})" if lux else ""))
    return [public(head), public("final standings: " + "; ".join(lines))]


# Explanations -----------------------------------------------------------------------------------


def explain(game, s: State, a: int) -> str:
    """What the legal action `a` does at this node, for a person about to choose it ("" where its name
    says it all)."""
    if s.draws or s.phase in (Phase.FIRST_PLAYER, Phase.DICE, Phase.PAGE_DIE, Phase.OVER, Phase.DEAL, Phase.DRAW):
        return ""
    p = s.actor
    seg, index = A.ACTIONS.decode(a)
    ph = s.phase
    if seg == "done":
        if ph == Phase.LUXURY:
            return "buy no luxury this turn; go on to your two actions"
        if ph == Phase.ACTIONS:
            count = s.page + 1 + s.extra_dice
            return (f"end your actions and roll {plural(count, 'business die')}: each die hits "
                    "the sign visible in its slot, and each 0 makes everyone pay $1 per tax symbol; then the page die")
        if ph == Phase.TAX_SELL:
            zeros = game.zeros_taxed(s)
            symbols = game.tax_symbols(s, p)
            due = zeros * symbols
            text = f"keep your businesses; your taxes will be {_money(due)} ({plural(symbols, 'tax symbol')}"
            text += f" x {zeros} zeros)" if zeros > 1 else ")"
            dues = zeros * sum(s.assets[q][_RACKET] * C.card_of(_RACKET).amount
                               for q in range(game.n) if q != p and s.alive[q])
            if dues:
                text += f", after {_money(dues)} of Protection Racket dues"
                due += dues
            if due > s.money[p]:
                text += f": more than your {_money(s.money[p])}, which would knock you out"
            return text
        if ph == Phase.AUCTION:
            return (f"pass on {C.LUXURIES[s.lot].name}: the auction ends when every other player passes in a row "
                    "after the high bid")
        return ""
    i = index[0]
    if seg == "luxury":
        lux = C.LUXURIES[i]
        count = s.lux_owner.count(p) + 1
        text = f"pay the bank ${lux.price} for {lux.name} (tax {lux.tax} at every 0)"
        return text + (": your third luxury, which wins the game" if count >= 3 else f": your luxury {count} of 3")
    if seg == "sell":
        biz = C.BUSINESSES[i]
        return (f"collect {_money(C.SALE[i])} from the bank ({plural(biz.size, 'sign card')} at $2); its sign leaves "
                "the book, uncovering what lies beneath, and its card goes to the discard pile; "
                f"you lose its income ({biz.text})")
    if seg == "play":
        card = C.CARDS[i]
        text = f"{card.name}: {card.text}"
        if card.asset:
            text += "; it stays on your table (its tax symbols count at every tax)"
        return text
    if seg == "open":
        b, anchor = index
        biz = C.BUSINESSES[b]
        mask = C.PLACEMENTS[b][anchor]
        opened = next(f for f in _facts(game, s, a) if isinstance(f, F.Opened))
        fees = {q: sum(fee for _, _, fee in covered) for q, covered in _by_receiver(opened.fees).items()}
        text = f"{biz.name}: {biz.text}; sign on page {s.page + 1}, {_slots(mask)}"
        if fees:
            total = sum(fees.values())
            text += "; covering fees " + ", ".join(f"{_money(f)} to {who(q)}" for q, f in fees.items())
            text += f" (total {_money(biz.cost + total)} with the launch cost)"
        return text
    if seg == "discard":
        text = C.card_of(i).text if i >= C.NUM_BUSINESSES else C.BUSINESSES[i].text
        return f"collect $1 from the bank; {C.KIND_NAMES[i]} ({text}) goes face up to the discard pile"
    if seg == "player":
        q = (p + 1 + i) % game.n
        if s.card < 0:
            return ""
        card = C.card_of(s.card)
        if card.effect == C.Effect.IRS_AUDIT:
            due = game.tax_symbols(s, q)
            text = (f"{who(q)} pays the bank {_money(due)} now ({plural(due, 'tax symbol')}); "
                    f"they have {_money(s.money[q])}")
        else:
            due = card.amount
            text = f"{who(q)} pays you {_money(due)} now; they have {_money(s.money[q])}"
        return text + (": it knocks them out" if due > s.money[q] else "")
    if seg == "business":
        biz = C.BUSINESSES[i]
        if s.ask == Ask.SCOUT:
            return f"take {biz.name} from the discard pile into your hand ({biz.text})"
        q = s.owner[i]
        if q >= 0 and s.assets[q][_INSURANCE]:
            return f"{who(q)} has Fire Insurance: the fire fails and their Fire Insurance is discarded"
        return (f"burn {who(q)}'s {biz.name} on page {s.sign_page[i] + 1}: its card is discarded and its sign "
                "leaves the book, uncovering what lies beneath")
    if seg == "page":
        return (f"turn the book to page {i + 1} now: the signs visible from it are the ones the dice hit, and "
                f"you roll {plural(i + 1 + s.extra_dice, 'business die')}")
    if seg == "bid" and s.lot >= 0:
        lux = C.LUXURIES[s.lot]
        low = C.LUXURIES[s.lot].price if s.high < 0 else s.high + 1
        bid = low + A.BID_STEPS[i]
        count = s.lux_owner.count(p) + 1
        text = (f"bid {_money(bid)} for {lux.name} (price ${lux.price}, tax {lux.tax}): "
                "if nobody bids more, you pay the bank")
        return text + (" and win the game with your third luxury" if count >= 3 else "")
    return ""
