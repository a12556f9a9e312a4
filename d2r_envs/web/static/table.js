// One table: your legal moves as buttons, the opponents' moves one by one, the log as your seat sees it.
"use strict";

const tableId = location.pathname.split("/").pop();
let view = null;
let since = 0;
let timer = null;

function pace() {
  const stored = localStorage.getItem("d2r.delay");
  return stored === null ? 700 : Number(stored);
}

function appendLog(lines, fresh) {
  const log = document.getElementById("log");
  if (fresh) log.replaceChildren();
  for (const li of log.querySelectorAll("li.new")) li.classList.remove("new");
  for (const line of lines) log.append(el("li", { class: "new", text: line }));
  log.scrollTop = log.scrollHeight;
}

function render(v, fresh) {
  view = v;
  since = v.log_next;
  document.title = "d2r: " + v.game;
  document.getElementById("title").textContent = v.game;
  document.getElementById("seats").textContent = v.seats.map((s) => seatName(s.seat) + ": " + s.agent).join(" · ")
    + " · seed " + v.seed;
  document.getElementById("picture").innerHTML = v.picture;  // HTML made by the server (escaped text or SVG)
  appendLog(v.log, fresh);
  const status = document.getElementById("status");
  const moves = document.getElementById("moves");
  document.body.dataset.status = v.status;
  document.body.dataset.step = v.step;
  if (v.status === "your move") {
    status.textContent = "Your move (" + seatName(v.seat) + "): " + v.decision;
    moves.replaceChildren(...v.moves.map((m) => {
      const b = el("button", { type: "button", "data-action": m.action }, el("span", { class: "name", text: m.name }));
      if (m.explain) b.append(el("span", { class: "explain", text: m.explain }));
      b.addEventListener("click", () => play(m.action));
      return b;
    }));
  } else {
    moves.replaceChildren();
  }
  document.getElementById("moves-panel").hidden = v.status !== "your move";
  if (v.status === "waiting") {
    const agent = v.seats[v.to_move].agent;
    status.textContent = seatName(v.to_move) + " (" + agent + ") to move: " + v.decision;
    clearTimeout(timer);
    timer = setTimeout(advance, pace());
  }
  if (v.status === "over") {
    status.textContent = "The game is over.";
    document.getElementById("result-text").textContent = v.result.text;
    const replay = document.getElementById("replay");
    if (v.result.replay_url) {
      replay.replaceChildren("Saved as ", el("a", { id: "replay-link", href: v.result.replay_url, text: v.result.replay }),
        ": step through it.");
    } else {
      replay.textContent = v.result.replay_error || "";
    }
    document.getElementById("result").hidden = false;
  }
}

async function reload() {
  const r = await api("GET", "/api/tables/" + tableId + "?since=0");
  if (!r.ok) return showError(r.data.error);
  render(r.data, true);
}

async function answer(r) {
  if (r.ok) {
    showError("");
    return render(r.data, false);
  }
  showError(r.data.error);
  if (r.status === 409) setTimeout(reload, 500);  // stale or busy: look at the table again
}

async function play(action) {
  for (const b of document.querySelectorAll("#moves button")) b.disabled = true;
  document.getElementById("status").textContent = "…";
  await answer(await api("POST", "/api/tables/" + tableId + "/move?since=" + since, { step: view.step, action }));
}

async function advance() {
  await answer(await api("POST", "/api/tables/" + tableId + "/next?since=" + since, { step: view.step }));
}

const delay = document.getElementById("delay");
delay.value = String(pace());
if (delay.value === "") delay.value = "700";
delay.addEventListener("change", () => localStorage.setItem("d2r.delay", delay.value));
reload();
