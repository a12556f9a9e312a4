// Shared by the pages: JSON requests and building elements (text only through textContent).
"use strict";

async function api(method, url, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    return { ok: false, status: 0, data: { error: "the server cannot be reached: " + err } };
  }
  let data;
  try {
    data = await response.json();
  } catch (err) {
    data = { error: "the server answered " + response.status + " without JSON" };
  }
  return { ok: response.ok, status: response.status, data };
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function seatName(q) {
  return "player_" + q;
}

// The "How to play" dialog of a game (`g`: its entry of /api/games): its objective, turn and words.
function guideDialog() {
  let dialog = document.getElementById("guide");
  if (!dialog) {
    dialog = el("dialog", { id: "guide", class: "guide", "aria-labelledby": "guide-title" });
    document.body.append(dialog);
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  }
  return dialog;
}

function showGuide(g) {
  const dialog = guideDialog();
  const close = el("button", { type: "button", class: "close", id: "guide-close", text: "Close" });
  close.addEventListener("click", () => dialog.close());
  dialog.replaceChildren(
    el("h2", { id: "guide-title", text: "How to play " + g.title }),
    el("p", { class: "objective" }, el("strong", { text: "To win: " }), g.objective),
    el("ol", { class: "how" }, ...g.how_to_play.map((line) => el("li", { text: line }))),
    g.words.length ? el("h3", { text: "Words on the table" }) : "",
    el("dl", { class: "words" }, ...g.words.flatMap((w) => [el("dt", { text: w.word }), el("dd", { text: w.means })])),
    el("p", { class: "muted", text: "The move buttons say what each move does; the log tells what everyone did." }),
    close);
  dialog.showModal();
}

function standingsList(box, result, names) {
  box.replaceChildren(...result.standings.map((s) =>
    el("li", { class: s.winner ? "winner" : "" }, el("strong", { text: names(s.seat) + (s.winner ? " (winner)" : "") + ": " }), s.text)));
}

// A picture wider than its box (a screen narrower than even the narrow drawing) pans sideways at its
// own size (legible); the button beside it shows the whole picture at once instead, in small print, and
// back. The choice is kept for the next pages.
function fitPicture() {
  const box = document.getElementById("picture");
  const button = document.getElementById("fit");
  const svg = [...box.querySelectorAll("svg")].find((s) => s.getClientRects().length);  // the one shown
  const whole = localStorage.getItem("d2r.whole") === "1";
  box.classList.toggle("whole", whole);
  const natural = svg ? Number(svg.getAttribute("width")) : 0;
  button.hidden = !svg || natural <= box.clientWidth;
  button.textContent = whole ? "show at its own size (legible)" : "show the whole picture (small print)";
  if (!button.dataset.ready) {
    button.dataset.ready = "1";
    button.addEventListener("click", () => {
      localStorage.setItem("d2r.whole", localStorage.getItem("d2r.whole") === "1" ? "0" : "1");
      fitPicture();
    });
    window.addEventListener("resize", fitPicture);  // a turned phone may show the other drawing
  }
}
