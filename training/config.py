"""Training configs: YAML into frozen dataclasses; unknown keys and wrong types are refused."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class EnvConfig:
    num_players: int = 4
    learner_seat: int | str = "random"  # a seat number or "random"
    options: dict = field(default_factory=dict)  # game options, checked by the game


@dataclass(frozen=True)
class OpponentConfig:
    pool: list = field(default_factory=lambda: ["random"])  # agent specs: random, heuristic, mcts:N, model refs
    snapshot_every: int = 0  # learner steps between frozen snapshots added to the pool (0: never)
    max_snapshots: int = 4  # the oldest snapshot leaves the pool beyond this


@dataclass(frozen=True)
class AlgoConfig:
    n_envs: int = 8
    vec_env: str = "dummy"  # "dummy" (one process) or "subproc"
    learning_rate: float = 3e-4
    n_steps: int = 256  # per env, per rollout
    batch_size: int = 512
    n_epochs: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    net_arch: list = field(default_factory=lambda: [128, 128])
    activation: str = "tanh"  # "tanh" or "relu"


@dataclass(frozen=True)
class TrainConfig:
    total_timesteps: int = 1_000_000
    checkpoint_every: int = 100_000  # learner steps between checkpoints (0: only the final model)
    eval_every: int = 100_000  # learner steps between quick evaluations (0: never)
    eval_games: int = 100
    eval_opponent: str = "random"
    run_dir: str = "runs/default"
    torch_threads: int = 1


@dataclass(frozen=True)
class ImitateConfig:
    teacher: str = ""  # an agent spec whose moves the policy learns before PPO ("": no warm start)
    games: int = 0  # teacher games recorded in the learner's seat, against the pool
    epochs: int = 4
    batch_size: int = 1024
    learning_rate: float = 1e-3


@dataclass(frozen=True)
class ExportConfig:
    name: str = ""  # exported to <out_root>/<game>/<name>/ at the end ("": no export)
    out_root: str = "models"


@dataclass(frozen=True)
class Config:
    game: str
    seed: int = 0
    env: EnvConfig = field(default_factory=EnvConfig)
    opponents: OpponentConfig = field(default_factory=OpponentConfig)
    algo: AlgoConfig = field(default_factory=AlgoConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    imitate: ImitateConfig = field(default_factory=ImitateConfig)
    export: ExportConfig = field(default_factory=ExportConfig)


ALLOWED = {
    ("algo", "vec_env"): ("dummy", "subproc"),
    ("algo", "activation"): ("tanh", "relu"),
}


def _yaml_float(value: Any) -> Any:
    """A number that YAML 1.1 left as a string because it lacks a dot (`3e-4`, `1e6`) as a float;
    anything else unchanged."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        if math.isfinite(number):
            return number
    return value


def _type_ok(value: Any, kind: Any) -> bool:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return any(_type_ok(value, k) for k in typing.get_args(kind))
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _build(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{where or 'config'}: expected a mapping, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"{where or 'config'}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(fields)}")
    values = {}
    for name, value in data.items():
        kind = hints[name]
        key = f"{where}.{name}" if where else name
        if dataclasses.is_dataclass(kind):
            values[name] = _build(kind, value, key)
            continue
        if kind is float:
            value = _yaml_float(value)
        if not _type_ok(value, kind):
            raise ConfigError(f"{key}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
        allowed = ALLOWED.get((where, name))
        if allowed and value not in allowed:
            raise ConfigError(f"{key}: {value!r} is not allowed; allowed: {', '.join(allowed)}")
        values[name] = float(value) if kind is float else value
    missing = [f.name for f in fields.values() if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING and f.name not in data]
    if missing:
        raise ConfigError(f"{where or 'config'}: missing key(s) {', '.join(missing)}")
    return cls(**values)


def from_dict(data: dict) -> Config:
    config = _build(Config, data, "")
    _check(config)
    return config


def load(path: str | Path) -> Config:
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: not valid YAML: {err}") from None
    try:
        return from_dict(data or {})
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}") from None


def _check(c: Config) -> None:
    """Checks that need more than a type: positive sizes, the game and its options."""
    import d2r_envs
    from d2r_envs.agents import make_agent

    for key, value in [
        ("algo.n_envs", c.algo.n_envs), ("algo.n_steps", c.algo.n_steps), ("algo.batch_size", c.algo.batch_size),
        ("algo.n_epochs", c.algo.n_epochs), ("train.total_timesteps", c.train.total_timesteps),
        ("train.eval_games", c.train.eval_games), ("train.torch_threads", c.train.torch_threads),
    ]:
        if value < 1:
            raise ConfigError(f"{key}: must be at least 1, got {value}")
    if not c.algo.net_arch or not all(isinstance(h, int) and h > 0 for h in c.algo.net_arch):
        raise ConfigError(f"algo.net_arch: expected a list of positive layer sizes, got {c.algo.net_arch!r}")
    try:
        engine = d2r_envs.make_game(c.game, c.env.num_players, **c.env.options)
        if not c.opponents.pool:
            raise ConfigError("opponents.pool: give at least one opponent, e.g. [random]")
        if c.imitate.teacher:
            if c.imitate.games < 1 or c.imitate.epochs < 1 or c.imitate.batch_size < 1:
                raise ConfigError("imitate: games, epochs and batch_size must be at least 1 with a teacher")
            if not isinstance(c.imitate.teacher, str):
                raise ConfigError(f"imitate.teacher: expected an agent spec, got {c.imitate.teacher!r}")
            make_agent(c.imitate.teacher, engine)
        for spec in [*c.opponents.pool, c.train.eval_opponent]:
            if not isinstance(spec, str):
                raise ConfigError(f"opponents.pool: expected agent specs (strings), got {spec!r}")
            make_agent(spec, engine)
    except ConfigError:
        raise
    except ValueError as err:
        raise ConfigError(str(err)) from None
    if c.export.name:
        from training.export import check_model_name

        try:
            check_model_name(c.export.name)
        except ValueError as err:
            raise ConfigError(f"export.name: {err}") from None
    seat = c.env.learner_seat
    if seat != "random" and seat not in range(c.env.num_players):
        raise ConfigError(f"env.learner_seat: {seat!r} is not allowed; allowed: random or 0..{c.env.num_players - 1}")


def to_dict(config: Config) -> dict:
    return dataclasses.asdict(config)
