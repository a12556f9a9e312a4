// One table: your legal moves as buttons, the opponents' moves one by one, the log as your seat sees it.
// A 409 (the table busy with another request, or a request from an older position, such as another tab's)
// is answered by looking at the table again, quietly, until it answers: the page carries on from there.
"use strict";

const tableId = location.pathname.split("/").pop();
let view = null;
let since = 0;
let timer = null;
let waits = 0;  // looks in a row that found the table busy

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
  document.title = v.title + " · d2r";
  document.getElementById("title").textContent = v.title;
  document.getElementById("seats").textContent = v.seats.map((s) => seatName(s.seat) + ": " + s.agent).join(" · ")
    + (v.seed === null ? "" : " · seed " + v.seed);  // the seed is told when the game is over
  document.getElementById("picture").innerHTML = v.picture;  // HTML made by the server (escaped text or SVG)
  closeChooser();
  fitPicture();
  if (v.status === "your move") markSpots(v.moves);
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
    standingsList(document.getElementById("standings"), v.result,
      (q) => q === v.seat ? "you (" + seatName(q) + ")" : seatName(q) + " (" + v.seats[q].agent + ")");
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

// The picture's places of your legal moves (rects with data-actions, drawn by the server): a click plays
// the one move there, or opens a chooser of the moves there; a tap (touch) always opens the chooser, so
// the explanation is read before playing; hovering shows the moves and what they do.
function markSpots(moves) {
  const byId = new Map(moves.map((m) => [m.action, m]));
  for (const spot of document.querySelectorAll("#picture .spot")) {
    const here = spot.dataset.actions.split(" ").map(Number).map((a) => byId.get(a)).filter(Boolean);
    if (!here.length) continue;
    const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
    tip.textContent = here.map((m) => m.name + (m.explain ? ": " + m.explain : "")).join("\n");
    spot.append(tip);
    spot.setAttribute("tabindex", "0");
    spot.setAttribute("role", "button");
    spot.setAttribute("aria-label", here.map((m) => m.name).join("; "));
    spot.addEventListener("click", (e) => {
      if (here.length === 1 && e.pointerType !== "touch") return play(here[0].action);
      openChooser(here, e.clientX, e.clientY);
    });
    spot.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      const r = spot.getBoundingClientRect();
      openChooser(here, r.left, r.bottom);
    });
  }
}

function closeChooser() {
  const old = document.getElementById("chooser");
  if (old) old.remove();
}

function openChooser(moves, x, y) {
  closeChooser();
  const box = el("div", { id: "chooser", class: "chooser moves", role: "dialog", "aria-label": "moves here" });
  for (const m of moves) {
    const b = el("button", { type: "button", "data-action": m.action }, el("span", { class: "name", text: m.name }));
    if (m.explain) b.append(el("span", { class: "explain", text: m.explain }));
    b.addEventListener("click", () => { closeChooser(); play(m.action); });
    box.append(b);
  }
  const cancel = el("button", { type: "button", class: "cancel", text: "cancel" });
  cancel.addEventListener("click", closeChooser);
  box.append(cancel);
  document.body.append(box);
  const width = Math.min(340, document.documentElement.clientWidth - 16);
  box.style.width = width + "px";
  box.style.left = Math.max(8, Math.min(x, document.documentElement.clientWidth - width - 8)) + "px";
  box.style.top = Math.max(8, Math.min(y + 8, window.innerHeight - box.offsetHeight - 8)) + "px";
  box.querySelector("button").focus();
}

document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeChooser(); });

async function reload() {
  clearTimeout(timer);
  const r = await api("GET", "/api/tables/" + tableId + "?since=0");
  if (r.status === 409) {  // busy: an opponent is thinking; look again soon, less often the longer it takes
    if (!view) document.getElementById("status").textContent = "An opponent is thinking…";
    timer = setTimeout(reload, Math.min(2000, 200 * 2 ** waits++));
    return;
  }
  waits = 0;
  if (!r.ok) return showError(r.data.error);
  showError("");
  render(r.data, true);
}

async function answer(r) {
  if (r.ok) {
    showError("");
    return render(r.data, false);
  }
  if (r.status === 409) return reload();  // the table moved on or is busy: carry on from where it is
  showError(r.data.error);
}

async function play(action) {
  closeChooser();
  for (const b of document.querySelectorAll("#moves button")) b.disabled = true;
  for (const spot of document.querySelectorAll("#picture .spot")) spot.classList.add("spent");
  document.getElementById("status").textContent = "…";
  await answer(await api("POST", "/api/tables/" + tableId + "/move?since=" + since, { step: view.step, action }));
}

async function advance() {
  await answer(await api("POST", "/api/tables/" + tableId + "/next?since=" + since, { step: view.step }));
}

async function howToPlay() {
  const r = await api("GET", "/api/games");
  if (!r.ok) return showError(r.data.error);
  showGuide(r.data.games.find((g) => g.name === view.game));
}

document.getElementById("how").addEventListener("click", howToPlay);
const delay = document.getElementById("delay");
delay.value = String(pace());
if (delay.value === "") delay.value = "700";
delay.addEventListener("change", () => localStorage.setItem("d2r.delay", delay.value));
reload();
