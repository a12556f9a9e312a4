"""Joining Ray, for training (`backend: rllib`) and evaluation (`--ray`): one place that starts or
connects, and shuts down only what it started.

- address "" or None: a local Ray instance on this machine (`ray.init()`), with `num_cpus` CPUs
  (None: every core), no dashboard;
- "auto": the cluster this node joined with `ray start --head` / `ray start --address=HEAD:6379`;
- "HOST:6379" or "ray://HOST:10001": that cluster.

An address that cannot be reached raises `Unreachable`, one line naming it and how to start a cluster,
within seconds (Ray itself would retry for minutes).

Every node imports `d2r_envs` and `training` from its own install (`pip install -e '.[rllib]'` of the same
checkout on each). An instance already running in this process (a test's, a notebook's) is used as it is and left running.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

INSTALL_RLLIB = "pip install torch==2.13.0 && pip install -e '.[rllib]'"
CONNECT_SECONDS = 5.0


class RayMissing(ImportError):
    """Ray is not installed."""


class Unreachable(ConnectionError):
    """No Ray cluster answers at the address given."""

    def __init__(self, address: str, why: str) -> None:
        self.address = address
        super().__init__(f"cannot reach a Ray cluster at {address} ({why}); start one with `ray start --head` on "
                         "its head node (it listens on 6379, then HEAD:6379 is the address), or leave the address "
                         "out to run on a local Ray instance")


def check_reachable(address: str, timeout: float = CONNECT_SECONDS) -> None:
    """Raise `Unreachable` unless something accepts connections at a HOST:PORT or ray://HOST:PORT address
    ("auto" is left to Ray); ValueError for an address of another form."""
    if address == "auto":
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    host = host.strip("[]")  # [::1]:6379
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"Ray address {address!r}: expected auto, HOST:PORT (HEAD:6379) or ray://HOST:10001")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise Unreachable(address, e.strerror or str(e) or type(e).__name__) from None


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
        check_reachable(address)
        kwargs["address"] = address
    elif num_cpus:
        kwargs["num_cpus"] = int(num_cpus)
    try:
        ray.init(**kwargs)
    except ConnectionError as e:  # "auto" with no cluster on this node, or a port that is not Ray's
        if not address:
            raise
        why = "no cluster was started on this node" if address == "auto" else (str(e).strip() or type(e).__name__)
        raise Unreachable(address, why.splitlines()[0]) from None
    try:
        yield ray
    finally:
        ray.shutdown()
