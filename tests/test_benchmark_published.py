"""The benchmark's published results: every report committed under training/benchmark/data/vN/results/ is
what `d2r benchmark report` makes, byte for byte, of the committed run folders and reference files that its
command names; and the documentation shows it."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

pytest.importorskip("rliable")

from training.benchmark import report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REPORTS = sorted(p.parent for p in ROOT.glob("training/benchmark/data/v*/results/*/results.json"))


def _command(folder: Path) -> str:
    return json.loads((folder / "results.json").read_text(encoding="utf-8"))["made"]["command"]


def _inputs(folder: Path) -> tuple[list[str], str, list[str]]:
    """(run folders, out folder, reference files) of the command that made the report, as it gave them."""
    words = shlex.split(_command(folder))
    assert words[:3] == ["d2r", "benchmark", "report"], words
    runs, out, refs, rest = [], None, [], words[3:]
    while rest:
        word = rest.pop(0)
        if word == "--out":
            out = rest.pop(0)
        elif word == "--reference":
            refs.append(rest.pop(0))
        else:
            runs.append(word)
    assert out is not None
    return runs, out, refs


def test_the_first_results_table_is_published() -> None:
    assert [f.relative_to(ROOT).as_posix() for f in REPORTS] == ["training/benchmark/data/v1/results/report"]


@pytest.mark.parametrize("folder", REPORTS, ids=lambda f: f.relative_to(ROOT).as_posix())
def test_a_published_report_is_what_its_command_makes_of_the_committed_runs(folder: Path, tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    runs, out, refs = _inputs(folder)
    assert (ROOT / out).resolve() == folder, f"{folder} was written by a command for {out}"
    for path in [*runs, *refs]:  # the inputs laid out at the same relative paths, so the command is the same
        assert not Path(path).is_absolute(), f"{path}: the report's command names an input outside the repository"
        source, copy = ROOT / path, tmp_path / path
        copy.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copyfile)(source, copy)
    monkeypatch.chdir(tmp_path)
    report.build_report([Path(r) for r in runs], Path(out), [Path(r) for r in refs])
    for name in report.FILES:
        assert (tmp_path / out / name).read_bytes() == (folder / name).read_bytes(), (
            f"{folder.relative_to(ROOT) / name} is not what its command makes of the committed runs; "
            f"make it again from the repository root: {_command(folder)}")


def test_the_benchmark_page_shows_the_published_table_and_its_figures() -> None:
    page = (ROOT / "docs" / "benchmark.md").read_text(encoding="utf-8")
    for folder in REPORTS:
        assert f"<!-- d2r include {folder.relative_to(ROOT).as_posix()}/results.md" in page
