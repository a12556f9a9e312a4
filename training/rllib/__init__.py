"""Training on Ray with RLlib's PPO (new API stack): `backend: rllib` in a training config.

One idea a module:

| module | what it does |
|---|---|
| `module.py` | `MaskedMLP`: the action-masking RLModule, laid out as the exported format (obs_scale, layers.i); its id |
| `envs.py` | the learner's env (`SingleAgentEnv`) and the AEC env (self-play) as RLlib envs, Dict observations |
| `train.py` | PPOConfig from the YAML, the iterations, the pool's snapshots, quick evaluations, checkpoints, stops |

Nothing in `d2r_envs/` imports this package, Ray or torch; `training.train` imports it only for a
config that names `backend: rllib`, and `training.export` (`export_rllib`) only for an RLlib policy.
"""
