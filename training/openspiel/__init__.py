"""OpenSpiel's algorithms on our games (the `openspiel` extra, through d2r_envs.openspiel): NFSP and DQN
trained in self-play (`train`, `backend: openspiel`) and its information-set MCTS against ours (`ismcts`)."""
