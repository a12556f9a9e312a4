"""A training session: the time it and the sessions before it trained (`Clock`), its stop by SIGINT
or SIGTERM (`StopSignals`, `Stopped`, and what `d2r train` then says), and its summary.json."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from training.run_folder import write_atomic

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # stop a run with a checkpoint (StopSignals)


def duration(seconds: float) -> str:
    """A time span for people: "48.2 s", "2 min 19 s", "1 h 04 min"."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {secs} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def cpu_seconds() -> float:
    """CPU time (user and system) of this process and of the child processes it has waited for: the
    core-seconds work took, which other work on the machine does not inflate as it does the wall clock."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Clock:
    """A run's training time, of the wall clock and of the CPU: what the checkpoint it resumed from had
    trained (`before`, `cpu_before`; None when the checkpoint does not say) plus this session's."""

    def __init__(self, before: float | None, cpu_before: float | None = None) -> None:
        self.before, self.cpu_before = before, cpu_before
        self.began, self.cpu_began = time.perf_counter(), cpu_seconds()

    def session(self) -> float:
        return time.perf_counter() - self.began

    def total(self) -> float | None:
        return None if self.before is None else self.before + self.session()

    def cpu_total(self) -> float | None:
        return None if self.cpu_before is None else self.cpu_before + cpu_seconds() - self.cpu_began


class Stopped(Exception):
    """A run stopped by the signal `signum`. `checkpoint`: the checkpoint saved to resume from, at `step`
    (None when it stopped before PPO began: nothing to resume from); `session_steps` and
    `session_seconds`: what this session trained; `seconds`: the run's training time in all (None: unknown);
    `recorded`: the folder of imitation games a stop in the warm start leaves, to go on from."""

    def __init__(self, signum: int, checkpoint: Path | None = None, step: int = 0, session_steps: int = 0,
                 session_seconds: float = 0.0, seconds: float | None = None) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum, self.checkpoint, self.step = signum, checkpoint, step
        self.session_steps, self.session_seconds, self.seconds = session_steps, session_seconds, seconds
        self.recorded: Path | None = None

    @property
    def exit_status(self) -> int:
        """The shell's status for a command a signal ended: 130 for SIGINT, 143 for SIGTERM."""
        return 128 + self.signum


class StopSignals:
    """SIGINT and SIGTERM while a run trains (in the main thread; the handlers before it are restored
    after). Before PPO begins (`at_once`: loading, the imitation warm start) a signal stops the run at
    once by raising `Stopped`, as nothing there can be resumed; then the first one only sets `signum`,
    and training stops at its next step (SB3: `training.train.SelfPlay`; RLlib: after the iteration in
    progress) to save a checkpoint. Later ones are noted and
    otherwise ignored, so the checkpoint is written whole."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.at_once = True
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)

    def claim(self) -> None:
        """Install the handlers again, in the main thread: a library may replace them while it starts
        (`ray.init` sets its own SIGTERM handler, which would end the run without a checkpoint)."""
        if self._previous:
            for signum in STOP_SIGNALS:
                signal.signal(signum, self._handle)

    def _handle(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        if self.signum is not None:
            _notice(f"{name}: already stopping (a checkpoint is written to a temporary name and renamed when whole; "
                    f"kill -9 {os.getpid()} ends the run now and keeps the checkpoints already written)")
            return
        self.signum = signum
        if self.at_once:
            self.at_once = False
            raise Stopped(signum)
        _notice(f"{name}: stopping after the current step, then saving a checkpoint to resume from")


def _notice(text: str) -> None:
    """A line on stderr from a signal handler: os.write, as print may be in the middle of a write."""
    try:
        os.write(sys.stderr.fileno(), f"\n{text}\n".encode())
    except (OSError, ValueError, AttributeError):
        pass


def session_summary(run_dir: Path, clock: Clock, start: int, end: int, resume: str | None, **extra: Any) -> dict:
    """Write summary.json (`write_atomic`) for a session that trained from step `start` to `end`: the
    run's steps and training time in all (None: unknown), this session's, the checkpoint it resumed
    from, then `extra`; and print this session's, and after a resume the whole run's."""
    session, seconds, cpu = clock.session(), clock.total(), clock.cpu_total()
    steps = end - start
    summary = {"timesteps": end, "seconds": None if seconds is None else round(seconds, 1),
               "cpu_seconds": None if cpu is None else round(cpu, 1),
               "session_timesteps": steps, "session_seconds": round(session, 1),
               "steps_per_second": round(steps / max(session, 1e-9), 1), "resumed_from": resume,
               "seconds_before_resume": None if clock.before is None or not resume else round(clock.before, 1),
               **extra}
    write_atomic(run_dir / "summary.json", json.dumps(summary, indent=2).encode())
    print(f"trained {steps:,} steps in {duration(session)} ({summary['steps_per_second']:,.0f} steps/s)"
          + (f", resumed at step {start:,}" if resume else ""))
    if resume:
        before = ("the time before this session is unknown: its checkpoint does not record it" if seconds is None
                  else f"{duration(clock.before)} of it before this session")
        took = "" if seconds is None else f" in {duration(seconds)}"
        print(f"the run in all: {end:,} steps{took} ({before})")
    return summary


def resume_command(args: argparse.Namespace, checkpoint: Path | str | None, force: bool | None = None) -> str:
    """The command that continues a stopped run from `checkpoint` (None: that starts it again, with
    --force unless `force` is False)."""
    parts = [*shlex.split(getattr(args, "train_prog", None) or "d2r train"), "--config", args.config]
    parts += ["--resume", str(checkpoint)] if checkpoint is not None else []
    parts += ["--export-name", args.export_name] if args.export_name is not None else []
    force = args.force or checkpoint is None if force is None else force
    parts += ["--force"] if force else []
    return shlex.join(parts)


def stopped_message(stop: Stopped, args: argparse.Namespace) -> str:
    """What `d2r train` says when a signal stopped it: where the checkpoint is and how to resume."""
    name = signal.Signals(stop.signum).name
    if stop.checkpoint is None and stop.recorded is not None:
        return (f"\nstopped by {name} in the imitation warm start; the games recorded so far are kept in "
                f"{stop.recorded}\nto go on from them: {resume_command(args, None, force=args.force)}")
    if stop.checkpoint is None:
        again = resume_command(args, args.resume)
        return (f"\nstopped by {name} before training began: nothing new to resume from\n"  # a bar may be open
                f"to start again: {again}")
    total = "" if stop.seconds is None else f"; {duration(stop.seconds)} of training in all"
    return (f"stopped by {name} at step {stop.step:,} (this session: {stop.session_steps:,} steps in "
            f"{duration(stop.session_seconds)}{total}); checkpoint: {stop.checkpoint}\n"
            f"to resume: {resume_command(args, stop.checkpoint)}")
