"""Extravaganza options."""

from __future__ import annotations

from dataclasses import dataclass

from d2r_envs.games.extravaganza import cards as C
from d2r_envs.core.config import option

CATEGORY_CHOICES = ("random",)  # or five comma-separated category names, in judge order (EX-SETUP-1)


def _categories_allowed() -> "_AnyFive":
    return _AnyFive()


class _AnyFive:
    """"random" or five distinct category names, comma-separated (EX-SETUP-1)."""

    def __contains__(self, value: object) -> bool:
        if value == "random":
            return True
        if not isinstance(value, str):
            return False
        names = [v.strip().lower() for v in value.split(",")]
        known = [c.lower() for c in C.CATEGORIES]
        return len(names) == C.NUM_JUDGES and len(set(names)) == C.NUM_JUDGES and all(n in known for n in names)

    def __iter__(self):
        return iter(("random", "five of " + "|".join(C.CATEGORIES) + " comma-separated"))


@dataclass(frozen=True)
class Config:
    num_players: int = option(2, range(2, 5), "players, 2 to 4")
    # EX-LEVEL-1: basic = no module, fierce = Queen Powers, sickening = + Judge Desires, legendary = all three
    level: str = option("basic", ("basic", "fierce", "sickening", "legendary", "custom"),
                        "the rulebook's level; 'custom' sets the three modules one by one")
    queen_powers: bool = option(False, (False, True), "module: Queen Powers (only with level=custom; else from the level)")
    judge_desires: bool = option(False, (False, True), "module: Judge Desires (only with level=custom)")
    tens_and_reveals: bool = option(False, (False, True), "module: 10s & Reveals (only with level=custom)")
    # EX-SETUP-1
    categories: str = option("random", _AnyFive(), "'random', or five category names comma-separated, in judge order")
    # EX-SETUP-8
    queens: str = option("random", ("random", "draft"), "queens dealt at random, or drafted from the first player")
    # EX-DATA-STAGE
    stage: str = option("pinwheel", tuple(C.STAGES), "stage layout of the five colour areas")
    # EX-DATA-FLAGS
    flags: str = option("last", ("last", "early"), "checkered flag under the last song slot, or slot 10/15/20")

    def __post_init__(self) -> None:
        if self.level != "custom":
            want = C.LEVELS[self.level]
            have = (self.queen_powers, self.judge_desires, self.tens_and_reveals)
            names = ("queen_powers", "judge_desires", "tens_and_reveals")
            for name, w, h in zip(names, want, have):
                if h and not w:
                    raise ValueError(
                        f"extravaganza: option {name!r} = true differs from level {self.level!r} "
                        f"(which has {name} = {str(w).lower()}); use level=custom to set modules one by one")
            object.__setattr__(self, "queen_powers", want[0])
            object.__setattr__(self, "judge_desires", want[1])
            object.__setattr__(self, "tens_and_reveals", want[2])

    def category_list(self) -> list[int] | None:
        if self.categories == "random":
            return None
        known = [c.lower() for c in C.CATEGORIES]
        return [known.index(v.strip().lower()) for v in self.categories.split(",")]
