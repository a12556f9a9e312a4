"""Worker processes that Ctrl-C stops: the main process alone sees it, ends the workers at once and
carries on with what they finished (the tournament's and `d2r balance`'s pools)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

# The most tasks a worker is handed in one message. A small message never fills a pipe, so a pool
# whose workers were ended cannot leave its feeder thread blocked on a write (and its shutdown hung).
MAX_CHUNK = 16


@contextlib.contextmanager
def ctrl_c_held_back() -> Iterator[None]:
    """Ctrl-C held back while worker processes start: they keep it blocked for good (a child inherits the
    signal mask of the thread that starts it), and the main process gets a Ctrl-C pressed meanwhile once
    the block ends. So on Ctrl-C the main process alone stops, it ends the workers, and no worker prints a
    traceback. The mask is the starting thread's only, and the kernel hands a Ctrl-C to any thread that
    does not block it (a progress bar's, say), where Python would still raise KeyboardInterrupt in the main
    thread, maybe half-way through starting a worker: so the block also holds Python's handler back."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # one pending here is noted above
        signal.signal(signal.SIGINT, previous)
        if pressed and callable(previous):
            previous(signal.SIGINT, None)  # Python's default raises KeyboardInterrupt


def chunk_size(tasks: int, workers: int) -> int:
    """Tasks per message: about four messages a worker, at most MAX_CHUNK."""
    return max(1, min(MAX_CHUNK, tasks // (4 * workers)))


def _run_chunk(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    return [fn(item) for item in items]


def in_order(pool: ProcessPoolExecutor, fn: Callable[[Any], Any], items: Sequence[Any],
             chunksize: int = 1) -> Iterator[Any]:
    """fn(item) for each item, computed on the pool, yielded in the items' order: `pool.map` less its
    clean-up. An error or a Ctrl-C that leaves `pool.map` early cancels the tasks not yet started, from
    this thread, while the pool's own thread may be marking them failed for `stop`: Python before 3.12
    then prints that thread's InvalidStateError traceback (CPython gh-107219). Here `stop` alone ends
    the tasks."""
    futures = [pool.submit(_run_chunk, fn, items[i:i + chunksize]) for i in range(0, len(items), chunksize)]
    return (result for future in futures for result in future.result())


def stop(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers at once, tasks in play included, and shut it down. The pool sees its
    workers ended before it is told to shut down, so the tasks left fail with BrokenProcessPool every
    time; no task may have been cancelled by another thread (see `in_order`)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    processes = list((pool._processes or {}).values())
    if terminate is not None:
        terminate()
    else:
        for process in processes:
            process.terminate()
    for process in processes:
        process.join()
    pool.shutdown(wait=True, cancel_futures=True)
