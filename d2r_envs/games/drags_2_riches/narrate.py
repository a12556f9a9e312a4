"""Drags 2 Riches event log: each transition told in plain English, as each seat may see it.

`events(game, before, action, after)` narrates one transition from the state before it, the action
(a player's decision or a chance outcome) and the state after; it is read only by logs and people
(`d2r_envs.core.events.Log`), never by the rules or the fast paths, and nothing of it is stored in
the State. `explain(game, state, action)` says what a legal action does, for a person choosing it.

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
from d2r_envs.core.game import CHANCE
from d2r_envs.core.words import plural
from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.state import Ask, Phase, State, Task

Ch = C.Character
Op = C.Op
_TURN_PHASES = (Phase.PLAY, Phase.WERK, Phase.CARD, Phase.REACT, Phase.UNTUCK)
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


# Narration ----------------------------------------------------------------------------------


def events(game, before: State, action: int, after: State) -> list[Event]:
    """What happened in `before` --action--> `after`, in the order it happened, as each seat sees it."""
    player = game.current_player(before)
    out = _chance(game, before, action, after) if player == CHANCE else _decision(game, before, player, action, after)
    return out + _consequences(game, before, action, after, player)


def _chance(game, b: State, k: int, a: State) -> list[Event]:
    if b.chance:
        task, seat = b.chance[0]
        if task == Task.DRAW:  # the run was announced when it was queued: the others are told nothing
            if b.phase in (Phase.DEAL, Phase.UNTUCK):  # a new hand, which started empty: told whole at its end
                if any(t == Task.DRAW and q == seat for t, q in a.chance):
                    return []
                return [secret(seat, f"{_p(seat)} draws {'their hand' if b.phase == Phase.DEAL else 'a new hand'}:"
                                     f" {C.counts_to_string(a.hands[seat])}")]
            return [secret(seat, f"{_p(seat)} draws {_name(k)}")]
        if task == Task.MARKET:
            if b.round == 0:
                return [public(f"Market set-up: {_name(k)} is laid out")]
            return [public(f"the Market is refilled with {_name(k)}")]
        return [public(f"{_p(seat)} discards {_name(k)} at random, into their Floordrobe (Shade)")]
    if b.phase == Phase.FIRST_PLAYER:
        text = f"{_p(k)} takes the First Player token"
        if game.config.characters:
            text += "; Characters are chosen in seat order from them"
        return [public(text)]
    return []  # the Event revealed: told with the new round in _consequences


def _decision(game, b: State, p: int, action: int, a: State) -> list[Event]:
    P = _p(p)
    ph = b.phase
    seg, index = A.ACTIONS.decode(action)
    i = index[0] if index else 0
    if ph in (Phase.PLAY, Phase.WERK):
        if seg == "end":
            return [public(_untuck_text(b, p, a))]
        if seg == "activate":
            return [public(_activate_text(game, b, p, i, a))]
        if seg == "wear":
            return [_wear_event(game, b, p, i, a)]
        if seg == "buy":
            return [public(_buy_text(game, b, p, i, a))]
        return [public(_ability_text(game, b, p, a))]
    if ph == Phase.CHARACTERS:
        name, ability, text, _source = C.CHARACTERS[i]
        return [public(f"{P} chooses {name} (" + ("" if ability.startswith("(") else f"{ability}: ") + f"{text})")]
    if ph == Phase.CARD:
        return _answer_events(game, b, p, action, a)
    if ph == Phase.REACT:
        return [public(_react_text(game, b, p, action, a))]
    if ph == Phase.LAST_MINUTE:
        if seg == "end":
            return [public(f"{P} is done adding to their Look")]
        return [_wear_event(game, b, p, i, a)]
    if ph == Phase.THUMBS:
        return [secret(p, f"{P} declares {_THUMBS_WORDS[i]} (hidden until everyone has declared)",
                       f"{P} declares their thumbs, face down")]
    if ph == Phase.JUDGE:
        w = (p + i) % game.n
        return [public(f"{P}, the first player, awards {_event(b.event)} to {_p(w)} (Category Is)")]
    return [public(f"{P}: {game.action_to_string(b, action)}")]


def _draws_due(a: State, p: int) -> int:
    """How many of the draws queued for `p` in `a` will be drawn: the Wardrobe, with the Floordrobe
    Dry Cleaned into it, is all there is, and nothing else moves cards in or out during a run."""
    queued = sum(1 for t, q in a.chance if t == Task.DRAW and q == p)
    return min(queued, a.wardrobes[p].n + sum(a.floors[p]))


def _draw_text(a: State, p: int, due: int, what: str = "", when: str = "") -> str:
    """'they draw 3 cards', told when the draws are queued, with what an empty Wardrobe and Floordrobe
    leave of them. `what` names the cards ('extra cards'; 'cards' by default), `when` follows them."""
    got = _draws_due(a, p)
    if not got:
        return "nothing left to draw (Wardrobe and Floordrobe empty)"
    text = (f"they draw {due} {what}" if what else f"they draw {plural(due, 'card')}") + when
    if got < due:
        text += f", but only {got} {'is' if got == 1 else 'are'} left in their Wardrobe and Floordrobe"
    return text


def _untuck_text(b: State, p: int, a: State) -> str:
    hand, active = b.hands[p], b.active[p]
    text = f"{_p(p)} ends their turn"
    if b.coins:
        text += f", leaving {plural(b.coins, 'coin')} unspent"
    moved = []
    if any(hand):
        moved.append(f"hand {C.counts_to_string(hand)}")
    if any(active):
        moved.append(f"activated {C.counts_to_string(active)}")
    if moved:
        text += "; to their Floordrobe: " + "; ".join(moved)
    got = _draws_due(a, p)
    if not got:
        return text + "; they Untuck, with nothing left to draw (Wardrobe and Floordrobe empty)"
    text += f"; they Untuck and draw a new hand of {plural(C.HAND_SIZE, 'card')}"
    if got < C.HAND_SIZE:
        text += f", but only {got} {'is' if got == 1 else 'are'} left in their Wardrobe and Floordrobe"
    return text


def _activate_text(game, b: State, p: int, k: int, a: State) -> str:
    kind = C.KINDS[k]
    text = f"{_p(p)} activates {kind.name} ({_does(kind)})"
    if kind.coins:
        text += f": {a.coins} to spend"
    if kind.op == Op.DRAW:
        text += "; " + _draw_text(a, p, kind.amount)
    elif kind.op == Op.RETURN and a.ask != Ask.RETURN:
        text += f"; nothing in the Floordrobe of value {kind.amount} or less to Return"
    elif kind.op == Op.LEND and a.ask != Ask.LEND_CARD:
        text += "; no card left in the hand to Lend"
    elif kind.shade:
        text += "; they choose a target"
    return text


def _wear_event(game, b: State, p: int, k: int, a: State) -> Event:
    t = C.TYPE_OF[k]
    slot = C.TYPES[t]
    old = b.looks[p][t]
    replaced = f", replacing {_name(old)}, which goes to their Floordrobe face up" if old >= 0 else ""
    mine = (f"{_p(p)} wears {_name(k)} face down in their {slot} slot{replaced}"
            f" (Look value now {game.look_value(a, p)})")
    return secret(p, mine, f"{_p(p)} wears a card face down in their {slot} slot{replaced}")


def _buy_text(game, b: State, p: int, k: int, a: State) -> str:
    name, value = _name(k), C.VALUE[k]
    if value <= b.coins:
        text = f"{_p(p)} buys {name} for {plural(value, 'coin')} ({a.coins} left)"
    else:
        text = f"{_p(p)} takes {name} (value {value}) free by Thrifting"
    if b.event == C.SELL_OUT:
        text += ", into their hand (Sell-Out Tour: playable this round)"
    else:
        text += ", into their Floordrobe"
        if b.phase == Phase.PLAY:
            text += "; the Werk Phase begins: no more cards are played this turn"
    if not a.pile.n and not any(t == Task.MARKET for t, _ in a.chance):
        text += "; the Market pile is empty, so the space stays empty"
    return text


def _ability_text(game, b: State, p: int, a: State) -> str:
    ch = b.characters[p]
    text = C.CHARACTERS[ch][2]
    head = f"{_p(p)} uses {_character(ch)} (once per game)"
    if ch == Ch.HO_COUTURE:
        return head + f": +{C.HO_BONUS} to each card in their Look this round"
    if ch == Ch.GLAM_STOKER:
        return head + f": +{C.GLAM_BONUS} to their Look this round"
    if ch == Ch.KENYA_FEELIT:
        return head + ": they choose a Look type worth 0 for every other player this round"
    if ch == Ch.BI_FELICIA:
        return head + f": they trash up to {C.FELICIA_TRASH} cards from their Floordrobe"
    if ch == Ch.CATASTROPHOEBE:
        took = [k for k in range(C.NUM_KINDS) if a.market[k] < b.market[k]]
        if took:
            k = took[0]
            return head + (f": takes {_name(k)} (value {C.VALUE[k]}), the highest value Market card,"
                           " into their Floordrobe")
        return head + ": they choose one of the tied highest value Market cards"
    if ch == Ch.SHESSICA:
        return head + ": they choose a Look type to double for themselves and one other player this round"
    if ch == Ch.CHEEKS_ILLUSTRA:
        return head + ": " + _draw_text(a, p, C.CHEEKS_DRAW)
    return head + f": {text}"


def _answer_events(game, b: State, p: int, action: int, a: State) -> list[Event]:
    P = _p(p)
    ask = b.ask
    k = action - A.CARD
    t = action - A.LOOK_TYPE
    if ask == Ask.SHADE_TARGET:
        target = _other(game, p, action)
        effect = _effect(C.KINDS[b.card].op, _p(target), P)
        return [public(f"{P} targets {_p(target)} ({plural(sum(b.hands[target]), 'card')} in hand)"
                       f" with the Shade of {_name(b.card)}"
                       f" ({effect}); {_p(target)} may block or reverse it")]
    if ask == Ask.BORROW:
        return [public(f"{P} borrows {_name(k)} from {_p(b.victim)}'s hand, into their own Floordrobe")]
    if ask == Ask.RETURN:
        return [public(f"{P} returns {_name(k)} from their Floordrobe to their hand ({_name(b.card)})")]
    if ask == Ask.LEND_CARD:
        return [secret(p, f"{P} picks {_name(k)} to lend", f"{P} picks a card from their hand to lend")]
    if ask == Ask.LEND_TARGET:
        other = _other(game, p, action)
        return [public(f"{P} lends {_name(b.picked)} to {_p(other)}, into {_p(other)}'s Floordrobe")]
    if ask == Ask.TRASH:
        text = f"{P} trashes {_name(k)} from their Floordrobe (Boujee)"
        if a.phase == Phase.CARD and a.ask == Ask.TRASH:
            text += f"; {a.left} more to trash"
        return [public(text)]
    if ask == Ask.TAKE:
        return [public(f"{P} takes {_name(k)} (value {C.VALUE[k]}) from the Market into their Floordrobe"
                       " (Executive Realness)")]
    if ask == Ask.KENYA_TYPE:
        return [public(f"{P} (Sickening): {C.TYPES[t]} cards are worth 0 for every other player this round")]
    if ask == Ask.SHESSICA_TYPE:
        return [secret(p, f"{P} chooses {C.TYPES[t]} for Drag Mother, and next the other player",
                       f"{P} chooses a Look type for Drag Mother")]
    if ask == Ask.SHESSICA_TARGET:
        other = _other(game, p, action)
        return [public(f"{P} (Drag Mother): {C.TYPES[b.chosen_type]} cards count double for {P} and {_p(other)}"
                       " this round")]
    return [public(f"{P}: {game.action_to_string(b, action)}")]


def _react_text(game, b: State, p: int, action: int, a: State) -> str:
    attacker = b.turn
    T, att = _p(p), _p(attacker)
    if action == A.TAKE:
        text = f"{T} takes the Shade"
        if not any(b.hands[p]):
            text += ": their hand is empty, so it does nothing"
        return text
    if action == A.BLOCK:
        return f"{T} shows a Block Shade card from their hand (it stays there): the Shade is blocked"
    kelisha = a.used[p] and not b.used[p]
    via = _character(Ch.KELISHA_KEYS) if kelisha else "a Reverse Shade card (Mirror) from their hand"
    text = f"{T} reverses the Shade with {via}: it turns back on {att}"
    if len(a.pending[attacker]) > len(b.pending[attacker]):
        text += f"; {att}'s hand is empty, so the reversed Shade waits for their next hand"
    return text


# What the rules did after the action -------------------------------------------------------------


def _consequences(game, b: State, action: int, a: State, player: int) -> list[Event]:
    n = game.n
    out: list[Event] = []
    drawer = b.chance[0][1] if player == CHANCE and b.chance and b.chance[0][0] == Task.DRAW else -1
    new_turn = a.phase == Phase.PLAY and a.turn >= 0 and (
        a.turn != b.turn or a.round != b.round or b.phase not in _TURN_PHASES)
    cleaned = [q for q in range(n) if a.wardrobes[q].n + (q == drawer) > b.wardrobes[q].n]
    spree = a.event >= 0 and C.EVENTS[a.event].kind == C.EventKind.SPREE
    late = [q for q in cleaned if new_turn and spree and q == a.turn]  # for the Spree draws of the new turn
    for q in cleaned:
        if q not in late:
            out.append(_dry_clean(a, q))
    if drawer >= 0:  # draws dropped: the Wardrobe and the Floordrobe are both empty
        for q in range(n):
            due = sum(1 for t, r in b.chance if t == Task.DRAW and r == q) - (q == drawer)
            lost = due - sum(1 for t, r in a.chance if t == Task.DRAW and r == q)
            if lost > 0:
                text = f"{_p(q)}'s Wardrobe and Floordrobe are empty: they draw {plural(lost, 'card')} fewer than due"
                if b.phase in (Phase.DEAL, Phase.UNTUCK):
                    text += f", for a hand of {plural(sum(a.hands[q]), 'card')}"
                out.append(public(text))

    # A reversed Shade that waited for its victim's new hand.
    for q in range(n):
        waiting = b.pending[q]
        if len(a.pending[q]) >= len(waiting):
            continue
        op, beneficiary = waiting[0]
        discards = (a.chance.count((Task.DISCARD, q)) > b.chance.count((Task.DISCARD, q)))
        hit = discards or (a.phase == Phase.CARD and a.ask == Ask.BORROW and a.victim == q)
        if hit:
            effect = _effect(op, _p(q), _p(beneficiary))
            out.append(public(f"the reversed Shade waiting for {_p(q)}'s new hand resolves: {effect}"))
        else:
            out.append(public(f"{_p(q)}'s hand is empty: {len(waiting)} waiting reversed Shade(s) dropped"))

    # A Peek: the beneficiary alone sees the hand.
    if a.phase == Phase.CARD and a.ask == Ask.BORROW and not (b.phase == Phase.CARD and b.ask == Ask.BORROW):
        who, victim = a.actor, a.victim
        seen = C.counts_to_string(a.peek_hand[who])
        out.append(Event(f"{_p(who)} peeks at {_p(victim)}'s hand and will Borrow 1 of those cards",
                         {who: f"{_p(who)} peeks at {_p(victim)}'s hand: {seen}; they Borrow 1 of those cards"}))

    out += _event_phase(game, b, action, a, player)

    if a.first != b.first and b.first >= 0:
        out.append(public(f"the First Player token passes to {_p(a.first)}"))
    if a.phase == Phase.OVER and b.phase != Phase.OVER:
        out += final_events(game, a)
        return out
    if a.round != b.round:
        out.append(public(_round_text(game, a)))
    if new_turn:
        text = f"{_p(a.turn)}'s turn (Playing Phase)"
        if spree:
            text += "; Shopping Spree: " + _draw_text(a, a.turn, C.SPREE_EXTRA, "extra cards", " first")
        out.append(public(text))
    for q in late:
        out.append(_dry_clean(a, q))
    return out


def _dry_clean(a: State, q: int) -> Event:
    return public(f"{_p(q)}'s Wardrobe is empty: they Dry Clean, shuffling their Floordrobe"
                  f" ({plural(a.wardrobes[q].n, 'card')}) into a new Wardrobe")


def _round_text(game, a: State) -> str:
    ev = C.EVENTS[a.event]
    text = f"Round {a.round}: the Event is {_event(a.event)}"
    if ev.kind == C.EventKind.SPREE:
        text += f": every player draws {C.SPREE_EXTRA} extra cards at the start of their turn; no Event Phase"
    elif ev.kind == C.EventKind.SELL_OUT:
        text += ": the final round; cards bought this round go to the hand and can be played at once"
    if a.round == 1:
        text += f"; everyone draws a hand of {C.HAND_SIZE}, from {_p(a.first)}"
        short = [f"{_p(q)} only {_draws_due(a, q)}" for q in _order(game.n, a.first)
                 if _draws_due(a, q) < C.HAND_SIZE]
        if short:
            text += f" (Wardrobe and Floordrobe short: {', '.join(short)})"
    return text


def _look_text(b: State, q: int, glam: bool) -> str:
    """The cards of q's Look (as it stood in `b`), each with its value this round."""
    parts = []
    for t, k in enumerate(b.looks[q]):
        if k < 0:
            continue
        v = C.VALUE[k]
        notes = []
        if b.zeroed[q] >> t & 1:
            v, notes = 0, ["Sickening"]
        else:
            if b.doubled[q] >> t & 1:
                v *= 2
                notes.append("doubled")
            if b.ho[q]:
                v += C.HO_BONUS
                notes.append("Glamazon")
        parts.append(f"{_name(k)} {v}" + (f" ({', '.join(notes)})" if notes else ""))
    bonus = b.bonus[q] + (C.GLAM_BONUS if glam else 0)
    return ", ".join(parts) + (f", +{bonus} Deathdrop Diva" if bonus else "")


def _event_phase(game, b: State, action: int, a: State, player: int) -> list[Event]:
    n = game.n
    out: list[Event] = []
    if a.phase == Phase.LAST_MINUTE and b.phase != Phase.LAST_MINUTE:
        out.append(public(f"Last Minute Additions: from {_p(a.first)}, each player may add cards from their hand"
                          " to the empty slots of their Look"))
    if a.phase == Phase.THUMBS and b.phase != Phase.THUMBS:
        able = [_p(q) for q in _order(n, a.first) if a.worn[q]]
        who = f"{_join(able)} (who have a Look) declare" if len(able) > 1 else f"{able[0]} (who has a Look) declares"
        out.append(public(f"Event Phase for {_event(a.event)}: {who} thumbs up or down, face down,"
                          " in seat order"))
    revealed = b.phase == Phase.THUMBS and a.phase != Phase.THUMBS
    judged = a.phase == Phase.JUDGE
    if revealed:
        up = [q for q in _order(n, b.first) if a.thumbs[q] >= 1]
        said = [f"{_p(q)} " + ("down", "up", "up with Deathdrop Diva")[a.thumbs[q]]
                for q in _order(n, b.first) if a.thumbs[q] >= 0]
        out.append(public("everyone has declared; thumbs: " + ", ".join(said)))
        for q in up:
            if judged:  # the cards show once the Looks are discarded, after the judging
                out.append(public(f"{_p(q)} reveals their Look: value {a.last_values[q]}"))
            else:
                out.append(public(f"{_p(q)} reveals their Look: {_look_text(b, q, a.thumbs[q] == 2)}"
                                  f" = value {a.last_values[q]}"))
        if up:
            top = max(a.last_values[q] for q in up)
            tied = [q for q in up if a.last_values[q] == top]
            if len(tied) > 1:
                names = _join([_p(q) for q in tied])
                if judged:
                    out.append(public(f"{names} tie at {top}: {_p(a.first)}, the first player, judges (Category Is)"))
                else:
                    w = min(tied, key=lambda q: (q - b.first) % n)
                    out.append(public(f"{names} tie at {top}: {_p(w)} wins it, nearest the first player"
                                      f" ({_p(b.first)}) in seat order"))
    if len(a.gone) > len(b.gone):
        e = a.gone[-1]
        if C.EVENTS[e].kind == C.EventKind.SPREE:
            out.append(public("the Shopping Spree ends with no Event Phase; its card is discarded"))
        elif revealed:
            out.append(public(f"nobody declared thumbs up: {_event(e)} is trashed"))
        else:
            out.append(public(f"nobody has a Look to compete with: {_event(e)} is trashed"))
    for w in range(n):
        if len(a.won[w]) > len(b.won[w]):
            e = a.won[w][-1]
            gain = a.prestige[w] - b.prestige[w]
            why = ("chosen by the first player" if b.phase == Phase.JUDGE
                   else f"with the best Look (value {max(a.last_values)})")
            out.append(public(f"{_p(w)} wins {C.EVENTS[e].name}, {why}: +{gain} prestige"
                              f" (now {a.prestige[w]}, {plural(len(a.won[w]), 'Event')})"))
            if b.phase == Phase.JUDGE:
                shown = [f"{_p(q)} ({_look_text(b, q, b.thumbs[q] == 2)})" for q in _order(n, b.first)
                         if b.thumbs[q] >= 1]
                out.append(public("the revealed Looks go to their Floordrobes: " + "; ".join(shown)))
            else:
                out.append(public("every revealed Look goes to its owner's Floordrobe"))
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
        when = "when targeted by a Shade" if i == Ch.KELISHA_KEYS else "once per game"
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
           else f"spend {_character(Ch.KELISHA_KEYS)} (once per game)")
    effect = _effect(op, _p(attacker), "you")
    text = f"Reverse it: {via}; the Shade is blocked and turned back: {effect}"
    if not any(s.hands[attacker]):
        text += " (their hand is empty now, so it waits for their next hand)"
    return text
