"""Drags 2 Riches options: the introductory game and the rulebook's optional rules."""

from __future__ import annotations

from dataclasses import dataclass

from d2r_envs.core.config import option


@dataclass(frozen=True)
class Config:
    num_players: int = option(4, range(2, 6), "players, 2 to 5")
    # D2R-SETUP-4 D2R-DECIDE-INTRO
    intro_game: bool = option(False, (False, True), "introductory game: event decks I and II only (the Sell-Out Tour ends deck II)")
    # D2R-OPT-LMA
    last_minute_additions: bool = option(False, (False, True), "optional rule: before the Event Phase, players may add cards from their new hand to their Look")
    # D2R-OPT-CATEGORY (off: D2R-DECIDE-TIE)
    category_is: bool = option(False, (False, True), "optional rule: the first player judges ties (picks the winner) instead of seat order")
    # D2R-OPT-THRIFT
    thrifting: bool = option(False, (False, True), "optional rule: a player who can afford no Market card may take a cheapest one free")
    # D2R-OPT-CHAR
    characters: bool = option(False, (False, True), "optional rule: each player chooses a Character whose action is usable once per game")
