"""The arguments of the training commands, defined once and free of torch: `d2r train` and `d2r export`
(d2r_envs/cli.py) and `python -m training.train` / `python -m training.export` build their parsers here,
so the command line reaches down into training and training never reaches back up to the CLI."""

from __future__ import annotations

import argparse


def add_train_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="a YAML file, e.g. configs/draco_and_co/ppo.yaml")
    p.add_argument("--resume", help="a checkpoint of the same run to continue from: an SB3 .zip, or an RLlib run's "
                   "checkpoints/step_N/ folder (Ctrl-C or SIGTERM saves one and prints the command)")
    p.add_argument("--export-name", metavar="NAME", help="export under this name instead of the config's export.name")
    p.add_argument("--force", action="store_true",
                   help="overwrite an exported model of the same name, and start train.run_dir afresh "
                   "(an earlier run's checkpoints, snapshots and logs there are deleted; never while another run "
                   "is writing there)")


def add_export_arguments(p: argparse.ArgumentParser, games: list[str]) -> None:
    p.add_argument("--checkpoint", required=True, help="the checkpoint to export: a MaskablePPO .zip (SB3), or an RLlib run's final/ or "
                   "checkpoints/step_N/ folder (with --config, the config it was trained with)")
    p.add_argument("--game", required=True, choices=games)
    p.add_argument("--name", required=True, help="the model's name: it is written to OUT_ROOT/GAME/NAME/")
    p.add_argument("--config", help="the training config (YAML) to record in the manifest; its env.observation gives "
                   "the observation options the model reads (needed for a model trained with them)")
    p.add_argument("--seed", type=int, help="the training seed to record (default: the config's `seed`, else the checkpoint's)")
    p.add_argument("--out-root", default="models", help="where model folders go (default: models)")
    p.add_argument("--force", action="store_true", help="overwrite an existing model folder of that name")


def add_balance_arguments(p: argparse.ArgumentParser, games: list[str]) -> None:
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, help="player count (default: the game's default)")
    p.add_argument("--agent", default="heuristic", help="the agent in every seat: random, heuristic, mcts:N, a model (default: heuristic)")
    p.add_argument("--games", type=int, default=400, help="games to play (default 400)")
    p.add_argument("--seed", type=int, default=0, help="game g uses the seed (seed, g) (default 0)")
    p.add_argument("--workers", type=int, default=1, help="processes; the report does not depend on it (default 1)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="a game option; repeatable")
    p.add_argument("--json", metavar="PATH", help="also write the summary as JSON")

