"""A tournament's deals as Ray tasks: `d2r eval ... --ray [ADDRESS]`, `python -m training.bars ... --ray`.

The task body is the local pool's: `training.deals.init_worker` with the agents the main process
built (shipped once through Ray's object store, so a cluster's nodes need no model files), then
`play_deal` for each deal of a chunk. Results come back tagged with their deals and are put in deal
order before anything is summarised, so the same seed gives the same result as the local pool.

Reliability. A task whose worker process or node dies is run again (Ray's `max_retries`, `retries`
here); an error raised by the game or an agent is not retried (it would repeat) and is raised as
itself. When every task has finished, every deal must have come back exactly once: deals still missing
(their retries spent) raise `LostDeals`, naming them; a tournament with fewer deals is never summarised.
An error or Ctrl-C in the main process cancels the tasks still running.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from training.deals import WORKER, init_worker, play_deal

DEFAULT_RETRIES = 3


class LostDeals(RuntimeError):
    """Deals that never came back from Ray (their workers died more often than the retries allow)."""

    def __init__(self, lost: Sequence[int], deals: int, why: Sequence[str]) -> None:
        self.lost = sorted(lost)
        shown = ", ".join(map(str, self.lost[:20])) + (", ..." if len(self.lost) > 20 else "")
        reasons = "; ".join(dict.fromkeys(why)) or "no result"
        super().__init__(f"{len(self.lost)} of {deals} deals were lost on Ray and the tournament was not summarised: "
                         f"deals {shown} ({reasons}); run it again (the same seed plays the same games)")


def _chunk_task(payload: tuple, deals: list[int]) -> list[tuple[int, list, dict]]:
    """Play `deals` with the shipped set-up: [(deal, records, timing)] (the body of the Ray task)."""
    setup, engine, agents = payload
    init_worker(setup, engine, agents)
    try:
        return [(d, *play_deal(d)) for d in deals]
    finally:
        WORKER.clear()


def chunks(deals: int | Sequence[int], parallel: int) -> list[list[int]]:
    """The deals (0..deals-1 for a count) cut into consecutive chunks, about four per CPU."""
    todo = list(range(deals)) if isinstance(deals, int) else list(deals)
    size = max(1, len(todo) // (4 * max(1, parallel)))
    return [todo[i:i + size] for i in range(0, len(todo), size)]


def play_deals(setup: Any, engine: Any, agents: dict[str, Any], deals: int | Sequence[int], *,
               retries: int = DEFAULT_RETRIES,
               on_deal: Callable[[int, tuple[list, dict]], None] | None = None) -> list[tuple[list, dict]]:
    """Every deal's (records, timing), in deal order, played by Ray tasks on the Ray instance this process
    is connected to; `deals` is a count (deals 0..deals-1) or the deal numbers. `on_deal(deal, (records,
    timing))` is called as each comes back. Raises `LostDeals` if any deal did not come back (after the
    others were passed to `on_deal`), and a task's own error as itself."""
    todo = list(range(deals)) if isinstance(deals, int) else list(deals)
    import ray

    task = ray.remote(max_retries=retries, retry_exceptions=False)(_chunk_task)
    payload = ray.put((setup, engine, agents))
    parallel = int(ray.cluster_resources().get("CPU", 1))
    pending = {task.remote(payload, c): c for c in chunks(todo, parallel)}
    done: dict[int, tuple[list, dict]] = {}
    lost: list[int] = []
    why: list[str] = []
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                chunk = pending.pop(ref)
                try:
                    results = ray.get(ref)
                except ray.exceptions.RayTaskError as err:  # the game's or an agent's own error: raise it
                    raise err.as_instanceof_cause() from None
                except ray.exceptions.RayError as err:  # the worker or its node died, past the retries
                    lost.extend(chunk)
                    why.append(f"{type(err).__name__} after {retries} retr{'y' if retries == 1 else 'ies'}")
                    continue
                for d, records, timing in results:
                    if d in done:
                        raise RuntimeError(f"deal {d} came back twice from Ray")
                    done[d] = (records, timing)
                    if on_deal is not None:
                        on_deal(d, done[d])
    except BaseException:  # an error or Ctrl-C: the tasks still running stop too, on a cluster as well
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    missing = sorted(set(todo) - set(done))
    if lost or missing:
        raise LostDeals(sorted(set(lost) | set(missing)), len(todo), why)
    return [done[d] for d in sorted(done)]
