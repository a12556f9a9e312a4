// The new-game form, built from /api/games, and the list of replays.
"use strict";

let games = [];

function current() {
  return games.find((g) => g.name === document.getElementById("game").value);
}

function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map(([value, label]) => el("option", { value, text: label })));
  if (chosen !== undefined) select.value = String(chosen);
}

function drawPlayers() {
  const g = current();
  document.getElementById("objective").textContent = g.objective;
  const counts = [];
  for (let n = g.min_players; n <= g.max_players; n++) counts.push([n, String(n)]);
  fillSelect(document.getElementById("players"), counts, g.default_players);
  drawLevels();
  drawSeats();
  drawOptions();
}

function drawSeats() {
  const n = Number(document.getElementById("players").value);
  const seat = document.getElementById("seat");
  const was = Math.min(Number(seat.value || 0), n - 1);
  fillSelect(seat, [...Array(n).keys()].map((q) => [q, seatName(q)]), was);
  drawOpponents();
}

function drawOpponents() {
  const g = current();
  const n = Number(document.getElementById("players").value);
  const me = Number(document.getElementById("seat").value);
  const box = document.getElementById("opponents");
  box.replaceChildren();
  for (let q = 0; q < n; q++) {
    if (q === me) continue;
    const agent = el("select", { id: "agent-" + q, "data-seat": q });
    fillSelect(agent, g.agents.map((a) => [a.id, a.label]));
    const budget = el("input", { id: "budget-" + q, type: "number", min: g.mcts.min, max: g.mcts.max, step: 1, value: g.mcts.default, title: "MCTS simulations a move" });
    const budgetLabel = el("span", { class: "doc", text: "simulations a move" });
    const toggle = () => { budget.hidden = budgetLabel.hidden = agent.value !== "mcts"; };
    agent.addEventListener("change", toggle);
    toggle();
    box.append(el("div", { class: "row" }, el("label", { class: "title", for: "agent-" + q, text: seatName(q) }), agent, budget, budgetLabel));
  }
}

function drawLevels() {
  const g = current();
  const level = document.getElementById("level");
  const was = level.value;
  fillSelect(level, g.levels.map((x) => [x.name, x.name]));
  if (g.levels.some((x) => x.name === was)) level.value = was;
  const byLevel = document.getElementById("mode-level");
  byLevel.disabled = level.disabled = !g.levels.length;
  if (!g.levels.length) document.getElementById("mode-expert").checked = true;
  drawMode();
}

function drawMode() {
  const g = current();
  const expert = document.getElementById("mode-expert").checked;
  document.getElementById("opponents").hidden = !expert;
  document.getElementById("level").disabled = expert || !g.levels.length;
  const chosen = g.levels.find((x) => x.name === document.getElementById("level").value);
  document.getElementById("level-about").textContent = expert ? "" : chosen ? chosen.name + ": " + chosen.about : "";
}

function drawOptions() {
  const box = document.getElementById("options");
  box.replaceChildren();
  for (const o of current().options) {
    const id = "opt-" + o.name;
    let input;
    if (o.kind === "bool") {
      input = el("input", { id, type: "checkbox" });
      input.checked = o.default;
    } else if (o.choices) {
      input = el("select", { id });
      fillSelect(input, o.choices.map((c) => [JSON.stringify(c), String(c)]), JSON.stringify(o.default));
    } else if (o.kind === "int") {
      input = el("input", { id, type: "number", step: 1, value: o.default });
      if (o.min !== undefined) { input.min = o.min; input.max = o.max; }
    } else {
      input = el("input", { id, type: "text", value: o.default, size: 40 });
    }
    box.append(el("div", { class: "row" }, el("label", { class: "title", for: id, text: o.name }), input,
      el("span", { class: "doc", text: o.doc + " (allowed: " + o.allowed + ")" })));
  }
}

function readOptions() {
  const options = {};
  for (const o of current().options) {
    const input = document.getElementById("opt-" + o.name);
    let value;
    if (o.kind === "bool") value = input.checked;
    else if (o.choices) value = JSON.parse(input.value);
    else if (o.kind === "int") value = input.value === "" ? o.default : Number(input.value);
    else value = input.value;
    if (value !== o.default) options[o.name] = value;
  }
  return options;
}

async function start(event) {
  event.preventDefault();
  showError("");
  const n = Number(document.getElementById("players").value);
  const me = Number(document.getElementById("seat").value);
  const seedText = document.getElementById("seed").value.trim();
  const body = { game: current().name, players: n, seat: me, options: readOptions(),
                 seed: seedText === "" ? null : Number(seedText) };
  if (document.getElementById("mode-expert").checked) {
    body.opponents = [];
    for (let q = 0; q < n; q++) {
      if (q === me) continue;
      const agent = document.getElementById("agent-" + q).value;
      body.opponents.push(agent === "mcts" ? "mcts:" + document.getElementById("budget-" + q).value : agent);
    }
  } else {
    body.level = document.getElementById("level").value;
  }
  const button = document.getElementById("start");
  button.disabled = true;
  const r = await api("POST", "/api/tables", body);
  button.disabled = false;
  if (!r.ok) return showError(r.data.error);
  location.href = r.data.url;
}

async function listReplays() {
  const r = await api("GET", "/api/replays");
  const box = document.getElementById("replays");
  if (!r.ok) return box.replaceChildren(el("li", { text: r.data.error }));
  if (!r.data.replays.length) return box.replaceChildren(el("li", { class: "muted", text: "none yet" }));
  box.replaceChildren(...r.data.replays.map((f) =>
    el("li", {}, el("a", { href: "/replay?name=" + encodeURIComponent(f.name), text: f.name }),
       el("span", { class: "muted", text: " " + new Date(f.modified * 1000).toLocaleString() }))));
}

async function init() {
  const r = await api("GET", "/api/games");
  if (!r.ok) return showError(r.data.error);
  games = r.data.games;
  fillSelect(document.getElementById("game"), games.map((g) => [g.name, g.title]));
  document.getElementById("how").addEventListener("click", () => showGuide(current()));
  document.getElementById("game").addEventListener("change", drawPlayers);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("seat").addEventListener("change", drawOpponents);
  document.getElementById("level").addEventListener("change", drawMode);
  for (const mode of document.querySelectorAll("input[name=mode]")) mode.addEventListener("change", drawMode);
  document.getElementById("new").addEventListener("submit", start);
  drawPlayers();
  document.body.dataset.ready = "1";
  listReplays();
}

init();
