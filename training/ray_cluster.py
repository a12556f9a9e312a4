"""Joining Ray, for training (`backend: rllib`) and evaluation (`--ray`): one place that starts or
connects, and shuts down only what it started.

- address "" or None: a local Ray instance on this machine (`ray.init()`), with `num_cpus` CPUs
  (None: every core), no dashboard;
- "auto": the cluster this node joined with `ray start --head` / `ray start --address=HEAD:6379`;
- "HOST:6379" or "ray://HOST:10001": that cluster.

Every node imports `d2r_envs` and `training` from its own install (`pip install -e '.[rllib]'` of the same
checkout on each). An instance already running in this process (a test's, a notebook's) is used as it is and left running.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

INSTALL_RLLIB = "pip install torch==2.13.0 && pip install -e '.[rllib]'"


class RayMissing(ImportError):
    """Ray is not installed."""


def import_ray():
    try:
        import ray
    except ImportError as e:
        raise RayMissing(f"this needs Ray ({e.name or e} is missing); install it with: {INSTALL_RLLIB}") from e
    return ray


@contextlib.contextmanager
def connected(address: str | None = None, num_cpus: int | None = None) -> Iterator[object]:
    """Ray, initialised for the block (see the module docstring); yields the `ray` module."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    kwargs: dict = {"include_dashboard": False}
    if address:
        kwargs["address"] = address
    elif num_cpus:
        kwargs["num_cpus"] = int(num_cpus)
    ray.init(**kwargs)
    try:
        yield ray
    finally:
        ray.shutdown()
