// A replay step by step: a slider, back and forward, from one seat's view or from above.
"use strict";

const replayName = new URLSearchParams(location.search).get("name") || "";
let about = null;
let asked = 0;  // the latest request: older answers are dropped

function steps() {
  return document.getElementById("step");
}

async function show(i) {
  const mine = ++asked;
  const seat = document.getElementById("seat").value;
  const url = "/api/replay/frame?name=" + encodeURIComponent(replayName) + "&step=" + i + "&seat=" + encodeURIComponent(seat);
  const r = await api("GET", url);
  if (mine !== asked) return;
  if (!r.ok) return showError(r.data.error);
  showError("");
  const f = r.data;
  steps().value = f.step;
  document.body.dataset.step = f.step;
  document.getElementById("counter").textContent = "step " + f.step + " of " + f.last;
  document.getElementById("picture").innerHTML = f.picture;  // HTML made by the server (escaped text or SVG)
  document.getElementById("who").textContent = f.player === null ? "The end."
    : seatName(f.player) + " (" + f.agent + ") to move: " + f.decision;
  document.getElementById("next").textContent = f.next.length ? "Next: " + f.next.join("; ") : "";
  const log = document.getElementById("log");
  log.replaceChildren(...f.log.map((line) => el("li", { text: line })));
  log.scrollTop = log.scrollHeight;
  const result = document.getElementById("result");
  result.hidden = !f.result;
  if (f.result) {
    result.textContent = f.result.truncated ? "Cut off at the game's cap: nobody wins."
      : (f.result.winners.length ? f.result.winners.map(seatName).join(" and ") + (f.result.winners.length > 1 ? " win" : " wins") : "nobody wins")
        + " (returns " + f.result.returns.join(", ") + ")";
  }
}

function go(i) {
  const max = Number(steps().max);
  show(Math.max(0, Math.min(max, i)));
}

async function init() {
  const r = await api("GET", "/api/replay?name=" + encodeURIComponent(replayName));
  if (!r.ok) return showError(r.data.error);
  about = r.data;
  document.title = "d2r replay: " + about.name;
  document.getElementById("title").textContent = about.game + " replay";
  document.getElementById("about").textContent = about.name + " · " + about.agents.map((a, q) => seatName(q) + ": " + a).join(" · ")
    + " · seed " + about.seed + (Object.keys(about.options).length ? " · options " + JSON.stringify(about.options) : "");
  const seat = document.getElementById("seat");
  seat.replaceChildren(el("option", { value: "above", text: "from above (everything)" }),
    ...about.agents.map((a, q) => el("option", { value: q, text: seatName(q) + " (" + a + ")" })));
  steps().max = about.last;
  steps().addEventListener("input", () => go(Number(steps().value)));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("back").addEventListener("click", () => go(Number(steps().value) - 1));
  document.getElementById("forward").addEventListener("click", () => go(Number(steps().value) + 1));
  document.getElementById("last").addEventListener("click", () => go(about.last));
  seat.addEventListener("change", () => go(Number(steps().value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") go(Number(steps().value) - 1);
    if (e.key === "ArrowRight") go(Number(steps().value) + 1);
  });
  document.body.dataset.ready = "1";
  await show(0);
}

init();
