"""The benchmark's published results: every report committed under training/benchmark/data/vN/results/ is
what `d2r benchmark report` makes, byte for byte, of the committed run folders and reference files that its
command names; and the documentation shows it."""

from __future__ import annotations

import json
import re
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


def _reading(page: str, folder: Path) -> str:
    """The words above the report's include, under the results heading: what the page says of the table."""
    include = f"<!-- d2r include {folder.relative_to(ROOT).as_posix()}/results.md"
    start = page.rindex("\n## ", 0, page.index(include))
    return " ".join(page[start:page.index(include)].split())


def test_the_reading_quotes_the_report_as_it_stands() -> None:
    page = (ROOT / "docs" / "benchmark.md").read_text(encoding="utf-8")
    folder = ROOT / "training/benchmark/data/v1/results/report"
    reading, table = _reading(page, folder), (folder / "results.md").read_text(encoding="utf-8")
    quoted = re.findall(r"-?\d\.\d{3}\b", reading)
    assert len(quoted) > 20
    assert [q for q in quoted if q not in table] == [], "the reading quotes figures the report does not hold"
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    iqm = {name: f"{a['iqm']['value']:.3f}" for name, a in results["aggregate"].items()}
    first = {name: f"{c['iqm'][0]:.3f}" for name, c in results["curves"]["entrants"].items()}
    better = {(i["x"], i["y"]): "{:.3f} ({:.3f} to {:.3f})".format(i["value"], *i["ci"]) for i in results["improvement"]}
    task = {name: {t: f"{v['mean']:.3f}" for t, v in tasks.items()} for name, tasks in results["per_task"].items()}
    for claim in [
        f"(IQM) of {iqm['sb3-ppo-imitation']} (SB3) and {iqm['rllib-ppo-imitation']} (RLlib); from scratch, "
        f"{iqm['sb3-ppo']} and {iqm['rllib-ppo']}",
        f"already score {first['sb3-ppo-imitation']} and {first['rllib-ppo-imitation']} at the first checkpoint",
        f"from scratch: P(RLlib > SB3) is {better['rllib-ppo', 'sb3-ppo']}",
        f"IQM {iqm['rllib-ppo-imitation']} against {iqm['sb3-ppo-imitation']}, and P(RLlib > SB3) is "
        f"{better['rllib-ppo-imitation', 'sb3-ppo-imitation']}",
        f"Rap Godz at 4 players: {task['sb3-ppo-imitation']['rap_godz-4p']} and "
        f"{task['rllib-ppo-imitation']['rap_godz-4p']} with the warm start, {task['sb3-ppo']['rap_godz-4p']} and "
        f"{task['rllib-ppo']['rap_godz-4p']} from scratch",
        f"4 players: {task['sb3-ppo-imitation']['extravaganza-4p-basic']} and "
        f"{task['rllib-ppo-imitation']['extravaganza-4p-basic']} with the warm start",
        f"IQM {iqm['openspiel-nfsp']} (NFSP) and {iqm['openspiel-dqn']} (DQN), against PPO's {iqm['sb3-ppo']} "
        f"and {iqm['rllib-ppo']} from scratch; P(SB3 PPO > NFSP) is {better['sb3-ppo', 'openspiel-nfsp']}",
        f"against three heuristics ({task['openspiel-nfsp']['drags_2_riches-4p']})",
        f"scatter widely ({task['openspiel-dqn']['drags_2_riches-4p']} on average",
        f"Filthy Rich at 2 players ({task['openspiel-dqn']['filthy_rich-2p']})",
    ]:
        assert claim in reading, claim

    def summed(*prefixes: str) -> dict[str, float]:  # the compute table's columns over some entrants
        rows = [c for name, c in results["compute"].items() if name.startswith(prefixes)]
        return {key: sum(c[key] for c in rows) for key in ("cells", "train_hours", "eval_hours", "cpu_hours")}

    ppo = summed("sb3-", "rllib-")
    for key, words in [("train_hours", "training took {:.1f} hours"), ("eval_hours", "evaluation {:.1f}"),
                       ("cpu_hours", "both together was {:.1f} hours")]:
        assert words.format(ppo[key]) in reading, (key, words)
    assert f"the PPO entrants' {ppo['cells']} cells" in reading
    openspiel = summed("openspiel-")
    assert (f"The OpenSpiel entrants' {openspiel['cells']} cells took {openspiel['train_hours']:.1f} hours of "
            f"training, {openspiel['eval_hours']:.1f} of evaluation and {openspiel['cpu_hours']:.1f} CPU "
            "hours") in reading
