"""OpenSpiel's information-set MCTS against ours at equal simulations, on the same game: a cross-check of
both searches (the `openspiel` extra).

    python -m training.openspiel.ismcts rap_godz --players 2 --simulations 100 --deals 10 [--seed 0]

OpenSpiel's `ISMCTSBot` (its Python one, `open_spiel.python.algorithms.ismcts`: OpenSpiel's C++ bots
crash on games written in Python, its own Python Kuhn poker included) plays the game through
d2r_envs.openspiel in one seat and our ISMCTS (d2r_envs.agents.mcts) in every other, seats rotated over
each deal, both set alike: the same number of simulations a move, UCB exploration 0.7, one random rollout
to the end of the game per simulation, the most visited move played, a world resampled from the mover's
information for every simulation (`resample_from_infostate`, our `redeterminise`, drawn from a sampler
seeded with the bot). OpenSpiel's tree is keyed by observation strings, ours by the sequence of
decisions. A deal seeds the chance draws; each bot has a generator of its own.
Two searches of the same kind should win about equally often: the report gives each one's win share
against the other (a seat wins when its return is the game's largest; a shared win counts for each
winner) with a 95% interval over deals, and their difference.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from training.stats import mean_interval

EXPLORATION = 0.7  # ours by default (d2r_envs.agents.mcts.ISMCTS); OpenSpiel's uct_c set to it


def play(game_name: str, players: int, simulations: int, deals: int, seed: int = 0,
         options: dict[str, Any] | None = None, progress: bool = False) -> dict[str, Any]:
    """Every deal once per seat of OpenSpiel's bot; per deal, the wins of each side summed over its seats."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from d2r_envs import openspiel
    from d2r_envs.agents.mcts import ISMCTS

    game = pyspiel.load_game(openspiel.short_name(game_name), {openspiel.PLAYERS: players, **(options or {})})
    engine = game.engine
    ours = ISMCTS(simulations=simulations, exploration=EXPLORATION)
    theirs_wins, ours_wins = [], []
    started = time.process_time()
    for deal in range(deals):
        theirs_deal = ours_deal = 0.0
        for seat in range(players):
            bot_seed = [seed, deal, seat, 1]
            bot = ismcts.ISMCTSBot(
                game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(np.random.SeedSequence(bot_seed)
                                                                           .generate_state(1))),
                uct_c=EXPLORATION, max_simulations=simulations,
                random_state=np.random.RandomState(np.random.SeedSequence(bot_seed).generate_state(2)[1]),
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, use_observation_string=True,
                allow_inconsistent_action_sets=True)
            sampler = np.random.default_rng(bot_seed).random
            bot.set_resampler(lambda s, player, sampler=sampler: s.resample_from_infostate(player, sampler))
            chance = np.random.default_rng([seed, deal])
            mine = np.random.default_rng([seed, deal, seat])
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(engine.sample_chance(state.held.state, chance))
                elif state.current_player() == seat:
                    state.apply_action(bot.step(state))
                else:
                    state.apply_action(ours.act(engine, state.held.state, state.current_player(), mine))
            returns = state.returns()
            best = max(returns)
            winners = [p for p, r in enumerate(returns) if r == best]
            theirs_deal += seat in winners
            ours_deal += sum(p != seat for p in winners) / (players - 1)
        theirs_wins.append(theirs_deal / players)
        ours_wins.append(ours_deal / players)
        if progress:
            print(f"deal {deal + 1}/{deals}: OpenSpiel {np.mean(theirs_wins):.3f}, ours {np.mean(ours_wins):.3f}",
                  file=sys.stderr, flush=True)
    def summary(values: list[float], bounds: tuple[float, float] = (0.0, 1.0)) -> dict[str, float]:
        low, high = mean_interval(values) or (float("nan"), float("nan"))
        low, high = max(bounds[0], low), min(bounds[1], high)  # a share's interval stays inside its range
        return {"mean": round(float(np.mean(values)), 4), "low": round(low, 4), "high": round(high, 4)}

    diff = list(np.array(theirs_wins) - np.array(ours_wins))
    return {
        "game": game_name, "players": players, "options": options or {}, "simulations": simulations,
        "deals": deals, "seed": seed,
        "openspiel": summary(theirs_wins), "ours": summary(ours_wins), "difference": summary(diff, (-1.0, 1.0)),
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.openspiel.ismcts", description=__doc__.splitlines()[0])
    p.add_argument("game")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--simulations", type=int, default=100)
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.simulations < 1 or args.deals < 2:
        p.error("--simulations must be at least 1 and --deals at least 2 (an interval needs two deals)")
    try:
        result = play(args.game, args.players, args.simulations, args.deals, args.seed, progress=True)
    except ImportError as e:
        p.error(str(e))
    except ValueError as e:  # a game, count or option refused
        p.error(str(e))

    def show(x: dict[str, float]) -> str:
        return f"{x['mean']:.3f} ({x['low']:.3f} to {x['high']:.3f})"

    print(f"{args.game}, {args.players} players, {args.simulations} simulations a move, {args.deals} deals x "
          f"{args.players} seats: win share against the other search (95% interval over deals)")
    print(f"- OpenSpiel's ISMCTSBot: {show(result['openspiel'])}")
    print(f"- ours (d2r_envs.agents.mcts): {show(result['ours'])}")
    print(f"- difference: {show(result['difference'])}; {result['cpu_seconds']} CPU-seconds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
