"""Check a shipped opponent against the project's bars, and record what was measured.

    python -m training.bars draco_and_co/ppo-v1 [--games 1000] [--mcts-games 48] [--workers 2] [--record]

Bars (seat-rotated games over duplicate deals, `training.evaluate`):
- 2 players: the model beats random in at least 90% of games and the heuristic in at least 55%;
- more players: against random opponents its win share is at least twice random's, and against
  heuristic opponents it is above the heuristic's.
No bar against information-set MCTS at 1,000 simulations yet: the head-to-head is measured with
--mcts-games (the model and MCTS in one game, the other seats random) and recorded.

Exit status: 0 when every bar passes, 1 when one fails, 2 when the model or an argument is refused
(a missing or tampered model, a bad player count) before any game is played.
"""

from __future__ import annotations

import argparse
import sys

from training import evaluate as ev


def _share(result: dict, agent: str) -> float:
    return result["agents"][agent]["win_share"]


def check(model: str, game: str, players: int, games: int, workers: int, seed: int) -> tuple[bool, dict[str, dict]]:
    results = {}
    lines = []
    ok = True
    vs_random = ev.evaluate(game, [model, "random"], players, games, seed, workers=workers, progress=True)
    vs_heuristic = ev.evaluate(game, [model, "heuristic"], players, games, seed + 1, workers=workers, progress=True)
    results["random"], results["heuristic"] = vs_random, vs_heuristic
    m_r, r_r = _share(vs_random, model), _share(vs_random, "random")
    m_h, h_h = _share(vs_heuristic, model), _share(vs_heuristic, "heuristic")
    if players == 2:
        tests = [(m_r >= 0.90, f"vs random: {m_r:.1%} of games won (bar 90%)"),
                 (m_h >= 0.55, f"vs heuristic: {m_h:.1%} of games won (bar 55%)")]
    else:
        tests = [(m_r >= 2 * r_r, f"vs random: win share {m_r:.1%}, random's {r_r:.1%} (bar: at least twice random's)"),
                 (m_h > h_h, f"vs heuristic: win share {m_h:.1%}, the heuristic's {h_h:.1%} (bar: above the heuristic's)")]
    for passed, text in tests:
        ok &= passed
        lines.append(f"- {'PASS' if passed else 'FAIL'}: {text}")
    print("\n".join(lines))
    return ok, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.bars", description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="an exported model id or folder, e.g. draco_and_co/ppo-v1")
    parser.add_argument("--players", type=int, help="players (default: those the model was trained with)")
    parser.add_argument("--games", type=int, default=1000, help="games per tournament (default 1000)")
    parser.add_argument("--mcts-games", type=int, default=0, help="games of the model vs MCTS with random fillers")
    parser.add_argument("--mcts-simulations", type=int, default=1000, help="MCTS budget per move (default 1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--record", action="store_true", help="write the results into the model's manifest.json")
    args = parser.parse_args(argv)
    import d2r_envs
    from d2r_envs.opponents import OpponentError, load_opponent

    try:
        policy = load_opponent(args.model)
        game = policy.game
        trained = policy.manifest.get("training", {}).get("config", {}).get("env", {})
        players = args.players or trained.get("num_players") or d2r_envs.make_game(game).spec.num_players
        d2r_envs.make_game(game, players)  # a bad --players is refused here, before any game
        for key in ("games", "workers"):
            if getattr(args, key) < 1:
                raise ValueError(f"--{key} must be at least 1, got {getattr(args, key)}")
        if args.mcts_games < 0 or args.mcts_simulations < 1:
            raise ValueError("--mcts-games must be at least 0 and --mcts-simulations at least 1")
    except (OpponentError, ValueError) as err:
        print(f"python -m training.bars: error: {err}", file=sys.stderr)
        return 2
    ok, results = check(args.model, game, players, args.games, args.workers, args.seed)
    if args.mcts_games:
        mcts = f"mcts:{args.mcts_simulations}"
        lineup = [args.model, mcts] + ["random"] * (players - 2)
        results["mcts"] = ev.evaluate(game, lineup, players, args.mcts_games, args.seed + 2, workers=args.workers, progress=True)
        m, t = _share(results["mcts"], args.model), _share(results["mcts"], mcts)
        print(f"- measured: model vs MCTS({args.mcts_simulations}) in the same games (other seats random): "
              f"win share {m:.1%} vs {t:.1%}")
    for name, result in results.items():
        print(f"\n### {name}\n")
        print(ev.to_markdown(result))
        if args.record:
            ev.record_evaluation(ev.resolve_model_dir(args.model), ev.evaluation_key(result), ev.evaluation_summary(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
