"""Training with OpenSpiel's NFSP or DQN (PyTorch) in self-play (`backend: openspiel`), from the same YAML as
the other backends.

    d2r train --config my_nfsp.yaml      # game, env.num_players (one count), train, export, openspiel

Every seat is a learner of its own, OpenSpiel's agent for that player (`open_spiel.python.pytorch.nfsp.NFSP`
or `dqn.DQN`), playing the game through d2r_envs.openspiel: at its turn it reads its seat's observation (the
AEC env's, scaled by the layout's bounds as the PPO backends scale it) and the legal actions, and at the
end the game's return; chance is drawn from the state's outcomes by the run's seeded generator.
`train.total_timesteps` counts the decisions of every seat. The exported policy is seat 0's (NFSP: its
average policy; DQN: its Q-network, acting greedily): the observation is the seat's own view, so one
seat's network plays any seat.

Writes to train.run_dir: config.json, progress.csv, checkpoints/step_N.pt every train.checkpoint_every
decisions and final.pt (seat 0's network, which `training.export.export_openspiel` exports), summary.json
(with the gradient steps the agents took); then exports to models/<game>/<export.name>/. A run trains from the start: the checkpoints are snapshots of
the policies, not of the replay buffers, so there is no --resume. SIGINT or SIGTERM stops a run at the
next decision (`Stopped`).

OpenSpiel's agents draw from numpy's global generator and torch's (its MLP seeds both, its reservoir
buffer samples from the first): the run seeds them from its seed, so a run is the same on one machine
with the same libraries.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np
import torch

from training import config as cfg
from training.networks import observation_scale
from training.openspiel.checkpoint import CHECKPOINT_SUFFIX, network
from training.run_folder import RunError, prepare_run, write_atomic
from training.session import Clock, Stopped, StopSignals, session_summary


def make_agent(o: cfg.OpenSpielConfig, player: int, size: int, num_actions: int, seed: int) -> Any:
    """OpenSpiel's agent for `player` with the config's settings."""
    from open_spiel.python.pytorch import dqn, nfsp

    shared = dict(hidden_layers_sizes=list(o.hidden), batch_size=o.batch_size, learn_every=o.learn_every,
                  min_buffer_size_to_learn=o.min_buffer, seed=seed)
    q = dict(replay_buffer_capacity=o.replay_capacity, update_target_network_every=o.update_target_every,
             epsilon_start=o.epsilon_start, epsilon_end=o.epsilon_end, epsilon_decay_duration=o.epsilon_decay)
    if o.algorithm == "dqn":
        return dqn.DQN(player, size, num_actions, learning_rate=o.learning_rate, **shared, **q)
    return nfsp.NFSP(player, size, num_actions, reservoir_buffer_capacity=o.reservoir_capacity,
                     anticipatory_param=o.anticipatory, rl_learning_rate=o.learning_rate,
                     sl_learning_rate=o.sl_learning_rate, **shared, **q)


def count_updates(agent: Any, counter: list[int]) -> None:
    """Count in `counter[0]` the gradient steps `agent` takes: each of its learning calls that updated a
    network (they return None while the buffer is below min_buffer). NFSP has two, its best response's
    (a DQN) and its average policy's."""
    def counted(learn: Any) -> Any:
        def call() -> Any:
            loss = learn()
            counter[0] += loss is not None
            return loss
        return call

    if hasattr(agent, "_rl_agent"):  # NFSP
        agent._learn = counted(agent._learn)
        agent._rl_agent.learn = counted(agent._rl_agent.learn)
    else:
        agent.learn = counted(agent.learn)


class Seats:
    """The game through pyspiel states, as OpenSpiel's TimeSteps for the seat that acts: its scaled
    observation and legal actions only (an agent reads nothing of the others'), the returns at the end."""

    def __init__(self, c: cfg.Config) -> None:
        import pyspiel
        from open_spiel.python import rl_environment

        from d2r_envs import openspiel

        self.rl, self.resolve_chance = rl_environment, openspiel.resolve_chance
        self.game = pyspiel.load_game(openspiel.short_name(c.game), {openspiel.PLAYERS: c.env.num_players,
                                                                     **c.env.options})
        self.n = self.game.num_players()
        layout = self.game.engine.make_observer().layout
        self.scale = observation_scale(layout.box)
        self.rng = np.random.default_rng(c.seed)
        self.state: Any = None

    def reset(self) -> None:
        self.state = self.game.new_initial_state()
        self.resolve_chance(self.state, self.rng)

    def step(self, action: int) -> None:
        self.state.apply_action(action)
        self.resolve_chance(self.state, self.rng)

    def time_step(self, seats: list[int]) -> Any:
        """The TimeStep of the `seats` (the one that acts; every seat at the end)."""
        state, n = self.state, self.n
        info: list[Any] = [None] * n
        legal: list[list[int]] = [[] for _ in range(n)]
        for p in seats:
            info[p] = np.asarray(state.observation_tensor(p), np.float32) * self.scale
            legal[p] = state.legal_actions(p)
        last = state.is_terminal()
        rewards = state.returns() if last else [0.0] * n
        return self.rl.TimeStep(
            observations={"info_state": info, "legal_actions": legal, "current_player": state.current_player(),
                          "serialized_state": []},
            rewards=rewards, discounts=[0.0 if last else 1.0] * n,
            step_type=self.rl.StepType.LAST if last else self.rl.StepType.MID)


def _write_progress(path: Path, rows: list[dict]) -> None:
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, list(dict.fromkeys(k for row in rows for k in row)))
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(path, text.getvalue().encode("utf-8"))


def save_checkpoint(agent: Any, c: cfg.Config, path: Path, steps: int, seconds: float | None) -> Path:
    """Seat 0's exported network (its state dict), its shape and the decisions made, written whole."""
    layers = [m for m in network(agent).modules() if isinstance(m, torch.nn.Linear)]
    data = {"state_dict": network(agent).state_dict(), "hidden": [layer.out_features for layer in layers[:-1]],
            "algorithm": c.openspiel.algorithm, "steps": steps, "seconds": seconds}
    buffer = io.BytesIO()
    torch.save(data, buffer)
    write_atomic(path, buffer.getvalue())
    return path


def train(c: cfg.Config, resume: str | None = None, raw_config: dict | None = None, force: bool = False,
          stop: StopSignals | None = None) -> Path:
    """Train from the start, then export if export.name is set; the final checkpoint."""
    if resume:
        raise RunError("backend: openspiel trains from the start (its checkpoints hold the policies, not the "
                       "replay buffers): run without --resume")
    run_dir = prepare_run(c, None, force)
    stop = stop or StopSignals()
    np.random.seed(c.seed)  # OpenSpiel's agents draw from numpy's and torch's global generators
    torch.manual_seed(c.seed)
    seats = Seats(c)
    size = seats.game.observation_tensor_size()
    agents = [make_agent(c.openspiel, p, size, seats.game.num_distinct_actions(), seed=c.seed * 100 + p)
              for p in range(seats.n)]
    updates = [0]
    for agent in agents:
        count_updates(agent, updates)
    stop.at_once = False
    steps, episodes, rows, clock = 0, 0, [], Clock(0.0, 0.0)
    every, total = c.train.checkpoint_every, c.train.total_timesteps
    returns: list[float] = []
    while steps < total:
        seats.reset()
        while not seats.state.is_terminal():
            player = seats.state.current_player()
            out = agents[player].step(seats.time_step([player]))
            seats.step(int(out.action))
            steps += 1
            if every and steps % every == 0 and steps < total:
                save_checkpoint(agents[0], c, run_dir / "checkpoints" / f"step_{steps}{CHECKPOINT_SUFFIX}", steps,
                                clock.total())
            if stop.signum is not None:
                raise Stopped(stop.signum, None, step=steps, session_steps=steps, session_seconds=clock.session(),
                              seconds=clock.total())
        end = seats.time_step(list(range(seats.n)))
        for agent in agents:
            agent.step(end)
        episodes += 1
        returns.append(end.rewards[0])
        if episodes % 100 == 0:
            rows.append({"time/total_timesteps": steps, "time/episodes": episodes,
                         "rollout/ep_rew_mean": round(float(np.mean(returns[-100:])), 4)})
            _write_progress(run_dir / "progress.csv", rows)
    final = save_checkpoint(agents[0], c, run_dir / f"final{CHECKPOINT_SUFFIX}", steps, clock.total())
    session_summary(run_dir, clock, 0, steps, None, backend="openspiel", algorithm=c.openspiel.algorithm,
                    episodes=episodes, gradient_steps=updates[0])
    if c.export.name:
        from training.export import export_openspiel

        out = export_openspiel(final, c, c.export.name, raw_config, overwrite=force)
        print(f"exported to {out}")
    return final
