"""The words players read, in every game: each seat's event log, the explanation of every legal move,
the decision and move names, and the option errors. Many seeded random games of every game, player
count and option value are played, every text collected, and each checked for the mistakes a reader
trips on: "a orange", "1 spaces", Python reprs, a seat spelt two ways or addressed as "you"."""

from __future__ import annotations

import dataclasses
import html
import re
from functools import lru_cache

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core import config as _config
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.core.words import article, indefinite, plural, plural_of, quote
from d2r_envs.registry import package

SEEDS = range(4)


def _option_sets(name: str) -> list[dict]:
    """The defaults, each listed option value on its own, and every true/false option on at once."""
    sets: list[dict] = [{}]
    flags = {}
    for f in dataclasses.fields(package(name).Config):
        allowed = f.metadata["allowed"]
        if f.name == "num_players" or not isinstance(allowed, (tuple, list)):
            continue
        sets += [{f.name: v} for v in allowed if v != f.default]
        if isinstance(f.default, bool):
            flags[f.name] = True
    if len(flags) > 1:
        sets.append(flags)
    valid = []
    for options in sets:
        try:
            d2r_envs.make_game(name, **options)
        except ValueError:  # a value that needs another option (a module outside level=custom)
            continue
        valid.append(options)
    return valid


def _counts(name: str) -> range:
    spec = d2r_envs.make_game(name).spec
    return range(spec.min_players, spec.max_players + 1)


@lru_cache(maxsize=None)
def _texts(name: str) -> tuple[dict[str, set[str]], ...]:
    """Every text of random games of `name`: ({kind: texts}, per player count), kinds "event" (what
    each seat sees), "explain", "move" (action_to_string of legal moves), "decision" and "picture"
    (the words of the SVG picture from above, now and then and at the end)."""
    out = []
    for n in _counts(name):
        texts: dict[str, set[str]] = {"event": set(), "explain": set(), "move": set(), "decision": set(),
                                      "picture": set(), "view": set()}
        for i, options in enumerate(_option_sets(name)):
            for seed in SEEDS if not options else SEEDS[:1]:  # the defaults most, each variant once
                _play(d2r_envs.make_game(name, n, **options), seed + 10 * i, texts)
        out.append(texts)
    return tuple(out)


def _play(game, seed: int, texts: dict[str, set[str]]) -> None:
    state = game.new_initial_state()
    record = package(game.spec.name)
    log = record.log(game)
    rng = np.random.default_rng(seed)
    observer = game.make_observer()
    decisions = steps = 0
    while game.current_player(state) != TERMINAL and decisions < game.spec.max_game_length:
        texts["decision"].add(game.decision_name(state))
        if decisions % 40 == 0:
            texts["picture"].update(_picture_texts(record.svg(game, state)))
        if steps % 7 == 0:  # the seats' views as text (`d2r play`), set-up included
            texts["view"].add(game.state_to_string(state))
            texts["view"].update(observer.string_from(state, p) for p in range(game.spec.num_players))
        steps += 1
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal_actions(state)
            for a in legal:
                texts["explain"].add(record.explain(game, state, a))
                texts["move"].add(game.action_to_string(state, a))
            action = legal[int(rng.integers(len(legal)))]
            decisions += 1
        log.apply(state, action)
    for seat in range(game.spec.num_players):
        texts["event"].update(log.seen_by(seat))
    texts["picture"].update(_picture_texts(record.svg(game, state)))


def _picture_texts(svg: str) -> list[str]:
    """The words of a picture (its title and text elements)."""
    return [html.unescape(t) for t in re.findall(r"<(?:text|title)[^>]*>([^<]*)</", svg)]


# The checks: each returns what is wrong with one text, or "".

_ARTICLE = re.compile(r"(?<![\w'-])([Aa]n?) ([\w$+-][\w'-]*)")
_COUNT = re.compile(r"(?<![\w.$-])([+-]?[0-9]+) ([A-Za-z]+)\b")
_LABEL = re.compile(r"[A-Z][A-Za-z]* $")  # "Album 1 cards": the number labels the word before it
# Words ending in "s" that are not plural nouns: a count of 1 may stand before them.
_NOT_PLURAL = {"is", "was", "has", "its", "this", "plus", "less", "as", "us", "yes", "vs", "goes", "shows", "pays",
               "takes", "wins", "gets", "moves", "draws", "plays", "rolls", "holds", "scores", "claims", "earns",
               "collects", "buys", "opens", "sells", "hits", "lands", "costs", "passes", "bedazzles"}
_REPR = re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b|\bnp\.|array\(|(?<!\w)'[^'\s]+'(?=[:,)\]])")
_SEAT = re.compile(r"\b[Pp]layer[ -]?[0-9]|\bplayer_(-?[0-9]+)")
_YOU = re.compile(r"(?:^|player_[0-9]+: )(?:you|your)\b", re.IGNORECASE)


def _articles(text: str) -> str:
    for m in _ARTICLE.finditer(text):
        given, word = m.group(1).lower(), m.group(2)
        if word[:1].isdigit() or word[:1] in "+-$":
            continue  # "a +1 Card", "a 3": read aloud either way often enough
        if given != article(word):
            return f"{m.group(0)!r}: {article(word)} {word}"
    return ""


def _counted(text: str):
    """(number, the word after it, the match) for every count in `text`."""
    for m in _COUNT.finditer(text):
        if not _LABEL.search(text, 0, m.start()):
            yield m.group(1).lstrip("+-"), m.group(2), m


def _counts_of_one(text: str) -> str:
    for number, word, m in _counted(text):
        if number == "1" and word.endswith("s") and not word.endswith(("ss", "us", "is")) \
                and word.lower() not in _NOT_PLURAL:
            return f"{m.group(0)!r}: one of a plural"
    return ""


def _plurals(texts) -> set[str]:
    """The nouns a count of more than one stands before, in their plural: "cards", "lips"."""
    return {word for t in texts for number, word, _ in _counted(t) if number not in ("0", "1")}


def _counts_agree(text: str, plurals: set[str]) -> str:
    """A count other than 1 before the singular of a noun seen in the plural elsewhere: "2 card"."""
    for number, word, m in _counted(text):
        if number != "1" and word not in plurals and plural_of(word) in plurals:
            return f"{m.group(0)!r}: {number} {plural_of(word)}"
    return ""


def _reprs(text: str) -> str:
    m = _REPR.search(text)
    return f"{m.group(0)!r}: a Python repr" if m else ""


def _seats(text: str, n: int) -> str:
    for m in _SEAT.finditer(text):
        if m.group(1) is None:
            return f"{m.group(0)!r}: a seat is written player_k"
        if not 0 <= int(m.group(1)) < n:
            return f"{m.group(0)!r}: no such seat"
    return ""


def _second_person(text: str) -> str:
    m = _YOU.search(text)
    return f"{m.group(0)!r}: an event names the seat (player_k), not you" if m else ""


def _problems(name: str) -> list[str]:
    found = []
    everything = [t for texts in _texts(name) for kind, group in texts.items() if kind != "view" for t in group]
    plurals = _plurals(everything)
    for n, texts in zip(_counts(name), _texts(name)):
        for kind, group in texts.items():
            for text in sorted(group):
                if kind == "view":  # a dump of the state for a reader at the terminal: its seats only
                    found += [f"{name} {n}p view: {text!r} -- {c}" for c in [_seats(text, n)] if c]
                    continue
                checks = [_articles(text), _counts_of_one(text), _counts_agree(text, plurals), _reprs(text),
                          _seats(text, n)]
                if kind == "event":
                    checks.append(_second_person(text))
                found += [f"{name} {n}p {kind}: {text!r} -- {c}" for c in checks if c]
    return found


@pytest.mark.parametrize("name", d2r_envs.names())
def test_every_text_reads_as_english(name: str) -> None:
    texts = _texts(name)
    assert all(t["event"] and t["explain"] and t["move"] for t in texts)
    problems = _problems(name)
    assert not problems, f"{len(problems)} problems, first ones:\n" + "\n".join(problems[:25])


def test_the_checks_catch_each_mistake() -> None:
    assert _articles("a orange rhinestone") and _articles("an blue rhinestone") and _articles("player_1 pays a Easy")
    assert not _articles("an orange rhinestone, a blue one, a +1 Card Pick Upz, an 8, a unique queen")
    assert _counts_of_one("1 spaces") and _counts_of_one("up to 1 stars") and _counts_of_one("+1 plaques")
    assert not _counts_of_one("1 space, 2 spaces, $1 bonus, player_1 has 1 Swag, 1 plus 2, dealt 5 Album 1 cards")
    assert _counts_agree("2 card", {"cards"}) and _counts_agree("0 space left", {"spaces"})
    assert not _counts_agree("2 cards, 1 card, 3 silver", {"cards"})
    for bad in ("starts at {'Streetz': 3}", "resources [9, 10, 9]", "None", "True", "np.int64(3)", "array([1])",
                "'Streetz': 3"):
        assert _reprs(bad), bad
    assert not _reprs("Sven's Swedish Tacos; the players' hands; Streetz 3")
    assert _seats("player 1 wins", 2) and _seats("Player 1", 2) and _seats("turn of player_-1", 2)
    assert _seats("player_2 wins", 2) and not _seats("player_1 wins, players", 2)
    assert _second_person("you are dealt MC Y-1") and _second_person("your hand: Runway I")
    assert _second_person("player_1: you draw")
    assert not _second_person("player_0 plays Step Forward: Move one of your characters 1 place forward.")


# The helpers.

def test_plural_counts_a_noun() -> None:
    assert plural(1, "space") == "1 space" and plural(2, "space") == "2 spaces" and plural(0, "star") == "0 stars"
    assert plural(1, "business die") == "1 business die" and plural(3, "business die") == "3 business dice"
    assert plural(1, "lip") == "1 lip" and plural(4, "lip") == "4 lips"
    assert plural(2, "prestige", "prestige") == "2 prestige"
    assert plural(1.0, "minute") == "1 minute" and plural(0.5, "minute") == "0.5 minutes"
    assert [plural_of(w) for w in ("box", "boss", "bush", "party", "day", "Die")] == \
        ["boxes", "bosses", "bushes", "parties", "days", "Dice"]


def test_article_goes_by_the_first_sound() -> None:
    assert indefinite("orange rhinestone") == "an orange rhinestone"
    assert indefinite("blue rhinestone") == "a blue rhinestone"
    words = ("Easy", "hour", "unique", "one", "Yellow", "8", "11", "18", "80", "1", "MC", "UFO", "L")
    assert [article(w) for w in words] == ["an", "an", "a", "a", "a", "an", "an", "an", "an", "a", "an", "a", "an"]


def test_quote_cuts_long_input() -> None:
    assert quote("short") == "'short'" and quote(5) == "5"
    long = quote("x" * 15000)
    assert long.startswith("'xxx") and long.endswith("...") and len(long) < 50


# Option errors.

def test_unknown_option_lists_what_may_be_given_as_an_option() -> None:
    with pytest.raises(ValueError) as err:
        d2r_envs.make_game("filthy_rich", 3, speed=1)
    message = str(err.value)
    assert "unknown option(s) 'speed'" in message and "allowed options: one_tax_per_turn" in message
    assert "num_players" not in message  # the player count is given on its own, never as an option
    with pytest.raises(ValueError, match="allowed options: none"):
        d2r_envs.make_game("rap_godz", 3, speed=1)
    assert d2r_envs.make_game("rap_godz", num_players=3).spec.num_players == 3  # still a valid argument
    assert _config.build(package("rap_godz").Config, "rap_godz", {"num_players": 3}).num_players == 3


@pytest.mark.parametrize("options", [
    {"x" * 15000: 1},
    {"one_tax_per_turn": "y" * 15000},
    {"one_tax_per_turn": 10**4000},
    {"one_tax_per_turn": ["z" * 15000]},
    {f"bad{i}" + "k" * 100: 1 for i in range(300)},
])
def test_option_errors_echo_user_input_short(options: dict) -> None:
    with pytest.raises(ValueError) as err:
        d2r_envs.make_game("filthy_rich", 3, **options)
    assert len(str(err.value)) < 400, str(err.value)[:400]


def test_option_errors_of_every_kind_echo_short() -> None:
    Config = package("draco_and_co").Config
    for options in ({"short_game": "9" * 5000}, {"long_game": "9" * 5000}, {"short_game": 10**5000}):
        with pytest.raises(ValueError) as err:
            _config.build(Config, "draco_and_co", options)
        assert len(str(err.value)) < 300, str(err.value)[:300]
    with pytest.raises(ValueError) as err:
        _config.parse_items(["k" * 5000])
    assert len(str(err.value)) < 300


@pytest.mark.parametrize("observation", ["x" * 15000, {"y" * 15000: 1}, {f"k{i}": 1 for i in range(300)},
                                         {"views": "v" * 15000}, [[[[]]]] * 3000])
def test_observation_option_errors_echo_user_input_short(observation) -> None:
    for name in ("draco_and_co", "extravaganza"):  # an observation without options, and one with
        with pytest.raises(ValueError) as err:
            d2r_envs.raw_env(name, observation=observation)
        assert len(str(err.value)) < 400, str(err.value)[:400]
