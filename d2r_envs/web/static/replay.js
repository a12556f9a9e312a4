// A replay step by step: a slider, back and forward, from one seat's view or from above.
// Every press moves the step asked for (`target`) at once; one request at a time fetches it, and another
// follows until the step shown is the last one asked for, so presses faster than the answers add up.
"use strict";

const replayName = new URLSearchParams(location.search).get("name") || "";
let about = null;
let target = 0;  // the step asked for last
let fetching = false;

function steps() {
  return document.getElementById("step");
}

async function fetchFrames() {
  if (fetching) return;  // the request in flight looks at `target` again when it is answered
  fetching = true;
  try {
    for (;;) {
      const step = target;
      const seat = document.getElementById("seat").value;
      const url = "/api/replay/frame?name=" + encodeURIComponent(replayName) + "&step=" + step + "&seat=" + encodeURIComponent(seat);
      const r = await api("GET", url);
      if (!r.ok) return showError(r.data.error);
      showError("");
      draw(r.data, seat);
      if (step === target && seat === document.getElementById("seat").value) return;
    }
  } finally {
    fetching = false;
  }
}

function draw(f, seat) {
  if (f.step === target) steps().value = f.step;  // a slider being dragged is left where it is
  document.body.dataset.step = f.step;
  document.body.dataset.seat = seat;
  document.getElementById("counter").textContent = "step " + f.step + " of " + f.last;
  document.getElementById("picture").innerHTML = f.picture;  // HTML made by the server (escaped text or SVG)
  fitPicture();
  document.getElementById("who").textContent = f.player === null ? "The end."
    : seatName(f.player) + " (" + f.agent + ") to move: " + f.decision;
  document.getElementById("next").textContent = f.next.length ? "Next: " + f.next.join("; ") : "";
  const log = document.getElementById("log");
  log.replaceChildren(...f.log.map((line) => el("li", { text: line })));
  log.scrollTop = log.scrollHeight;
  const result = document.getElementById("result");
  result.hidden = !f.result;
  if (f.result) {
    document.getElementById("result-text").textContent = f.result.text;
    standingsList(document.getElementById("standings"), f.result, (q) => seatName(q) + " (" + about.agents[q] + ")");
  }
}

function go(i) {
  target = Math.max(0, Math.min(Number(steps().max), i));
  fetchFrames();
}

async function init() {
  const r = await api("GET", "/api/replay?name=" + encodeURIComponent(replayName));
  if (!r.ok) return showError(r.data.error);
  about = r.data;
  document.title = "d2r replay: " + about.name;
  document.getElementById("title").textContent = about.title + ": replay";
  document.getElementById("how").addEventListener("click", async () => {
    const g = await api("GET", "/api/games");
    if (!g.ok) return showError(g.data.error);
    showGuide(g.data.games.find((x) => x.name === about.game));
  });
  document.getElementById("about").textContent = about.name + " · " + about.agents.map((a, q) => seatName(q) + ": " + a).join(" · ")
    + " · seed " + about.seed + (Object.keys(about.options).length ? " · options " + JSON.stringify(about.options) : "");
  const seat = document.getElementById("seat");
  seat.replaceChildren(el("option", { value: "above", text: "from above (everything)" }),
    ...about.agents.map((a, q) => el("option", { value: q, text: seatName(q) + " (" + a + ")" })));
  steps().max = about.last;
  steps().addEventListener("input", () => go(Number(steps().value)));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("back").addEventListener("click", () => go(target - 1));
  document.getElementById("forward").addEventListener("click", () => go(target + 1));
  document.getElementById("last").addEventListener("click", () => go(about.last));
  seat.addEventListener("change", () => go(target));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") go(target - 1);
    if (e.key === "ArrowRight") go(target + 1);
  });
  document.body.dataset.ready = "1";
  go(0);
}

init();
