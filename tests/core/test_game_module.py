"""package_module (Game._module): a game package's optional module, whole even while another thread is importing it."""

from __future__ import annotations

import sys
import threading
import time

from d2r_envs.core.game import package_module


def test_a_module_another_thread_is_importing_is_returned_whole(tmp_path, monkeypatch) -> None:
    pkg = tmp_path / "slow_game_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    # the module's body takes a while: a second thread asks for it while the first is inside it
    (pkg / "narrate.py").write_text("import time\ntime.sleep(0.5)\n\ndef events():\n    return 'whole'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import slow_game_pkg

    got: dict[str, object] = {}
    first = threading.Thread(target=lambda: got.setdefault("first", package_module(slow_game_pkg, "narrate")))
    first.start()
    deadline = time.monotonic() + 5
    while "slow_game_pkg.narrate" not in sys.modules and time.monotonic() < deadline:
        time.sleep(0.005)
    assert "slow_game_pkg.narrate" in sys.modules  # the first import is under way
    second = package_module(slow_game_pkg, "narrate")
    assert hasattr(second, "events"), "got the module half-initialised"
    first.join()
    assert second.events() == "whole" and got["first"] is second
    assert package_module(slow_game_pkg, "draw") is None  # a module the package does not have
    for name in ("slow_game_pkg.narrate", "slow_game_pkg"):
        sys.modules.pop(name, None)
