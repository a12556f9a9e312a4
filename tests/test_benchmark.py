"""d2r-bench: the shipped tasks and anchors, the normalised score, scoring a model (`d2r benchmark eval`),
the result file and its validator (`d2r benchmark validate`)."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

pytest.importorskip("openskill")  # the tournament's ratings

import d2r_envs  # noqa: E402
from d2r_envs import cli  # noqa: E402
from training.benchmark import ladder, results, scoring, tasks as bench_tasks  # noqa: E402
from training.benchmark.entrant import load_entrant  # noqa: E402
from training.benchmark.matches import play_match  # noqa: E402
from training.benchmark.score import task_score, win_share_interval  # noqa: E402

BENCH = bench_tasks.load()
SUBSET = 10  # deals per task where a test plays the shipped deals


# The shipped data --------------------------------------------------------------------------------


def test_suites_cover_every_game_and_count() -> None:
    """The full suite: every count of every game, Extravaganza at basic and legendary, but for the tasks
    measured and left out (with why); the core suite: every game at 2 (Draco & Co 3) and 4 players."""
    full = {(t.game, t.num_players, t.options.get("level")) for t in BENCH.suite("full")}
    left_out = {(t.game, t.num_players, t.options.get("level")) for i, t in BENCH.tasks.items() if i in BENCH.excluded}
    assert not full & left_out and set(BENCH.excluded) <= set(BENCH.tasks)
    assert all(BENCH.excluded.values())
    for game in d2r_envs.names():
        spec = d2r_envs.make_game(game).spec
        levels = ["basic", "legendary"] if game == "extravaganza" else [None]
        for n in range(spec.min_players, spec.max_players + 1):
            for level in levels:
                assert (game, n, level) in full | left_out
    core = {(t.game, t.num_players) for t in BENCH.suite("core")}
    assert core == {(g, n) for g in d2r_envs.names() for n in ((3, 4) if g == "draco_and_co" else (2, 4))}
    assert set(BENCH.suites["core"]) <= set(BENCH.suites["full"])
    assert all(t.options.get("level") in (None, "basic") for t in BENCH.suite("core"))


def test_every_task_is_pinned_to_the_installed_game() -> None:
    """A game whose version, observation or actions change needs a new benchmark version: this fails until
    one is made (the old one's anchors were measured on another game)."""
    for task in BENCH.tasks.values():
        assert task.changes() == [], task.id


def test_anchors_and_their_per_deal_wins_agree() -> None:
    per_deal = json.loads((bench_tasks.path().parent / "anchors.json").read_text())
    assert sorted(per_deal) == sorted(BENCH.tasks)
    for task in BENCH.tasks.values():
        assert task.deal_list_sha256 == bench_tasks.deal_list_sha256(task.seed, task.deals)
        for name in ("random", "heuristic"):
            digits = per_deal[task.id][name]
            anchor = task.anchors[name]
            assert len(digits) == task.deals and anchor.seat_games == task.deals * task.num_players, task.id
            assert sum(map(int, digits)) == anchor.wins, (task.id, name)
        w_random, w_heuristic = task.score_anchors()
        if task.id not in BENCH.excluded:
            assert 0 <= w_random < w_heuristic <= 1, task.id


def test_random_scores_0_and_the_heuristic_1_on_every_core_task() -> None:
    """The first deals of each core task replay the shipped anchors' games exactly, and the scores of
    random and of the heuristic hold 0 and 1 in their intervals."""
    per_deal = json.loads((bench_tasks.path().parent / "anchors.json").read_text())
    for task in BENCH.suite("core"):
        w_random, w_heuristic = task.score_anchors()
        for entrant, target in (("random", 0.0), ("heuristic", 1.0)):
            wins = play_match(task.game, task.num_players, task.options, task.seed, SUBSET, entrant, "heuristic")
            assert "".join(map(str, wins)) == per_deal[task.id][entrant][:SUBSET], (task.id, entrant)
            low, high = task_score(wins, task.num_players, w_random, w_heuristic)["score_ci"]
            assert low <= target <= high, (task.id, entrant, low, high)


def test_a_task_whose_game_changed_is_refused(monkeypatch, tmp_path, capsys) -> None:
    task = BENCH.tasks["rap_godz-2p"]
    stale = dataclasses.replace(task, game_version=task.game_version + 1, obs_fingerprint="0" * 16)
    changed = dataclasses.replace(BENCH, tasks={**BENCH.tasks, task.id: stale})
    monkeypatch.setattr(scoring, "load", lambda: changed)
    with pytest.raises(bench_tasks.StaleTask) as err:
        scoring.score_models(["rap_godz/ppo-v1"], "core", deals=2)
    message = str(err.value)
    assert f"game version {task.game_version + 1} -> installed {task.game_version}" in message
    assert f"observation fingerprint {'0' * 16} -> installed {task.obs_fingerprint}" in message
    assert "cannot score it" in message

    from training.benchmark import commands

    monkeypatch.setattr(commands, "load", lambda: changed)
    assert cli.main(["benchmark", "list"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| rap_godz-2p "))
    assert "refused: game version" in row


# The score ---------------------------------------------------------------------------------------


def test_score_maps_random_to_0_and_the_heuristic_to_1() -> None:
    wins = [1, 0, 2, 1] * 5  # 4 players: w = 20 / 80
    figures = task_score(wins, 4, 0.05, 0.25)
    assert figures["win_share"] == 0.25 and figures["score"] == pytest.approx(1.0)
    low, high = figures["win_share_ci"]
    assert figures["score_ci"] == pytest.approx([(low - 0.05) / 0.2, (high - 0.05) / 0.2])
    assert task_score([0] * 20, 4, 0.05, 0.25)["score"] == pytest.approx(-0.25)


def test_an_interval_is_never_narrower_than_wilson() -> None:
    """Deals that all came out alike have a t interval of width 0; the seat-games still leave uncertainty."""
    low, high = win_share_interval([1] * 10, 4)
    assert low < 0.25 < high and high - low > 0.2
    spread = [0, 4] * 10  # all or nothing each deal: wider than Wilson
    low_t, high_t = win_share_interval(spread, 4)
    assert high_t - low_t > 0.4


# Entrants ----------------------------------------------------------------------------------------


def test_a_task_a_model_cannot_play_is_reported_with_why() -> None:
    v1 = load_entrant("draco_and_co/ppo-v1")  # trained at 4 players only
    plan = scoring.assign([v1], BENCH.suite("core"))
    assert plan["draco_and_co-4p"] == (v1, None)
    assert plan["draco_and_co-3p"] == (None, "draco_and_co/ppo-v1: trained for 4 players, not 3")
    assert plan["rap_godz-2p"] == (None, "no model for rap_godz given")
    extravaganza = load_entrant("extravaganza/ppo-v1")
    assert extravaganza.cannot_play(BENCH.tasks["extravaganza-2p-legendary"]) is None
    basic_only = dataclasses.replace(extravaganza, variants=[{"level": "basic"}])
    assert basic_only.cannot_play(BENCH.tasks["extravaganza-2p-legendary"]) == "trained for level basic, not legendary"
    with pytest.raises(ValueError, match="can both play it; give one model per task"):
        scoring.assign([load_entrant("draco_and_co/ppo-v2"), v1], BENCH.suite("core"))


def test_a_search_guided_by_a_model_is_an_entrant() -> None:
    entrant = load_entrant("search:rap_godz/ppo-v1:4:heuristic")
    guide = load_entrant("rap_godz/ppo-v1")
    assert entrant.name == "search:rap_godz/ppo-v1:4:heuristic" and entrant.game == "rap_godz"
    assert entrant.agent == f"search:{guide.folder}:4:heuristic" and guide.agent == str(guide.folder)
    assert entrant.record() == {**guide.record(), "model": entrant.name,
                                "search": {"simulations": 4, "playout": "heuristic", "temperature": 1.0,
                                           "exploration": 1.5}}
    tuned = load_entrant("search:rap_godz/ppo-v1:4:temperature=2")
    assert tuned.name == "search:rap_godz/ppo-v1:4:temperature=2" and tuned.record()["search"]["temperature"] == 2.0
    result = scoring.score_models(["search:rap_godz/ppo-v1:2"], "core", deals=2)
    played = [entry for entry in result["tasks"].values() if entry.get("entrant")]
    assert {e["entrant"] for e in played} == {"search:rap_godz/ppo-v1:2"} and len(played) == 2
    for bad, message in [("search:shipped:10", "name the model"), ("search:rap_godz/ppo-v1:x", "simulations a whole number"),
                         ("search:rap_godz/nope:10", "model rap_godz/nope")]:
        with pytest.raises(ValueError, match=message):
            load_entrant(bad)


# Scoring and the result file ---------------------------------------------------------------------


def test_the_same_result_on_ray(ray_local) -> None:
    here = scoring.score_models(["rap_godz/ppo-v1"], "core", deals=2, workers=1)
    on_ray = scoring.score_models(["rap_godz/ppo-v1"], "core", deals=2, workers=2, ray_address="")
    assert results.dumps(results.deterministic_part(here)) == results.dumps(results.deterministic_part(on_ray))
    assert on_ray["run"]["ray"] == ""


def _fake_ladder(monkeypatch) -> dict:
    """A shipped ladder for Rap Godz's core tasks, as `python -m training.benchmark.ladder --write` makes one."""
    refs = ["random", "heuristic", "heuristic:tuned", "rap_godz/ppo-v1", "mcts:100"]
    deals = [6, 4]
    monkeypatch.setattr(ladder, "references", lambda t: refs)
    shipped: dict = {"deals": deals, "tasks": {}}
    for task_id in ("rap_godz-2p", "rap_godz-4p"):
        n = BENCH.tasks[task_id].num_players
        matches = [{"focal": f, "lineup": l, "num_players": n, "per_deal_wins": "".join(
            str((len(f) * 3 + len(l) + d) % (n + 1)) for d in range(deals[ladder._cost(f)]))}
            for f, l in ladder.pairs(refs)]
        shipped["tasks"][task_id] = ladder.ladder_of(BENCH.tasks[task_id], matches)
    monkeypatch.setattr(ladder, "load_ladder", lambda: shipped)
    return shipped


def test_an_entrant_is_rated_on_the_shipped_ladder(monkeypatch) -> None:
    shipped = _fake_ladder(monkeypatch)
    monkeypatch.setattr(scoring, "play_match", _fake_match)
    result = scoring.score_models(["rap_godz/ppo-v1"], "core", deals=None, against_ladder=True)
    entry = result["tasks"]["rap_godz-2p"]
    refs = shipped["tasks"]["rap_godz-2p"]["references"]
    assert sorted(entry["vs"]) == sorted(refs)
    assert len(entry["vs"]["heuristic:tuned"]["per_deal_wins"]) == 6 and len(entry["vs"]["mcts:100"]["per_deal_wins"]) == 4
    assert entry["ladder"]["against"] == sorted(refs) and entry["ladder"]["elo_ci"][0] <= entry["ladder"]["elo"]
    assert result["tasks"]["rap_godz-4p"]["ladder"]["against"] == sorted(refs)
    assert results.validate(result) == []
    table = results.to_markdown(result)
    assert f"- rap_godz-2p: {entry['ladder']['elo']:.0f} Elo" in table and "mcts:100 " in table
    edited = copy.deepcopy(result)
    edited["tasks"]["rap_godz-2p"]["ladder"]["elo"] += 50
    assert any("the rating was edited" in p for p in results.validate(edited))
    stray = copy.deepcopy(result)
    stray["tasks"]["rap_godz-2p"]["vs"]["mcts:5"] = stray["tasks"]["rap_godz-2p"]["vs"]["mcts:100"]
    assert any("only the references of the task's shipped ladder" in p for p in results.validate(stray))


def test_a_ladder_is_asked_for_where_none_is_shipped(monkeypatch) -> None:
    monkeypatch.setattr(scoring, "play_match", _fake_match)
    monkeypatch.setattr(ladder, "load_ladder", lambda: {"deals": None, "tasks": {}})
    with pytest.raises(ValueError, match="task rap_godz-2p: d2r-bench v1 ships no reference ladder for it yet"):
        scoring.score_models(["rap_godz/ppo-v1"], "core", against_ladder=True)




def test_the_same_result_with_1_and_2_workers() -> None:
    one = scoring.score_models(["rap_godz/ppo-v1"], "core", deals=6, workers=1)
    two = scoring.score_models(["rap_godz/ppo-v1"], "core", deals=6, workers=2)
    assert results.dumps(results.deterministic_part(one)) == results.dumps(results.deterministic_part(two))
    assert one["run"]["workers"] == 1 and two["run"]["workers"] == 2
    scored = [t for t, e in one["tasks"].items() if e["status"] == "scored"]
    assert scored == ["rap_godz-2p", "rap_godz-4p"]
    not_played = one["tasks"]["filthy_rich-2p"]
    assert (not_played["status"], not_played["reason"]) == ("not played", "no model for filthy_rich given")


def _fake_match(game, num_players, options, seed, deals, entrant, reference, workers=1, progress=False, ray_address=None):
    """Per-deal wins without playing: the validator's tests need a whole-suite result in no time."""
    return [(7 * d + len(reference) + seed) % (num_players + 1) for d in range(deals)]


@pytest.fixture
def full_result(monkeypatch) -> dict:
    monkeypatch.setattr(scoring, "play_match", _fake_match)
    result = scoring.score_models(["rap_godz/ppo-v1", "filthy_rich/ppo-v2"], "core")
    assert results.validate(result) == []
    return result


def test_validator_refuses_another_benchmark_version(full_result) -> None:
    bad = {**full_result, "version": 2}
    assert results.validate(bad) == ["a result for d2r-bench v2; this is d2r-bench v1: it is validated by the "
                                     "version it was made for"]


def test_validator_refuses_a_missing_task(full_result) -> None:
    bad = copy.deepcopy(full_result)
    del bad["tasks"]["filthy_rich-4p"]
    assert results.validate(bad) == ["task filthy_rich-4p of suite core is missing"]


def test_validator_refuses_a_deal_list_that_differs(full_result) -> None:
    bad = copy.deepcopy(full_result)
    bad["tasks"]["rap_godz-2p"]["seed"] += 1
    [problem] = results.validate(bad)
    assert problem.startswith("task rap_godz-2p: the deal list differs from d2r-bench v1's")


def test_validator_refuses_a_result_on_a_deal_subset(tmp_path, capsys) -> None:
    out = tmp_path / "quick.json"
    assert cli.main(["benchmark", "eval", "rap_godz/ppo-v1", "--deals", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Not a benchmark result: the first 3 deals of each task only" in printed
    assert "| rap_godz-2p | rap_godz/ppo-v1 |" in printed and "not played: no model for draco_and_co given" in printed
    assert cli.main(["benchmark", "validate", str(out)]) == 1
    report = capsys.readouterr().out
    assert "played on the first 3 deals of each task (--deals)" in report
    assert "task rap_godz-4p: the deal list differs from d2r-bench v1's: played 3 deals from seed" in report


def test_validator_refuses_an_edited_score(full_result) -> None:
    bad = copy.deepcopy(full_result)
    bad["tasks"]["filthy_rich-2p"]["score"] += 0.25
    [problem] = results.validate(bad)
    assert problem.startswith("task filthy_rich-2p: score ") and problem.endswith("the score was edited")
    bad = copy.deepcopy(full_result)
    bad["tasks"]["rap_godz-4p"]["vs"]["random"]["win_share"] = 0.9
    [problem] = results.validate(bad)
    assert problem.startswith("task rap_godz-4p: vs random: win_share 0.9 is not what its per-deal wins give")


def test_validator_refuses_edited_anchors_pins_and_status(full_result) -> None:
    bad = copy.deepcopy(full_result)
    bad["tasks"]["rap_godz-2p"]["anchors"]["random"]["wins"] += 1
    assert results.validate(bad)[0].startswith("task rap_godz-2p: the anchors ")
    bad = copy.deepcopy(full_result)
    bad["tasks"]["rap_godz-2p"]["game_version"] = 99
    assert results.validate(bad) == [f"task rap_godz-2p: game version 99; d2r-bench v1 has "
                                     f"{BENCH.tasks['rap_godz-2p'].game_version}"]
    bad = copy.deepcopy(full_result)
    bad["tasks"]["draco_and_co-3p"]["status"] = "won"
    assert results.validate(bad) == ["task draco_and_co-3p: status 'won'; allowed: scored, not played"]
    bad = copy.deepcopy(full_result)  # a poor score hidden as a task not played
    bad["tasks"]["rap_godz-4p"] = {**{k: bad["tasks"]["rap_godz-4p"][k] for k in ("game", "num_players", "options",
                                                                                 *bench_tasks.PINS)},
                                   "status": "not played", "reason": "too busy"}
    assert results.validate(bad) == ["task rap_godz-4p: not played, but the entrant rap_godz/ppo-v1 can play it "
                                     "(as its record says)"]
    bad = copy.deepcopy(full_result)
    bad["tasks"]["draco_and_co-9p"] = {}
    assert results.validate(bad) == ["task(s) draco_and_co-9p not in suite core"]


def test_the_result_file_round_trips_and_validates(full_result, tmp_path, capsys) -> None:
    file = results.write(full_result, tmp_path / "r.json")
    assert json.loads(file.read_text()) == full_result
    assert cli.main(["benchmark", "validate", str(file)]) == 0
    assert "a valid d2r-bench v1 result" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert cli.main(["benchmark", "validate", str(tmp_path / "bad.json"), str(file)]) == 1
    out = capsys.readouterr().out
    assert "a JSON list, expected an object" in out and f"{file}: a valid" in out


# The command line --------------------------------------------------------------------------------


def test_benchmark_list_prints_the_suites_and_anchors(capsys) -> None:
    assert cli.main(["benchmark", "list"]) == 0
    out = capsys.readouterr().out
    assert "- suite core: 10 tasks" in out and "- suite full: 20 tasks" in out
    assert "- in no suite: drags_2_riches-5p, as random play wins more often" in out
    task = BENCH.tasks["extravaganza-4p-legendary"]
    row = next(line for line in out.splitlines() if line.startswith("| extravaganza-4p-legendary "))
    w_random, w_heuristic = task.score_anchors()
    assert f"| {w_random:.4f} | {w_heuristic:.4f} |" in row and "[level=legendary]" in row


def test_benchmark_list_shows_the_shipped_ladders(monkeypatch, capsys) -> None:
    _fake_ladder(monkeypatch)
    assert cli.main(["benchmark", "list"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| rap_godz-2p "))
    assert "| 5 references |" in row
    ratings = next(line for line in out.splitlines() if line.startswith("- rap_godz-2p: "))
    assert "heuristic 1000 (1000 to 1000)" in ratings and "mcts:100 " in ratings
    assert "| - |" in next(line for line in out.splitlines() if line.startswith("| draco_and_co-3p "))


def test_benchmark_eval_refuses_bad_input_in_one_line(tmp_path, capsys) -> None:
    existing = tmp_path / "r.json"
    existing.write_text("{}")
    assert cli.main(["benchmark", "eval", "rap_godz/ppo-v1", "--out", str(existing)]) == 2
    assert "the file exists" in capsys.readouterr().err
    assert existing.read_text() == "{}"
    assert cli.main(["benchmark", "eval", "rap_godz/nope", "--deals", "2", "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("d2r: error: model rap_godz/nope:") and len(err.strip().splitlines()) == 1
    assert cli.main(["benchmark", "eval", "rap_godz/ppo-v1", "--suite", "huge", "--out", str(tmp_path / "y.json")]) == 2
    assert "no suite 'huge' in d2r-bench v1; allowed: core, full" in capsys.readouterr().err
    assert cli.main(["benchmark", "eval", "rap_godz/ppo-v1", "--deals", "1", "--out", str(tmp_path / "z.json")]) == 2
    assert "--deals must be at least 2" in capsys.readouterr().err
    assert not any(tmp_path.glob("[xyz].json"))


def test_the_benchmark_loads_no_training_library() -> None:
    """`d2r benchmark` needs the tournament's openskill, never torch, SB3, Ray or YAML."""
    import subprocess
    import sys

    code = ("import sys\nimport training.benchmark.commands, training.benchmark.scoring, training.benchmark.measure\n"
            "print(sorted(m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'ray', 'yaml') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
