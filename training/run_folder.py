"""A training run's folder (train.run_dir): the checks before the first step, the lock a run holds
while it writes there, and writing files so that no stop or crash leaves a torn one."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no lock on the run folder (two runs in one folder are then the user's to avoid)
    fcntl = None  # type: ignore[assignment]

import torch

from training import config as cfg
from training.export import RLLIB_PROGRESS, checkpoint_facts, export_target, is_rllib_checkpoint
from training.learner_env import make_env


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary name in the same folder, renamed over `path` once
    whole: a stop, a crash or a full disk mid-write leaves the earlier file (or none), never a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as f:  # open(): the umask's mode, like every other output
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


# What a run writes into train.run_dir; a fresh run with force=True clears these (and nothing else).
# (`final`: an RLlib run's final checkpoint, a folder.)
RUN_OUTPUTS = ("config.json", "progress.csv", "summary.json", "imitation.json", "final.zip", "final", "checkpoints",
               "snapshots")

# The imitation warm start's recorded games while it lasts, each file named by all that made it: a warm
# start stopped part-way goes on from them, even with force, and deletes them when it is done.
IMITATION_GAMES = "imitation-games"


class RunError(ValueError):
    """A run that cannot start: its outputs would overwrite or mix with earlier ones, or cannot be written."""


def preflight(c: cfg.Config, resume: str | None = None, force: bool = False) -> None:
    """Every check on the run's outputs that can fail, made before the first step, all reported at
    once: the checkpoint to resume (there, whole, and of this config's spaces), the export's name and
    folder (a model already there is refused unless `force`), and a run folder that another run is
    writing (refused even with `force`), that already holds an earlier run (refused for a fresh run
    unless `force`; a folder holding only a config and the imitation games of a warm start that was
    stopped is not one: the same command goes on from those games) or that cannot be written."""
    problems = []
    if resume is not None and not (Path(resume).is_dir() if c.backend == "rllib" else Path(resume).is_file()):
        kind = "RLlib checkpoint folder" if c.backend == "rllib" else "checkpoint"
        problems.append(f"--resume {resume}: no such {kind}")
    elif resume is not None and c.backend == "sb3":
        problem = checkpoint_problem(c, resume)
        if problem:
            problems.append(f"--resume {problem}")
    elif resume is not None and not (is_rllib_checkpoint(resume) and (Path(resume) / RLLIB_PROGRESS).is_file()):
        problems.append(f"--resume {resume}: not a checkpoint folder of a d2r RLlib run (no rllib_checkpoint.json "
                        f"or {RLLIB_PROGRESS}); give the run's checkpoints/step_N/ folder")
    if c.export.name:
        try:
            export_target(c.game, c.export.name, c.export.out_root, overwrite=force,
                          how="overwrite it with --force, or export under another name with --export-name NAME "
                          "(or export.name in the config)")
        except (ValueError, OSError) as err:
            problems.append(f"export: {err}")
    run_dir = Path(c.train.run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        problems.append(f"train.run_dir {run_dir} exists and is not a folder")
    else:
        earlier = sorted([name for name in RUN_OUTPUTS if (run_dir / name).exists()]
                         + [p.name for p in run_dir.glob("events.out.tfevents*")])
        holder = lock_holder(run_dir)
        if holder is not None:
            problems.append(in_use(run_dir, holder))
        elif earlier and resume is None and not force and not stopped_in_warm_start(run_dir, earlier):
            problems.append(
                f"train.run_dir {run_dir} already holds a run ({', '.join(earlier[:4])}{', ...' if len(earlier) > 4 else ''}); "
                "continue it with --resume CHECKPOINT, start afresh there with --force (its checkpoints, snapshots "
                "and logs are deleted), or set another train.run_dir"
            )
        existing = run_dir
        while not existing.exists():
            existing = existing.parent
        if not os.access(existing, os.W_OK | os.X_OK):
            problems.append(f"train.run_dir {run_dir}: {existing} is not writable")
    if problems:
        raise RunError("; and ".join(problems) if len(problems) < 2 else
                       "the run cannot start:\n  - " + "\n  - ".join(problems))


def stopped_in_warm_start(run_dir: Path, outputs: list[str]) -> bool:
    """Whether `run_dir`, holding `outputs` (names of RUN_OUTPUTS), is a run stopped while it recorded
    its imitation games: its config and those games, nothing else."""
    return outputs == ["config.json"] and (run_dir / IMITATION_GAMES).is_dir()


def clear_run_dir(run_dir: Path) -> None:
    """Delete an earlier run's outputs (RUN_OUTPUTS and TensorBoard files) from `run_dir`."""
    for name in RUN_OUTPUTS:
        path = run_dir / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for path in run_dir.glob("events.out.tfevents*"):
        path.unlink()


def prepare_run(c: cfg.Config, resume: str | None, force: bool) -> Path:
    """Every output check first (`preflight`), then the run folder (cleared with `force`, unless
    resuming) with the config in it, and torch's threads: what each backend does before training."""
    preflight(c, resume, force)
    run_dir = Path(c.train.run_dir)
    if force and resume is None:
        clear_run_dir(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(cfg.to_dict(c), indent=2), encoding="utf-8")
    torch.set_num_threads(c.train.torch_threads)
    return run_dir


def checkpoint_problem(c: cfg.Config, path: str) -> str | None:
    """What makes `path` unfit to resume `c` from, in one line (None: nothing): a file that is not a
    whole SB3 checkpoint (`checkpoint_facts`), or one whose observation or actions are not this config's."""
    try:
        facts = checkpoint_facts(path)
    except ValueError as err:
        return str(err)
    env = make_env(c)
    size, actions = int(env.observation_space.shape[0]), int(env.action_space.n)
    if (facts["obs_size"], facts["num_actions"]) != (size, actions):
        return (f"{path}: a checkpoint of another game or observation ({facts['obs_size']} observation values, "
                f"{facts['num_actions']} actions; this config's env has {size} and {actions}); resume with a "
                "checkpoint of this config's run")
    return None


LOCK_FILE = "train.lock"  # in train.run_dir: flock'ed while a run writes there, naming its process


def lock_holder(run_dir: Path) -> dict | None:
    """The process holding `run_dir`'s lock, as it wrote itself there ({"pid", "host", "started"}, {}
    when it has not yet), or None when no other process holds it. The OS releases a lock with its
    process, so a run that crashed or was killed leaves none."""
    path = run_dir / LOCK_FILE
    if fcntl is None or not path.is_file():
        return None
    with open(path, "rb") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            return None
        except OSError:
            pass
        try:
            holder = json.loads(f.read() or b"{}")
        except ValueError:
            holder = {}
    holder = holder if isinstance(holder, dict) else {}
    if holder.get("pid") == os.getpid() and holder.get("host") == socket.gethostname():
        return None  # this process: the run in hand
    return holder


def in_use(run_dir: Path, holder: dict) -> str:
    """Why a run cannot start in `run_dir` while `holder` (`lock_holder`) writes there."""
    pid, host, started = holder.get("pid"), holder.get("host"), holder.get("started")
    who = (f"pid {pid}" if pid else "a process") + (f" on {host}" if host else "") + (f", started {started}" if started else "")
    stop = f"kill -INT {pid}" + (f" on {host}" if host and host != socket.gethostname() else "") if pid else "stopping it"
    return (f"train.run_dir {run_dir} is in use by another training run ({who}); wait for it to end, stop it "
            f"({stop}: it saves a checkpoint first), or set another train.run_dir; --force does not override this")


@contextlib.contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold `run_dir`'s lock for the block: an OS lock (fcntl.flock) on train.lock, which names this
    process while it holds it. RunError when another process holds it."""
    run_dir.mkdir(parents=True, exist_ok=True)
    with open(run_dir / LOCK_FILE, "a+b") as f:
        if fcntl is not None:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.seek(0)
                try:
                    holder = json.loads(f.read() or b"{}")
                except ValueError:
                    holder = {}
                raise RunError(in_use(run_dir, holder if isinstance(holder, dict) else {})) from None
        me = {"pid": os.getpid(), "host": socket.gethostname(),
              "started": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        f.truncate(0)  # appending from an empty file: the lock file holds this process alone
        f.write(json.dumps(me).encode() + b"\n")
        f.flush()
        try:
            yield
        finally:
            f.truncate(0)
