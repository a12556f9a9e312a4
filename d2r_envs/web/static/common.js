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
