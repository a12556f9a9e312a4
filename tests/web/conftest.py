"""`d2r serve` in a subprocess, for the tests that need a real server."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Servers:
    """Starts `d2r serve` on a free port of 127.0.0.1 and stops every one it started."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen] = []

    def start(self, replays: Path, *args: str) -> str:
        port = _free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "d2r_envs.cli", "serve", "--port", str(port), "--replays", str(replays), *args],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.procs.append(proc)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"d2r serve exited {proc.returncode}: {proc.stdout.read()}")
            try:
                urllib.request.urlopen(base + "/api/games", timeout=2).read()
                return base
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        raise AssertionError("d2r serve did not answer within 30 s")

    def stop(self, proc: subprocess.Popen) -> str:
        """Stop one server; what it printed."""
        proc.terminate()
        try:
            out, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        return out

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                self.stop(proc)


@pytest.fixture(scope="module")
def servers():
    s = Servers()
    yield s
    s.stop_all()
