"""d2r-bench: fixed tasks, shipped deals and fixed anchors for scoring RL algorithms and their exported models.

| module | holds |
|---|---|
| `tasks.py` | the shipped benchmark versions (`data/v<N>/benchmark.json`): tasks, suites, pins, deal lists, anchors |
| `matches.py` | one entrant against a reference lineup on a task's deals (the tournament of training/evaluate.py) |
| `score.py` | the normalised score and its interval |
| `entrant.py` | an exported model and the tasks it can play |
| `scoring.py` | scoring models on a suite: `d2r benchmark eval` |
| `results.py` | the result file, its table and its validator: `d2r benchmark validate` |
| `ladder.py` | the frozen reference ladder: references rated once, an entrant rated against them |
| `algorithm.py` | a training-track entrant: an algorithm and its config (configs/benchmark/) |
| `cells.py` | the training track's run and cell files and their validator |
| `track.py` | the training track: `d2r benchmark run` |
| `report.py` | tables and figures with rliable from run folders: `d2r benchmark report` |
| `commands.py` | the `d2r benchmark` subcommands |
| `measure.py` | how the anchors and deal counts were measured: `python -m training.benchmark.measure` |
"""
