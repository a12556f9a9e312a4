"""The browser table: `d2r serve` runs a local web app (Starlette and uvicorn, the `web` extra) where a
person plays a game against chosen opponents by clicking, and steps through recorded games.

Nothing here is imported by `import d2r_envs`; only `d2r serve` (d2r_envs.web.app) brings in Starlette.
The modules: errors (refusals as HTTP statuses), choices (what a table may be made of, and checking a
request for one), tables (the games in play, their bounds and expiry), folder (the replay folder),
viewer (a replay step by step), picture (the drawing of a state, with the places of moves), about (a game
told to a person: its guide, and the end), screenshots (the documentation's screenshots), app (the routes
and the server).
"""
