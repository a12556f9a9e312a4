"""Rap Godz narration: the event log of a transition (`events`) and what a legal action does (`explain`).

Read only by logs and people (d2r_envs.core.events), never by the rules. Who sees what follows
encode.py: everything lies face up but the hands, the draft offers and the decks. A draw is told to the
drawer by name and to the others as "draws a card from Album N" (RG-TURN-5); a draft deal likewise; the
card returned in the draft is named to its owner only (RG-SETUP-2). Spent cards, played cards, Come Upz,
dice, payments and Pick Upz are public.
"""

from __future__ import annotations

from d2r_envs.core.events import Event, public, secret
from d2r_envs.core.game import CHANCE
from d2r_envs.core.words import plural
from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.state import Phase, State, Task


def who(p: int) -> str:
    return f"player_{p}"


def resources(res) -> str:
    """A seat's resources in words: "Streetz 3, Skillz 2, Swag 1"."""
    return ", ".join(f"{name} {v}" for name, v in zip(C.RESOURCES, res))


def _changed(before, after) -> str:
    """The resources a move changed: "Streetz 9 -> 12" (or "resources unchanged")."""
    return ", ".join(f"{name} {b} -> {a}" for name, b, a in zip(C.RESOURCES, before, after) if a != b) \
        or "resources unchanged"


def events(game, before: State, action: int, after: State) -> list[Event]:
    out: list[Event] = []
    actor = game.current_player(before)
    if actor == CHANCE:
        task, arg = before.chance[0]
        text = game.action_to_string(before, action)
        if task == Task.DRAW:
            out.append(secret(arg, f"{who(arg)} draws {C.KIND_NAMES[action]} ({C.card_text(action)})",
                              f"{who(arg)} draws a card from Album {before.album + 1}"))
        elif task in (Task.RAPPER, Task.CITY):
            what = "Rapper" if task == Task.RAPPER else "City"
            out.append(secret(arg, f"{who(arg)} is dealt {C.KIND_NAMES[action]}", f"{who(arg)} is dealt a {what}"))
        else:
            out.append(public(text))
    else:
        seg, index = A.ACTIONS.decode(action)
        i = index[0] if index else 0
        line = f"{who(actor)}: {game.action_to_string(before, action)}"
        if seg in ("rapper", "city"):
            kinds = range(C.RAPPER_FIRST, C.CITY_FIRST) if seg == "rapper" else range(C.CITY_FIRST, C.NUM_KINDS)
            kept = (C.RAPPER_FIRST if seg == "rapper" else C.CITY_FIRST) + i
            back = [C.KIND_NAMES[k] for k in kinds if before.offers[actor][k] and k != kept]
            out.append(Event(line + " (the other goes back to the deck)",
                             {actor: line + f" ({', '.join(back) or 'nothing'} goes back to the deck)"}))
        elif seg == "play" and not C.CARDS[i].beef:
            gained = game.points(after, actor) - game.points(before, actor)
            out.append(public(f"{line}: +{plural(gained, 'plaque')}, {_changed(before.res[actor], after.res[actor])}"))
        else:
            out.append(public(line))
    # What followed by itself: Pick Upz collected, Beef settled, a new Album, the Medallion.
    for p in range(game.n):
        for t in range(3):
            got = after.pickups[p][t] - before.pickups[p][t]
            if got > 0 and not (actor == p and got < 0):
                out.append(public(f"{who(p)} collects a {C.PICKUP_TYPES[t]} Pick Upz"))
    for g in range(C.NUM_GOALZ):
        if after.goal_won[g] >= 0 and before.goal_won[g] < 0:
            out.append(public(f"{who(after.goal_won[g])} collects the Goalz {C.GOALZ[g][0]}"))
    if before.beef_card >= 0 and after.beef_card < 0 and before.starter >= 0:
        a, b = _values_after(before, action, actor == CHANCE)
        loser = next(p for p in (before.starter, before.target)
                     if after.timelines[p][before.beef_card] > before.timelines[p][before.beef_card])
        winner = before.target if loser == before.starter else before.starter
        out.append(public(f"Beef: {who(before.starter)} {a} vs {who(before.target)} {b}: {who(winner)} wins the Beef, "
                          f"{who(loser)} takes {C.KIND_NAMES[before.beef_card]} and pays"))
    if after.album != before.album:
        out.append(public(f"Album {after.album + 1}: abilities refreshed, Come Upz replaced, hands drawn up"))
    elif after.track != before.track and after.phase != Phase.OVER:
        out.append(public(f"Track {after.track + 1} of Album {after.album + 1}"))
    if after.medallion != before.medallion and after.medallion >= 0:
        out.append(public(f"{who(after.medallion)} takes the Medallion"))
    if after.phase == Phase.OVER and before.phase != Phase.OVER:
        out.append(public("final plaques: " + ", ".join(f"{who(p)} {v}" for p, v in enumerate(after.final))))
    return out + game.result_events(after)


def _values_after(before: State, action: int, chance: bool) -> tuple[int, int]:
    """The Beef values the transition settled on: a die just rolled, or a +2 just used."""
    d, bonus = list(before.dice), list(before.bonus)
    if chance:
        d[before.chance[0][1]] = action + 1
    elif action == A.BOOST:
        bonus[before.side] += 2
    return max(d[0], d[1]) + bonus[0], d[2] + bonus[1]


def explain(game, s: State, action: int) -> str:
    if game.current_player(s) == CHANCE:
        return ""
    seg, index = A.ACTIONS.decode(action)
    i = index[0] if index else 0
    p = s.actor
    if seg == "play" or seg == "spend":
        return C.card_text(i)
    if seg == "rapper":
        r = C.RAPPERZ[i]
        return (f"{C.DIFFICULTY[r.difficulty]}; bonus {C.COLOUR_NAMES[r.colour]}; {r.text}; goal: "
                f"{plural(r.goal_cards, C.COLOUR_NAMES[r.colour] + ' card')} for {plural(r.goal_plaques, 'plaque')}")
    if seg == "city":
        c = C.CITIEZ[i]
        return f"starts at {resources(c.start)}; most {C.COLOUR_NAMES[c.colour]} icons: {plural(c.plaques, 'plaque')}"
    if seg == "draw":
        return f"{plural(s.decks[s.album].n, 'card')} left in the Album {s.album + 1} deck"
    if seg == "come_upz":
        return f"{C.card_text(s.slots[i])}; costs {plural(game.come_cost(s, p), 'card')} from the hand"
    if seg == "target":
        q = (p + 1 + i) % game.n
        return f"{who(q)}: {plural(game.points(s, q), 'plaque')}, {resources(s.res[q])}"
    if seg == "pass":
        if s.phase == Phase.BEEF:
            a, b = game.beef_values(s)
            return f"keep the dice as they are ({a} vs {b})"
        return "no card can be played: the turn ends"
    if seg == "res_pickup":
        return f"{C.RESOURCES[i]} {s.res[p][i]} -> {min(s.res[p][i] + 3, game._cap(s, p, i))}"
    if seg == "boost":
        a, b = game.beef_values(s)
        return f"add 2 to your Beef value ({a} vs {b} now)"
    if seg == "ability":
        return "reroll your Beef dice" if s.phase == Phase.BEEF else "draw a card (once per Album)"
    return "draw a card"
