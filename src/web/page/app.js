// The page: one WebSocket to the server, which owns the game; every change comes back as a
// whole state, drawn here. Messages are described in docs/web.md.

import { Board, boardSvg, signed } from "./board.js";
import { drawMoves } from "./moves.js";
import { Graph } from "./graph.js";
import { download, copy, openFile } from "./files.js";

const $ = (selector) => document.querySelector(selector);

let socket = null;
let hello = null;
let state = null;
let values = null;
let busy = { job: null, queued: 0 };
let thinking = null;
let solving = null;
let solved = null;
let reviewing = null;
let clockAt = 0;
let retries = 0;
let errorTimer = 0;
// The game to open once connected: the link's, or after a reconnection the game shown.
let pending = location.hash.length > 1 ? location.hash.slice(1) : null;

const board = new Board($("#board"), $("#files-top"), $("#ranks-left"), (square) => {
  if (!state) return;
  if (!state.legal.includes(square)) {
    if (!state.result) showError(`${square} is not a legal move here`);
    return;
  }
  window.iagoClickAt = performance.now();
  send({ type: "play", move: square });
});
const graph = new Graph($("#graph"), (node) => send({ type: "goto", node }));

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
  } else {
    showError("not connected to Iago: the page reconnects by itself");
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws");
  socket.addEventListener("open", () => {
    retries = 0;
    $("#connection").textContent = "connected";
    $("#connection").className = "ok";
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", () => {
    $("#connection").textContent = "disconnected: reconnecting…";
    $("#connection").className = "down";
    if (state) pending = state.fragment || "";
    busy = { job: null, queued: 0 };
    drawBusy();
    retries += 1;
    setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(retries, 5)));
  });
}

function receive(m) {
  switch (m.type) {
    case "hello":
      hello = m;
      setUpChoices(m);
      if (pending !== null) {
        send({ type: "fragment", text: pending });
        pending = null;
      }
      break;
    case "state":
      if (!state || state.node !== m.node) {
        thinking = null;
        if (!solved || solved.node !== m.node) solved = null;
      }
      state = m;
      values = m.values;
      clockAt = performance.now();
      drawAll();
      break;
    case "values":
      if (state && m.node === state.node) {
        values = m;
        drawBoard();
        drawAnalysis();
      }
      break;
    case "thinking":
      thinking = m;
      drawAnalysis();
      break;
    case "solving":
      solving = m;
      drawAnalysis();
      break;
    case "solved":
      solving = null;
      solved = m;
      drawAnalysis();
      break;
    case "reviewing":
      reviewing = m;
      drawBusy();
      break;
    case "busy":
      busy = m;
      if (m.job !== "solve") solving = null;
      if (m.job !== "review") reviewing = null;
      if (m.job !== "play") thinking = null;
      drawBusy();
      drawAnalysis();
      break;
    case "ggf":
      download("iago-game.ggf", m.text + "\n", "application/octet-stream");
      break;
    case "error":
      showError(m.message);
      break;
  }
}

function setUpChoices(m) {
  const rules = $("#rules");
  rules.replaceChildren(
    ...m.rules.map((r) => {
      const o = document.createElement("option");
      o.value = r.name;
      o.textContent = r.label;
      return o;
    }),
  );
  const depth = $("#review-depth");
  depth.replaceChildren(
    ...[8, 10, 12, 14, 16, 18].map((d) => {
      const o = document.createElement("option");
      o.value = String(d);
      o.textContent = `depth ${d}`;
      o.selected = d === m.review_depth;
      return o;
    }),
  );
  $("#version").textContent = `Iago ${m.version}`;
}

function showError(text) {
  const e = $("#error");
  e.textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (e.textContent = ""), 8000);
}

function drawAll() {
  drawBoard();
  drawStatus();
  drawMoves($("#moves"), state, (node) => send({ type: "goto", node }));
  $("#transcript").textContent = state.transcript;
  graph.draw(state);
  drawReview();
  drawSettings();
  drawAnalysis();
  drawBusy();
  drawClock();
  const hash = state.fragment ? "#" + state.fragment : "";
  if (location.hash !== hash && !(hash === "" && location.hash === "")) {
    history.replaceState(null, "", hash || location.pathname + location.search);
  }
  if (!document.body.dataset.ready) {
    document.body.dataset.ready = "true";
    window.iagoReadyMs = performance.now();
  }
  document.body.dataset.node = String(state.node);
  window.iagoDrawnAt = performance.now();
}

function drawBoard() {
  board.draw(state, values, state.values_on);
  const root = $("#board");
  if (state.values_on && values && values.node === state.node) {
    root.dataset.depth = values.depth;
    if (window.iagoValuesShownAt === undefined) window.iagoValuesShownAt = performance.now();
  } else {
    delete root.dataset.depth;
  }
}

function drawStatus() {
  const parts = [];
  parts.push(`● Black ${state.black}`);
  parts.push(`○ White ${state.white}`);
  if (state.left) parts.push(`discs left: Black ${state.left[0]}, White ${state.left[1]}`);
  if (state.result) {
    parts.push(`Game over: ${state.result} (empties to the winner)`);
  } else {
    const side = state.to_move === "black" ? "Black" : "White";
    const iago = state.iago === "both" || state.iago === state.to_move;
    parts.push(`${side} to move${iago ? " (Iago)" : ""}`);
  }
  $("#status").textContent = parts.join(" · ");
  $("#status").className = state.result ? "over" : "";
}

function drawSettings() {
  const rules = $("#rules");
  if (![...rules.options].some((o) => o.value === state.rules)) {
    const o = document.createElement("option");
    o.value = state.rules;
    o.textContent = state.rules;
    rules.appendChild(o);
  }
  rules.value = state.rules;
  $("#iago").value = state.iago;
  const kind = state.level.depth !== undefined ? "depth" : state.level.time !== undefined ? "time" : "level";
  if (document.activeElement !== $("#level-value") && document.activeElement !== $("#level-kind")) {
    $("#level-kind").value = kind;
    setLevelInput(kind);
    $("#level-value").value = String(state.level[kind]);
  }
  const clock = state.clock ? `${state.clock.minutes}+${state.clock.increment}` : "";
  const select = $("#clock");
  if (![...select.options].some((o) => o.value === clock)) {
    const o = document.createElement("option");
    o.value = clock;
    o.textContent = `${state.clock.minutes} min + ${state.clock.increment} s`;
    select.appendChild(o);
  }
  select.value = clock;
  const valuesButton = document.querySelector('[data-action="values"]');
  valuesButton.setAttribute("aria-pressed", String(state.values_on));
  valuesButton.textContent = state.values_on ? "Hide values" : "Show values";
}

function setLevelInput(kind) {
  const input = $("#level-value");
  if (kind === "level") {
    input.min = "1";
    input.max = "10";
    input.step = "1";
  } else if (kind === "depth") {
    input.min = "1";
    input.max = "60";
    input.step = "1";
  } else {
    input.min = "0.01";
    input.max = hello ? String(hello.max_search_s) : "300";
    input.step = "0.1";
  }
}

function drawAnalysis() {
  if (!state) return;
  const root = $("#analysis");
  const lines = [];
  if (thinking && thinking.node === state.node && busy.job === "play") {
    lines.push(row("thinking", `Iago thinks: depth ${thinking.depth}, ${thinking.move} ${signed(thinking.score)}`, thinking.pv));
  }
  if (state.values_on && values && values.node === state.node && values.rows.length) {
    const head = values.preview ? "static values (depth 1)" : `values at depth ${values.depth}${values.done ? "" : "…"}`;
    lines.push(row("values-head", head, ""));
    for (const r of values.rows.slice(0, 8)) {
      const score = r.bound === "wld" ? (r.score > 0 ? "win" : r.score < 0 ? "loss" : "draw") : signed(r.score);
      lines.push(row(r === values.rows[0] ? "best" : "", `${r.move} ${score} (${r.depth})`, r.pv));
    }
  }
  if (solving && solving.node === state.node) lines.push(row("solving", solving.text, ""));
  if (solved && solved.node === state.node) {
    const text = solved.solved
      ? `solved (${solved.mode === "wld" ? "win/loss/draw" : "exact"}): ${solved.text}` +
        (solved.mode === "exact" ? ` (${signed(solved.score)} for the side to move)` : "") +
        `, ${solved.nodes.toLocaleString("en")} nodes in ${(solved.time_ms / 1000).toFixed(2)} s`
      : solved.text;
    const p = row("solved", text, solved.pv);
    p.id = "solve-result";
    if (solved.solved) p.dataset.score = String(solved.score);
    lines.push(p);
  }
  root.replaceChildren(...lines);
}

function row(cls, text, pv) {
  const p = document.createElement("p");
  if (cls) p.className = cls;
  p.textContent = text;
  if (pv) {
    const line = document.createElement("span");
    line.className = "pv";
    line.textContent = pv;
    p.append(" ", line);
  }
  return p;
}

function drawBusy() {
  const root = $("#busy");
  if (!busy.job) {
    root.textContent = "";
    document.body.dataset.busy = "";
    return;
  }
  document.body.dataset.busy = busy.job;
  const names = { play: "Iago is thinking", values: "searching the values", solve: "solving", review: "reviewing" };
  let text = names[busy.job] || busy.job;
  if (busy.job === "review" && reviewing) text += `: ${reviewing.done} of ${reviewing.total} moves`;
  if (busy.queued > 0) text += ` (waiting for an engine: ${busy.queued} ahead)`;
  root.textContent = text + "…";
}

function drawReview() {
  const root = $("#review");
  if (!state.review) {
    root.replaceChildren();
    return;
  }
  const r = state.review;
  const title = document.createElement("h2");
  title.textContent = `Review (depth ${r.depth}, exact from ${r.exact_from} empties)${r.complete ? "" : ", so far"}`;
  const table = document.createElement("table");
  table.id = "review-table";
  table.innerHTML = "<thead><tr><th>player</th><th>empties</th><th>moves</th><th>mean loss</th><th>blunders</th></tr></thead>";
  const body = document.createElement("tbody");
  for (const p of r.rows) {
    const tr = document.createElement("tr");
    if (p.phase === "all") tr.className = "all";
    for (const cell of [p.color, p.phase, p.moves, p.mean.toFixed(2), p.blunders]) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  table.appendChild(body);
  root.replaceChildren(title, table);
}

function drawClock() {
  const clock = state && state.clock;
  for (const color of ["black", "white"]) {
    const e = $(`#clock-${color}`);
    if (!clock) {
      e.hidden = true;
      continue;
    }
    e.hidden = false;
    let ms = clock[`${color}_ms`];
    if (clock.running === color) ms = Math.max(0, ms - (performance.now() - clockAt));
    const s = Math.ceil(ms / 1000);
    e.textContent = `${color === "black" ? "●" : "○"} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    e.className = "clock" + (clock.running === color ? " running" : "") + (clock.flagged === color ? " flagged" : "");
  }
}
setInterval(() => state && state.clock && state.clock.running && drawClock(), 200);

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-action]");
  if (!button) return;
  const action = button.dataset.action;
  switch (action) {
    case "new":
      send({ type: "new", rules: $("#rules").value || undefined });
      break;
    case "values":
      window.iagoValuesAskedAt = performance.now();
      window.iagoValuesShownAt = undefined;
      send({ type: "values", on: !(state && state.values_on) });
      break;
    case "solve":
      send({ type: "solve", mode: $("#solve-mode").value });
      break;
    case "review":
      send({ type: "review", depth: Number($("#review-depth").value) || undefined });
      break;
    case "paste":
      send({ type: "paste", text: $("#paste").value });
      break;
    case "copy":
      if (state) say((await copy(state.transcript)) ? "transcript copied" : "the browser refused the clipboard: select the transcript and copy it");
      break;
    case "ggf":
      send({ type: "ggf" });
      break;
    case "svg":
      if (state) download("iago-board.svg", boardSvg(state), "image/svg+xml");
      break;
    default:
      send({ type: action });
  }
});

function say(text, error) {
  const e = $("#io-message");
  e.textContent = text;
  e.className = error ? "error" : "";
}

$("#rules").addEventListener("change", (e) => send({ type: "new", rules: e.target.value }));
$("#iago").addEventListener("change", (e) => send({ type: "settings", iago: e.target.value }));
$("#level-kind").addEventListener("change", (e) => {
  setLevelInput(e.target.value);
  const input = $("#level-value");
  input.value = { level: "5", depth: "12", time: "1" }[e.target.value];
  sendLevel();
});
$("#level-value").addEventListener("change", sendLevel);
function sendLevel() {
  const kind = $("#level-kind").value;
  const value = Number($("#level-value").value);
  if (!Number.isFinite(value)) return showError("the strength is a number");
  const level = kind === "time" ? { time: value } : { [kind]: Math.round(value) };
  send({ type: "settings", level });
}
$("#clock").addEventListener("change", (e) => {
  const v = e.target.value;
  if (!v) return send({ type: "settings", clock: null });
  const [minutes, increment] = v.split("+").map(Number);
  send({ type: "settings", clock: { minutes, increment } });
});
$("#file").addEventListener("change", (e) => {
  const file = e.target.files[0];
  if (!file) return;
  openFile(file, $("#games"), hello ? hello.max_upload_bytes : 16 << 20, (text) => send({ type: "paste", text }), say);
  e.target.value = "";
});

document.addEventListener("keydown", (event) => {
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) return;
  const keys = {
    ArrowLeft: "back",
    ArrowRight: "forward",
    Home: "start",
    End: "end",
    Escape: "stop",
    u: "undo",
    g: "go",
  };
  if (event.key === "v") {
    send({ type: "values", on: !(state && state.values_on) });
  } else if (keys[event.key]) {
    send({ type: keys[event.key] });
  } else {
    return;
  }
  event.preventDefault();
});

window.addEventListener("hashchange", () => {
  const text = location.hash.slice(1);
  if (state && text === state.fragment) return;
  send({ type: "fragment", text });
});

connect();
