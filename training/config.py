"""Training configs: YAML into frozen dataclasses; unknown keys and wrong types are refused."""

from __future__ import annotations

import dataclasses
import decimal
import math
import re
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    pass


MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def check_model_name(name: str) -> str:
    """`name` if it can name a model folder (letters, digits, '.', '_', '-', not starting with a
    dot or dash); otherwise a ValueError saying what is allowed. The rule of `export.name`, and of
    `d2r export --name` (training/export.py)."""
    if not isinstance(name, str) or not MODEL_NAME.fullmatch(name):
        raise ValueError(
            f"model name {name!r} is not allowed: use letters, digits, '.', '_' and '-', starting with a "
            "letter or digit, such as ppo-v1"
        )
    return name


@dataclass(frozen=True)
class EnvConfig:
    # one player count (every episode), a list of counts (one drawn per episode), or "all" (every
    # count the game allows, from its spec's min_players..max_players)
    num_players: int | list | str = 4
    player_weights: list = field(default_factory=list)  # with several counts: one positive weight each ([]: equal)
    learner_seat: int | str = "random"  # a seat number (at every count) or "random"
    options: dict = field(default_factory=dict)  # game options, checked by the game
    # the learner's observation options, checked by the game's Observer (Extravaganza: views); an
    # exported model records them and is seated with them
    observation: dict = field(default_factory=dict)
    # game options laid over `options`, one mapping per variant (a level, a set of modules): each
    # episode draws one, so one network learns every variant ([]: `options` alone)
    variants: list = field(default_factory=list)
    variant_weights: list = field(default_factory=list)  # with several variants: one positive weight each
    reward: str = "return"  # the learner's reward: "return" (win or lose) or "margin" (the return plus the margin in points)


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
    total_timesteps: int = 1_000_000  # 0: the imitation warm start alone, no PPO after it
    checkpoint_every: int = 100_000  # learner steps between checkpoints (0: only the final model)
    eval_every: int = 100_000  # learner steps between quick evaluations (0: never)
    eval_games: int = 100  # per player count when env.num_players names several
    eval_opponent: str = "random"
    run_dir: str = "runs/default"
    torch_threads: int = 1
    # an exported model (<game>/<name> or its folder) whose actor starts the policy: fine-tuning it, with
    # the same game, observation and network; the value head starts fresh ("": a new network)
    init: str = ""


@dataclass(frozen=True)
class ImitateConfig:
    teacher: str = ""  # an agent spec whose moves the policy learns before PPO ("": no warm start)
    games: int = 0  # teacher games recorded in the learner's seat, against the pool
    epochs: int = 4
    batch_size: int = 1024
    learning_rate: float = 1e-3
    rounds: int = 1  # above 1: DAgger, each further round `games` games of the policy labelled by the teacher
    workers: int = 1  # processes recording the games (a slow teacher, such as rollouts:N, on several cores)
    refine_teacher: str = ""  # after the rounds above: a stronger, slower teacher labelling the policy's own games
    refine_games: int = 0  # games per refining round
    refine_rounds: int = 1
    refine_weight: float = 1.0  # a refining label's weight in the fit, against 1 for the first teacher's


@dataclass(frozen=True)
class ExportConfig:
    name: str = ""  # exported to <out_root>/<game>/<name>/ at the end ("": no export)
    out_root: str = "models"


@dataclass(frozen=True)
class RllibConfig:
    """What `backend: rllib` reads beside `algo` (training/rllib/): where Ray runs and how the games are set up."""

    address: str = ""  # "": start a local Ray instance (ray.init()); "auto" or "HOST:6379": join that cluster
    num_env_runners: int = 1  # Ray actors collecting games, each with algo.n_envs envs (0: collect in the driver)
    num_cpus: int = 0  # a local instance only: the CPUs Ray may use (0: every core); a cluster has its own
    mode: str = "pool"  # "pool": the learner's env against opponents.pool; "self_play": one shared policy in every seat
    restart_failed_env_runners: bool = True  # a dead env runner is restarted (its unfinished games are lost and reported)


@dataclass(frozen=True)
class OpenSpielConfig:
    """What `backend: openspiel` reads (training/openspiel/train.py): OpenSpiel's NFSP or DQN (PyTorch), every
    seat a learner of its own, through d2r_envs.openspiel. Defaults after OpenSpiel's NFSP examples, with
    buffers sized for observations of thousands of values."""

    algorithm: str = "nfsp"  # "nfsp" (neural fictitious self-play) or "dqn"
    hidden: list = field(default_factory=lambda: [256, 256])  # ReLU layers, OpenSpiel's MLP
    learning_rate: float = 0.01  # the Q-network's (DQN's, NFSP's best response)
    sl_learning_rate: float = 0.01  # NFSP's average policy
    batch_size: int = 128
    replay_capacity: int = 20_000  # each seat's replay buffer, in transitions
    reservoir_capacity: int = 50_000  # each seat's NFSP reservoir of (observation, action) pairs
    anticipatory: float = 0.1  # NFSP: the share of episodes played with the best response
    epsilon_start: float = 0.06
    epsilon_end: float = 0.001
    epsilon_decay: int = 1_000_000  # decisions (each seat's) over which epsilon falls
    learn_every: int = 64  # decisions (each seat's) between updates
    update_target_every: int = 1000  # decisions (each seat's) between target network copies
    min_buffer: int = 1000  # transitions before the first update


@dataclass(frozen=True)
class Config:
    game: str
    seed: int = 0
    backend: str = "sb3"  # "sb3" (MaskablePPO, one process), "rllib" (RLlib PPO on Ray; the `rllib` section) or
    # "openspiel" (OpenSpiel's NFSP or DQN; the `openspiel` section)
    env: EnvConfig = field(default_factory=EnvConfig)
    opponents: OpponentConfig = field(default_factory=OpponentConfig)
    algo: AlgoConfig = field(default_factory=AlgoConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    imitate: ImitateConfig = field(default_factory=ImitateConfig)
    export: ExportConfig = field(default_factory=ExportConfig)
    rllib: RllibConfig = field(default_factory=RllibConfig)
    openspiel: OpenSpielConfig = field(default_factory=OpenSpielConfig)

    def player_counts(self) -> list[int]:
        """The player counts trained on, in the config's order (`env.num_players` as a list)."""
        return player_counts(self.game, self.env.num_players, self.env.options)

    def player_weights(self) -> list[float]:
        """One weight per count of `player_counts()` (equal when `env.player_weights` is empty)."""
        return [float(w) for w in self.env.player_weights] or [1.0] * len(self.player_counts())

    def variants(self) -> list[dict]:
        """The game options of each variant (`env.options` with the variant laid over it)."""
        return [{**self.env.options, **v} for v in self.env.variants] or [dict(self.env.options)]

    def variant_weights(self) -> list[float]:
        """One weight per variant (equal when `env.variant_weights` is empty)."""
        return [float(w) for w in self.env.variant_weights] or [1.0] * len(self.variants())


ALL_COUNTS = "all"


def allowed_counts(game: str, options: dict | None = None) -> list[int]:
    """Every player count `game` allows: its spec's min_players..max_players."""
    import d2r_envs

    spec = d2r_envs.make_game(game, **(options or {})).spec
    return list(range(spec.min_players, spec.max_players + 1))


def player_counts(game: str, num_players: Any, options: dict | None = None) -> list[int]:
    """`env.num_players` (a count, a list of counts or "all") as the list of counts it names."""
    if num_players == ALL_COUNTS:
        return allowed_counts(game, options)
    if isinstance(num_players, (list, tuple)):
        return list(num_players)
    return [num_players]


BACKENDS = ("sb3", "rllib", "openspiel")
ALLOWED = {
    ("", "backend"): BACKENDS,
    ("openspiel", "algorithm"): ("nfsp", "dqn"),
    ("rllib", "mode"): ("pool", "self_play"),
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


def _yaml_int(value: Any, key: str) -> Any:
    """A whole number written as YAML gives it, as an int: a float (`9.0e+6`) or a numeric string that
    YAML 1.1 left as text (`9e6`, `1_000_000`); a number that is not whole is refused, naming `key`;
    anything else unchanged (the type check refuses it)."""
    if isinstance(value, bool) or isinstance(value, int):
        return value
    if isinstance(value, float):
        number = decimal.Decimal(value) if math.isfinite(value) else None
    elif isinstance(value, str):
        try:
            number = decimal.Decimal(value.strip())
        except decimal.InvalidOperation:
            return value
    else:
        return value
    if number is None or not number.is_finite() or number != number.to_integral_value():
        raise ConfigError(f"{key}: {value!r} is not a whole number; allowed: a whole number, such as 9000000, "
                          "9e6 or 9_000_000")
    return int(number)


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
        elif kind is int:
            value = _yaml_int(value, key)
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
    for section in ("rllib", "openspiel"):
        if section in data and config.backend != section:
            raise ConfigError(f"{section}: this section is read only with backend: {section} (the config's backend "
                              f"is {config.backend}); set backend: {section} or remove the section")
    _check(config)
    return config


def load(path: str | Path) -> Config:
    """The config in the YAML file at `path` (ConfigError naming the file when it is not one)."""
    import yaml  # only to read a file: the rest of the package takes mappings (d2r export needs no YAML)

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
        ("algo.n_epochs", c.algo.n_epochs), ("train.total_timesteps", max(c.train.total_timesteps, 1)),
        ("train.eval_games", c.train.eval_games), ("train.torch_threads", c.train.torch_threads),
    ]:
        if value < 1:
            raise ConfigError(f"{key}: must be at least 1, got {value}")
    if c.train.total_timesteps < 0:
        raise ConfigError(f"train.total_timesteps: must be 0 (the imitation warm start alone) or more, got "
                          f"{c.train.total_timesteps}")
    if c.train.total_timesteps == 0 and not (c.imitate.teacher and c.backend == "sb3"):
        raise ConfigError("train.total_timesteps: 0 trains the imitation warm start alone, so it needs an "
                          "imitate.teacher and backend: sb3")
    _check_backend(c)
    if not c.algo.net_arch or not all(isinstance(h, int) and h > 0 for h in c.algo.net_arch):
        raise ConfigError(f"algo.net_arch: expected a list of positive layer sizes, got {c.algo.net_arch!r}")
    try:
        counts = _check_counts(c)
        _check_variants(c, counts)
        engine = d2r_envs.make_game(c.game, counts[0], **c.variants()[0])
        try:
            engine.make_observer(**c.env.observation)
        except ValueError as err:
            raise ConfigError(f"env.observation: {err}") from None
        if not c.opponents.pool:
            raise ConfigError("opponents.pool: give at least one opponent, e.g. [random]")
        if c.train.init:
            _check_init(c, engine)
        if c.imitate.teacher:
            if (c.imitate.games < 1 or c.imitate.epochs < 1 or c.imitate.batch_size < 1 or c.imitate.rounds < 1
                    or c.imitate.workers < 1):
                raise ConfigError("imitate: games, epochs, batch_size, rounds and workers must be at least 1 with a teacher")
            if not isinstance(c.imitate.teacher, str):
                raise ConfigError(f"imitate.teacher: expected an agent spec, got {c.imitate.teacher!r}")
            make_agent(c.imitate.teacher, engine)
            if c.imitate.refine_teacher:
                im = c.imitate
                if not isinstance(im.refine_teacher, str):
                    raise ConfigError(f"imitate.refine_teacher: expected an agent spec, got {im.refine_teacher!r}")
                if im.refine_games < 1 or im.refine_rounds < 1:
                    raise ConfigError("imitate: refine_games and refine_rounds must be at least 1 with a refine_teacher")
                if not (isinstance(im.refine_weight, (int, float)) and 0 < im.refine_weight < float("inf")):
                    raise ConfigError(f"imitate.refine_weight: expected a positive number, got {im.refine_weight!r}")
                make_agent(im.refine_teacher, engine)
        elif c.imitate.refine_teacher:
            raise ConfigError("imitate.refine_teacher: needs imitate.teacher (the policy it refines starts from that teacher's imitation)")
        for spec in [*c.opponents.pool, c.train.eval_opponent]:
            if not isinstance(spec, str):
                raise ConfigError(f"opponents.pool: expected agent specs (strings), got {spec!r}")
            make_agent(spec, engine)
    except ConfigError:
        raise
    except ValueError as err:
        raise ConfigError(str(err)) from None
    if c.export.name:
        try:
            check_model_name(c.export.name)
        except ValueError as err:
            raise ConfigError(f"export.name: {err}") from None
    from d2r_envs.single_agent import REWARDS

    if c.env.reward not in REWARDS:
        raise ConfigError(f"env.reward: {c.env.reward!r} is not allowed; allowed: {', '.join(REWARDS)}")
    seat = c.env.learner_seat
    fewest = min(counts)
    if seat != "random" and seat not in range(fewest):
        at = f" (a seat every count has: the fewest players is {fewest})" if len(counts) > 1 else ""
        raise ConfigError(f"env.learner_seat: {seat!r} is not allowed; allowed: random or 0..{fewest - 1}{at}")


def _check_init(c: Config, engine) -> None:
    """train.init: a model of this game and observation, with the network algo describes."""
    from d2r_envs.opponents import OpponentError, load_opponent, observation_options

    try:
        policy = load_opponent(c.train.init, engine)
    except (OpponentError, OSError) as err:
        raise ConfigError(f"train.init: {err}") from None
    arch = policy.manifest["architecture"]
    if list(arch["hidden"]) != list(c.algo.net_arch) or arch["activation"] != c.algo.activation:
        raise ConfigError(f"train.init: {c.train.init} has hidden layers {arch['hidden']} with {arch['activation']}; "
                          f"algo asks for {list(c.algo.net_arch)} with {c.algo.activation}: set algo.net_arch and "
                          "algo.activation to the model's")
    options = observation_options(policy.manifest, c.train.init)
    if options != dict(c.env.observation):
        raise ConfigError(f"train.init: {c.train.init} was trained with the observation options {options}; "
                          f"env.observation is {dict(c.env.observation)}: set env.observation to the model's")


def _check_backend(c: Config) -> None:
    """The keys that belong to one backend only, refused under the others."""
    if c.train.init and c.backend != "sb3":
        raise ConfigError(f"train.init: fine-tuning an exported model is SB3's (the config's backend is {c.backend}); "
                          "remove it or set backend: sb3")
    if c.backend == "openspiel":
        _check_openspiel(c)
    elif c.openspiel != OpenSpielConfig():
        raise ConfigError(f"openspiel: this section is read only with backend: openspiel (the config's backend is "
                          f"{c.backend}); set backend: openspiel or remove the section")
    if c.backend != "rllib":
        if c.rllib != RllibConfig():
            raise ConfigError(f"rllib: this section is read only with backend: rllib (the config's backend is "
                              f"{c.backend}); set backend: rllib or remove the section")
        return
    r = c.rllib
    if r.num_env_runners < 0:
        raise ConfigError(f"rllib.num_env_runners: must be at least 0 (0: collect in the driver), got {r.num_env_runners}")
    if r.num_cpus < 0:
        raise ConfigError(f"rllib.num_cpus: must be at least 0 (0: every core), got {r.num_cpus}")
    if r.num_cpus and r.address:
        raise ConfigError(f"rllib.num_cpus: only for a local Ray instance; the cluster at rllib.address {r.address!r} "
                          "has the CPUs its nodes were started with (ray start --num-cpus)")
    if c.algo.vec_env != "dummy":
        raise ConfigError(f"algo.vec_env: {c.algo.vec_env!r} is SB3's; with backend: rllib the envs run in "
                          "rllib.num_env_runners Ray actors, algo.n_envs envs each")
    if c.imitate.teacher and r.mode == "self_play":
        raise ConfigError("imitate.teacher: the imitation warm start records the learner's games against the pool, "
                          "so it needs rllib.mode: pool; remove the imitate section with rllib.mode: self_play")
    if r.mode == "self_play" and c.env.reward != "return":
        raise ConfigError(f"env.reward: {c.env.reward!r} is the learner's env's (rllib.mode: pool); with rllib.mode "
                          "self_play every seat gets the game's return; set env.reward: return or use rllib.mode: pool")
    if r.mode == "self_play" and c.opponents.snapshot_every:
        raise ConfigError("opponents.snapshot_every: with rllib.mode self_play every seat is the learner itself, "
                          "so there is no pool to add snapshots to; set it to 0 or use rllib.mode: pool")


def _check_openspiel(c: Config) -> None:
    """backend: openspiel plays every seat with a learner of its own at one player count: the sections
    and keys of the other backends (PPO's `algo`, the opponent pool, the warm start) are refused, by name."""
    o = c.openspiel
    for section, default in (("algo", AlgoConfig()), ("opponents", OpponentConfig()), ("imitate", ImitateConfig())):
        if getattr(c, section) != default:
            raise ConfigError(f"{section}: read only by backend sb3 and rllib; with backend: openspiel every seat is a "
                              f"learner and `openspiel` holds the algorithm's settings; remove the {section} section")
    if not isinstance(c.env.num_players, int) or c.env.variants:
        raise ConfigError(f"env.num_players: backend: openspiel trains at one player count and one variant; got "
                          f"{c.env.num_players!r}" + (f" with {len(c.env.variants)} variants" if c.env.variants else ""))
    if c.train.eval_every:
        raise ConfigError(f"train.eval_every: backend: openspiel makes no quick evaluations during training; set it "
                          f"to 0 (got {c.train.eval_every}) and score the exported model with d2r eval")
    if c.env.reward != "return" or c.env.observation:
        raise ConfigError("env: backend: openspiel gives each seat the game's return and its default observation; "
                          "remove env.reward and env.observation")
    if not o.hidden or not all(isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in o.hidden):
        raise ConfigError(f"openspiel.hidden: expected a list of positive layer sizes, got {o.hidden!r}")
    for key in ("batch_size", "replay_capacity", "reservoir_capacity", "epsilon_decay", "learn_every",
                "update_target_every", "min_buffer"):
        if getattr(o, key) < 1:
            raise ConfigError(f"openspiel.{key}: must be at least 1, got {getattr(o, key)}")
    for key in ("learning_rate", "sl_learning_rate"):
        if not 0 < getattr(o, key) < float("inf"):
            raise ConfigError(f"openspiel.{key}: expected a positive number, got {getattr(o, key)}")
    if not 0 <= o.anticipatory <= 1 or not 0 <= o.epsilon_end <= o.epsilon_start <= 1 or o.epsilon_start == 0:
        raise ConfigError(f"openspiel: anticipatory in [0, 1] and 0 <= epsilon_end <= epsilon_start <= 1 (epsilon_start "
                          f"above 0), got anticipatory {o.anticipatory}, epsilon {o.epsilon_start} to {o.epsilon_end}")


def _check_variants(c: Config, counts: list[int]) -> None:
    """env.variants (mappings of game options, each valid at every count) and env.variant_weights."""
    import d2r_envs

    variants, weights = c.env.variants, c.env.variant_weights
    for i, v in enumerate(variants):
        if not isinstance(v, dict):
            raise ConfigError(f"env.variants[{i}]: expected a mapping of game options, got {v!r}")
        for n in counts:
            try:
                d2r_envs.make_game(c.game, n, **{**c.env.options, **v})
            except ValueError as err:
                raise ConfigError(f"env.variants[{i}]: {err}") from None
    if weights:
        if len(variants) < 2:
            raise ConfigError("env.variant_weights: weights need several env.variants")
        if len(weights) != len(variants):
            raise ConfigError(f"env.variant_weights: {len(weights)} weight(s) for {len(variants)} variants; "
                              "give one weight per variant, in the same order")
        for w in weights:
            number = _yaml_float(w)
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number) or number <= 0:
                raise ConfigError(f"env.variant_weights: {w!r} is not allowed; allowed: positive numbers, one per variant")


def _check_counts(c: Config) -> list[int]:
    """env.num_players and env.player_weights: the counts (each one the game allows, none twice) and
    their weights (one positive number per count, only with several counts). Returns the counts."""
    import d2r_envs

    value, weights = c.env.num_players, c.env.player_weights
    try:
        allowed = allowed_counts(c.game, c.env.options)
    except ValueError as err:
        raise ConfigError(str(err)) from None
    span = f"{allowed[0]}..{allowed[-1]}"
    form = f"a count ({span}), a list of counts such as [{allowed[0]}, {allowed[-1]}], or {ALL_COUNTS}"
    if isinstance(value, str) and value != ALL_COUNTS:
        raise ConfigError(f"env.num_players: {value!r} is not allowed; allowed: {form}")
    if isinstance(value, list):
        if not value:
            raise ConfigError(f"env.num_players: an empty list; allowed: {form}")
        for n in value:
            if isinstance(n, bool) or not isinstance(n, int):
                raise ConfigError(f"env.num_players: {n!r} in the list is not a whole number; allowed: counts {span}")
            if n not in allowed:
                raise ConfigError(f"env.num_players: {n} players is not allowed for {c.game}; allowed: {span}")
        twice = sorted({n for n in value if value.count(n) > 1})
        if twice:
            raise ConfigError(f"env.num_players: {', '.join(map(str, twice))} listed twice; list each count once "
                              "(env.player_weights sets how often each is drawn)")
    elif isinstance(value, int):
        try:
            d2r_envs.make_game(c.game, value, **c.env.options)
        except ValueError as err:  # the game's own message: the key and the allowed range
            raise ConfigError(f"env.num_players: {err}") from None
    counts = player_counts(c.game, value, c.env.options)
    if weights:
        if len(counts) < 2:
            raise ConfigError(f"env.player_weights: weights need several counts in env.num_players (a list or "
                              f"{ALL_COUNTS}), got num_players {value!r}")
        if len(weights) != len(counts):
            raise ConfigError(f"env.player_weights: {len(weights)} weight(s) for {len(counts)} counts ({counts}); "
                              "give one weight per count, in the same order")
        for w in weights:
            number = _yaml_float(w)
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number) or number <= 0:
                raise ConfigError(f"env.player_weights: {w!r} is not allowed; allowed: positive numbers, one per count")
    return counts


def to_dict(config: Config) -> dict:
    return dataclasses.asdict(config)
