"""A tournament's result for people: the markdown table, the ratings plot, the learning curve of a
training log, and the files `d2r eval` writes (result.json, result.md, ratings.png, learning_curve.png)."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def to_markdown(result: dict[str, Any]) -> str:
    n = result["num_players"]
    games = result["games"]
    lines = [
        f"# Evaluation: {result['game']} (version {result['game_version']}), {n} players",
        "",
    ]
    if result.get("stopped"):
        lines += [f"**Partial: {result['stopped']}.** The figures below are for those games only.", ""]
    lines += [
        f"Lineup at rotation 0, seat by seat: {', '.join(result['lineup'])}. "
        f"{result['deals']} deals x {result['rotations']} rotations = {games} games, seed {result['seed']}.",
        "",
        "| agent | seats | wins | win share (95% CI) | by chance | mean return (95% CI) "
        "| rating mu ± 2 sigma | ordinal | ms/move |",
        "|---|---:|---:|---|---:|---|---|---:|---:|",
    ]
    for a, e in result["agents"].items():
        lo, hi = e["win_share_ci"]
        ret_ci = e["mean_return_ci"]
        ret = _num(e["mean_return"]) + (f" ({ret_ci[0]:.3f} to {ret_ci[1]:.3f})" if ret_ci else "")
        r = e["rating"]
        ms = (e.get("timing") or {}).get("ms_per_move")
        lines.append(
            f"| {a.replace('|', '/')} | {e['seats']} | {e['wins']} | {_pct(e['win_share'])} "
            f"({_pct(lo)} to {_pct(hi)}) | {_pct(e['chance_win_share'])} | {ret} "
            f"| {r['mu']:.2f} ± {2 * r['sigma']:.2f} | {r['ordinal']:.2f} | {'n/a' if ms is None else f'{ms:.3g}'} |"
        )
    shares = ", ".join(f"{k} {_pct(v)}" for k, v in result["outcome_shares"].items())
    lines += [
        "",
        f"- games won (a shared win split): {shares}",
        f"- no-winner games: {result['no_winner_games']} of {games}, of which cut off at "
        f"{result['max_decisions']} decisions: {result['truncated_games']}",
        "- win share by seat (any agent): "
        + ", ".join(f"{s} {_pct(w)}" for s, w in enumerate(result["seat_win_share"])),
        f"- mean game length: {_num(result['mean_length'], 1)} decisions",
        f"- rating: {result['rating_method']}",
    ]
    return "\n".join(lines)


def _short(name: str, width: int = 22) -> str:
    """A tick label: a model path shortened to its last two parts, then to `width` characters."""
    parts = Path(name).parts
    if len(parts) > 2:
        name = "/".join(parts[-2:])
    return name if len(name) <= width else "…" + name[-(width - 1):]


def plot_ratings(result: dict[str, Any], path: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entries = list(result["agents"].values())
    names = [_short(a) for a in result["agents"]]
    x = np.arange(len(names))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(max(7.0, 2.2 * len(names) + 3), 4.2))
    mus = [e["rating"]["mu"] for e in entries]
    ax1.bar(x, mus, yerr=[2 * e["rating"]["sigma"] for e in entries], capsize=6, color="tab:blue")
    ax1.set_xticks(x, names, rotation=20, ha="right")
    ax1.set_ylabel("openskill mu ± 2 sigma")
    ax1.set_title("Rating (PlackettLuce)")
    shares = [e["win_share"] or 0.0 for e in entries]
    err = [[max(0.0, s - e["win_share_ci"][0]) for s, e in zip(shares, entries)],
           [max(0.0, e["win_share_ci"][1] - s) for s, e in zip(shares, entries)]]
    ax2.bar(x, shares, yerr=err, capsize=6, color="tab:green")
    ax2.axhline(1 / result["num_players"], color="grey", linestyle="--", label="1/n (chance)")
    ax2.set_xticks(x, names, rotation=20, ha="right")
    ax2.set_ylabel("win share per seat (95% Wilson)")
    ax2.set_title("Win share")
    ax2.legend()
    fig.suptitle(f"{result['game']}, {result['num_players']} players, {result['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


LEARNING_COLUMNS = ["rollout/ep_rew_mean", "eval/win_share", "eval/mean_return", "eval/mean_reward", "rollout/ep_len_mean"]
TIMESTEPS = "time/total_timesteps"


def find_progress_csv(log: str | Path) -> Path:
    """SB3's progress.csv in a training log directory (or the file itself)."""
    log = Path(log)
    if log.is_file():
        return log
    if not log.is_dir():
        raise ValueError(f"training log {str(log)!r}: no such directory")
    if (log / "progress.csv").is_file():
        return log / "progress.csv"
    found = sorted(log.rglob("progress.csv"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise ValueError(f"training log {str(log)!r}: no progress.csv in it (SB3's CSV logger writes one)")
    return found[-1]  # the newest run


def read_progress(path: str | Path) -> dict[str, list[tuple[float, float]]]:
    """{column: [(timesteps, value), ...]} for the plotted columns present, empty cells skipped."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or TIMESTEPS not in rows[0]:
        raise ValueError(f"{path}: no {TIMESTEPS!r} column")
    columns = [c for c in LEARNING_COLUMNS if c in rows[0]]
    columns += sorted(c for c in rows[0] if c.startswith("eval/") and c not in columns)
    series: dict[str, list[tuple[float, float]]] = {}
    for c in columns:
        points = []
        for row in rows:
            try:
                x, y = float(row[TIMESTEPS]), float(row[c])
            except (TypeError, ValueError):
                continue
            if math.isfinite(x) and math.isfinite(y):
                points.append((x, y))
        if points:
            series[c] = points
    return series


def plot_learning_curve(log: str | Path, path: str | Path) -> list[str]:
    """Plot the training metrics against timesteps; returns the columns plotted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    csv_path = find_progress_csv(log)
    series = read_progress(csv_path)
    if not series:
        raise ValueError(f"{csv_path}: none of {', '.join(LEARNING_COLUMNS)} has a value")
    fig, axes = plt.subplots(len(series), 1, figsize=(7, 2.6 * len(series) + 0.6), sharex=True, squeeze=False)
    for ax, (column, points) in zip(axes[:, 0], series.items()):
        xs, ys = zip(*points)
        ax.plot(xs, ys, marker="." if len(xs) < 50 else None)
        ax.set_ylabel(column)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("timesteps")
    fig.suptitle(f"Learning curve: {csv_path}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return list(series)


def write_outputs(result: dict[str, Any], out_dir: str | Path, training_log: str | Path | None = None) -> dict[str, Path]:
    """result.json, result.md, ratings.png (and learning_curve.png) in out_dir; returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "result.json", "md": out / "result.md", "ratings": out / "ratings.png"}
    if training_log is not None:
        paths["learning_curve"] = out / "learning_curve.png"
        result["training_log"] = str(find_progress_csv(training_log))
        result["learning_curve_columns"] = plot_learning_curve(training_log, paths["learning_curve"])
    paths["json"].write_text(json.dumps(result, indent=2, allow_nan=False) + "\n")
    paths["md"].write_text(to_markdown(result) + "\n")
    plot_ratings(result, paths["ratings"])
    return paths
