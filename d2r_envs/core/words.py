"""Small helpers for the English of narration: counted nouns, "a" or "an", user input quoted short.

`plural(1, "space")` is "1 space", `plural(2, "space")` "2 spaces", `plural(2, "die")` "2 dice";
`indefinite("orange rhinestone")` is "an orange rhinestone"; `quote("x" * 999)` is the repr of the
first 40 characters and "...". Generic: no game's words live here.
"""

from __future__ import annotations

import re
from typing import Any

# Plurals that adding "s" or "es" gets wrong (else give `many` to `plural`).
IRREGULAR = {"die": "dice", "child": "children", "man": "men", "woman": "women"}

# Words spelt with a vowel that sound a consonant first ("a one", "a unique"), and the reverse ("an hour").
_A_BEFORE = re.compile(r"(one|once|uni|use|usu|uti|eu|ewe|ure)", re.IGNORECASE)
_AN_BEFORE = re.compile(r"(hour|honest|honou?r|heir)", re.IGNORECASE)
_VOWEL = re.compile(r"[aeiou]", re.IGNORECASE)
# Letters read as their names: an MC, an X, an F; a U, a B.
_AN_LETTERS = set("AEFHILMNORSX")


def plural_of(noun: str) -> str:
    """The plural of `noun` (the last word is the one that changes: "business die" -> "business dice")."""
    head, sep, last = noun.rpartition(" ")
    lower = last.lower()
    if lower in IRREGULAR:
        many = IRREGULAR[lower]
        many = many.capitalize() if last[:1].isupper() else many
    elif lower.endswith(("s", "x", "z", "ch", "sh")):
        many = last + "es"
    elif lower.endswith("y") and lower[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        many = last[:-1] + "ies"
    else:
        many = last + "s"
    return head + sep + many


def plural(n: Any, noun: str, many: str | None = None) -> str:
    """`n` and `noun`, the noun plural unless `n` is 1: "1 space", "0 spaces", "2.5 minutes".
    `many` gives the plural where the rule does not ("lip" is regular; "prestige" is its own plural)."""
    number = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{number} {noun if n == 1 else (many or plural_of(noun))}"


def article(word: str) -> str:
    """ "a" or "an" before `word`, by its first sound."""
    word = word.lstrip("\"'(")
    if not word:
        return "a"
    first = word.split()[0].rstrip(".,;:)")
    if first[:1].isdigit():
        digits = re.match(r"[0-9]+", first).group(0)
        # an 8, an 80, an 800; an 11, an 18, an 11000, an 18500 (eleven, eighteen thousand)
        return "an" if digits[0] == "8" or (len(digits) % 3 == 2 and digits[:2] in ("11", "18")) else "a"
    if first.isalpha() and first.isupper() and len(first) <= 4:
        return "an" if first[0] in _AN_LETTERS else "a"  # an initialism, read letter by letter
    if _AN_BEFORE.match(first):
        return "an"
    if _A_BEFORE.match(first):
        return "a"
    return "an" if _VOWEL.match(first) else "a"


def indefinite(phrase: str) -> str:
    """`phrase` after "a" or "an": "an orange rhinestone", "a blue rhinestone"."""
    return f"{article(phrase)} {phrase}"


def quote(value: Any, limit: int = 40) -> str:
    """The repr of user input, cut to `limit` characters and "..." so a message never echoes a huge value."""
    if isinstance(value, int) and value.bit_length() > 4 * limit:  # repr refuses past 4300 digits
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str):
        return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."
    try:
        text = repr(value)
    except RecursionError:
        return "a value nested too deeply to show"
    return text if len(text) <= limit else text[:limit] + "..."


def seat_name(p: int, none: str = "-") -> str:
    """A seat as every text spells it, "player_2"; `none` where there is no seat yet (-1, set-up)."""
    return f"player_{p}" if p >= 0 else none
