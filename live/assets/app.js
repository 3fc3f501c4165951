// The live page of a gomoku-arena event. Everything an engine or a config
// supplies (names, ABOUT answers, MESSAGE lines) is shown as text: this file
// never builds HTML from strings, only elements and textContent.
"use strict";

const base = location.pathname.replace(/[^/]*$/, "");
const $ = (id) => document.getElementById(id);
let state = null;
let skew = 0; // this browser's clock minus the server's
const cards = new Map(); // "round.number" -> running game's card

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// pos notation: column letter from the left, row number from the top.
function pointName(x, y) {
  return String.fromCharCode(97 + x) + (y + 1);
}

function clockText(ms) {
  if (ms < 0) return "–";
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000), s = Math.floor((t % 60000) / 1000), d = Math.floor((t % 1000) / 100);
  return m + ":" + String(s).padStart(2, "0") + "." + d;
}

function key(round, number) {
  return round + "." + number;
}

// ---- the stream ------------------------------------------------------------

function connect() {
  const es = new EventSource(base + "api/stream");
  es.onopen = () => setConn(true);
  es.onerror = () => setConn(false); // the browser reconnects by itself
  es.onmessage = (ev) => handle(JSON.parse(ev.data));
}

function setConn(ok) {
  const c = $("conn");
  c.textContent = ok ? "connected" : "reconnecting…";
  c.className = ok ? "conn ok" : "conn down";
}

function handle(m) {
  skew = Date.now() - m.now_ms;
  if (m.type === "state") {
    state = m.data;
    renderAll();
    return;
  }
  if (!state) return;
  switch (m.type) {
    case "started":
      state.running.push(m.data);
      renderRunning();
      break;
    case "move":
      applyMove(m.data);
      break;
    case "finished":
      state.running = state.running.filter((g) => !(g.round === m.data.round && g.number === m.data.number));
      state.games.push(m.data);
      state.finished++;
      renderRunning();
      renderGames();
      renderHeader();
      break;
    case "standings":
      state.standings = m.data.standings;
      state.crosstable = m.data.crosstable;
      renderStandings();
      break;
    case "match": {
      const list = state.match || (state.match = []);
      const i = list.findIndex((e) => e.first === m.data.first && e.second === m.data.second);
      if (i >= 0) list[i] = m.data;
      else list.push(m.data);
      renderMatch();
      break;
    }
    case "progress":
      state.total = m.data.total;
      renderHeader();
      break;
    case "notice":
      (state.notices || (state.notices = [])).push(m.data);
      renderNotices();
      break;
  }
}

function applyMove(d) {
  const g = state.running.find((g) => g.round === d.round && g.number === d.number);
  if (!g) return;
  g.moves.push(...d.moves);
  g.black_ms = d.black_ms;
  g.white_ms = d.white_ms;
  g.at_ms = d.at_ms;
  g.to_move = d.to_move;
  g.forbidden = d.forbidden;
  g.messages.push(...d.messages);
  if (g.messages.length > 40) g.messages.splice(0, g.messages.length - 40);
  updateCard(g);
}

// ---- rendering -------------------------------------------------------------

function renderAll() {
  renderHeader();
  renderRunning();
  renderStandings();
  renderMatch();
  renderGames();
  renderEntrants();
  renderNotices();
  $("forbidden-option").hidden = state.rule !== "renju";
  if (location.hash.startsWith("#game=")) openReplay();
}

function renderHeader() {
  document.title = state.name + " — gomoku-arena";
  $("name").textContent = state.title || state.name;
  const facts = [state.rule + " on " + state.size + "×" + state.size, state.time_control];
  if (state.pairing) facts.push(state.pairing + (state.rounds ? ", " + state.rounds + " rounds" : ""));
  if (state.opening_procedure && state.opening_procedure !== "none") facts.push("opening: " + state.opening_procedure);
  if (state.started_text) facts.push("started " + state.started_text); // the event's one zone, named, as index.html
  $("facts").textContent = facts.join(" · ");
  // A match every encounter of which the SPRT decided stops there: not "26 of 60".
  const views = state.match || [];
  const stopped = views.length > 0 && views.every((m) => m.decision) && state.finished < state.total;
  $("progress").textContent =
    (stopped
      ? "stopped at " + state.finished + " games (SPRT: " + views.map((m) => m.decision).join(", ") + ")"
      : state.finished + (state.total ? " of " + state.total : "") + " games finished") + (state.live ? "" : " (from the event's files)");
}

function renderRunning() {
  const box = $("running");
  const live = new Set(state.running.map((g) => key(g.round, g.number)));
  for (const [k, card] of cards) {
    if (!live.has(k)) {
      card.remove();
      cards.delete(k);
    }
  }
  for (const g of state.running) {
    const k = key(g.round, g.number);
    if (!cards.has(k)) {
      const card = el("article", { class: "game", id: "game-" + g.round + "-" + g.number });
      card.append(
        el("h3", {}, (g.round ? "Round " + g.round + ", game " : "Game ") + g.number),
        el("p", { class: "players" },
          el("span", { class: "side black" }, "● ", el("span", { class: "pname" }, g.black), " ", el("span", { class: "clock" })),
          el("span", { class: "side white" }, "○ ", el("span", { class: "pname" }, g.white), " ", el("span", { class: "clock" }))),
        el("div", { class: "board" }),
        el("p", { class: "captures" }),
        el("pre", { class: "messages" }));
      cards.set(k, card);
      box.append(card);
    }
    updateCard(g);
  }
  $("no-running").hidden = state.running.length > 0 || !state.live;
  $("running-section").hidden = !state.live && state.running.length === 0;
}

function updateCard(g) {
  const card = cards.get(key(g.round, g.number));
  if (!card) return;
  drawBoard(card.querySelector(".board"), state.size, g.moves, {
    numbers: $("numbers").checked,
    forbidden: $("forbidden").checked ? g.forbidden : null,
  });
  card.querySelector(".captures").textContent = captureText(state.rule, g.moves);
  card.querySelector(".messages").textContent = g.messages.join("\n");
  tickCard(g);
}

function tickCard(g) {
  const card = cards.get(key(g.round, g.number));
  if (!card) return;
  const now = Date.now() - skew; // server time
  const [b, w] = card.querySelectorAll(".clock");
  const run = Math.max(0, now - g.at_ms);
  b.textContent = clockText(g.black_ms < 0 ? -1 : g.to_move === "black" ? g.black_ms - run : g.black_ms);
  w.textContent = clockText(g.white_ms < 0 ? -1 : g.to_move === "white" ? g.white_ms - run : g.white_ms);
  b.parentElement.classList.toggle("to-move", g.to_move === "black");
  w.parentElement.classList.toggle("to-move", g.to_move === "white");
}

setInterval(() => {
  if (state) for (const g of state.running) tickCard(g);
}, 100);

// drawBoard draws moves (in order) on a size×size board: the last stone
// marked, move numbers and forbidden points on demand, refused stones as
// dashed rings (they never stood on the board), captured stones (pente)
// taken off, and opt.five (the winning row) marked.
function drawBoard(box, size, moves, opt) {
  const cell = 26, pad = 24, span = cell * (size - 1);
  const s = svg("svg", { viewBox: "0 0 " + (span + 2 * pad) + " " + (span + 2 * pad), class: "goban", role: "img" });
  s.append(svg("rect", { x: 0, y: 0, width: span + 2 * pad, height: span + 2 * pad, class: "wood" }));
  for (let i = 0; i < size; i++) {
    const p = pad + i * cell;
    s.append(svg("line", { x1: pad, y1: p, x2: pad + span, y2: p, class: "grid" }));
    s.append(svg("line", { x1: p, y1: pad, x2: p, y2: pad + span, class: "grid" }));
    const col = svg("text", { x: p, y: pad - 10, class: "label" });
    col.textContent = String.fromCharCode(97 + i);
    const row = svg("text", { x: pad - 14, y: p + 4, class: "label" });
    row.textContent = String(i + 1);
    s.append(col, row);
  }
  const on = new Map(); // "x,y" -> [move, its number], the stones standing
  const rings = [];
  moves.forEach((m, i) => {
    if (m.x < 0 || m.y < 0 || m.x >= size || m.y >= size) return;
    if (m.refused) {
      rings.push(m);
      return;
    }
    on.set(m.x + "," + m.y, [m, i + 1]);
    for (const [x, y] of m.captured || []) on.delete(x + "," + y);
  });
  for (const m of rings) s.append(svg("circle", { cx: pad + m.x * cell, cy: pad + m.y * cell, r: cell * 0.42, class: "refused" }));
  for (const [m, n] of on.values()) {
    const cx = pad + m.x * cell, cy = pad + m.y * cell;
    s.append(svg("circle", { cx, cy, r: cell * 0.45, class: "stone " + m.color }));
    if (opt.numbers) {
      const t = svg("text", { x: cx, y: cy + 4, class: "num " + m.color });
      t.textContent = String(n);
      s.append(t);
    }
  }
  if (opt.five && opt.five.length) {
    const [x0, y0] = opt.five[0], [x1, y1] = opt.five[opt.five.length - 1];
    s.append(svg("line", { x1: pad + x0 * cell, y1: pad + y0 * cell, x2: pad + x1 * cell, y2: pad + y1 * cell, class: "five-line" }));
    for (const [x, y] of opt.five) s.append(svg("circle", { cx: pad + x * cell, cy: pad + y * cell, r: cell * 0.47, class: "five" }));
  }
  const last = [...moves].reverse().find((m) => !m.refused && on.has(m.x + "," + m.y));
  if (last && !opt.numbers) s.append(svg("circle", { cx: pad + last.x * cell, cy: pad + last.y * cell, r: 4, class: "last" }));
  for (const [x, y] of opt.forbidden || []) {
    if (on.has(x + "," + y)) continue;
    const cx = pad + x * cell, cy = pad + y * cell, d = cell * 0.25;
    s.append(svg("path", { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx - d} ${cy + d}L${cx + d} ${cy - d}`, class: "forbidden" }));
  }
  box.replaceChildren(s);
}

function renderTable(table, t) {
  table.replaceChildren();
  if (!t) return;
  const head = el("tr");
  t.header.forEach((h) => head.append(el("th", {}, h)));
  const body = el("tbody");
  for (const row of t.rows) {
    const tr = el("tr");
    row.forEach((c, i) => tr.append(el("td", t.right && t.right[i] ? { class: "num" } : {}, c)));
    body.append(tr);
  }
  table.append(el("thead", {}, head), body);
}

function renderStandings() {
  $("standings-section").hidden = !state.standings;
  renderTable($("standings"), state.standings);
  renderTable($("crosstable"), state.crosstable);
  const dl = $("legend");
  dl.replaceChildren();
  const legend = (state.standings && state.standings.legend) || {};
  for (const e of legend.columns || []) dl.append(el("dt", {}, e.column), el("dd", {}, e.meaning));
  $("legend-note").textContent = legend.note || "";
}

function renderGames() {
  const body = $("games").tBodies[0];
  body.replaceChildren();
  for (const g of [...state.games].reverse()) {
    const link = el("a", { href: "#game=" + g.round + "." + g.number }, "replay");
    body.append(el("tr", {},
      el("td", { class: "num" }, g.number), el("td", { class: "num" }, g.round || ""),
      el("td", {}, g.black), el("td", {}, g.white), el("td", {}, g.result),
      el("td", {}, g.end + (g.detail ? ": " + g.detail : "")), el("td", { class: "num" }, g.moves), el("td", {}, link)));
  }
}

function renderEntrants() {
  const body = $("entrants").tBodies[0];
  body.replaceChildren();
  for (const e of state.entrants || []) {
    body.append(el("tr", {}, el("td", {}, e.name), el("td", {}, e.program || ""), el("td", {}, e.version || ""),
      el("td", {}, e.author || ""), el("td", {}, e.country || "")));
  }
}

function renderNotices() {
  const list = state.notices || [];
  $("notices-section").hidden = list.length === 0;
  $("notices").replaceChildren(...list.map((n) => el("li", {}, n)));
}

// ---- authors' matches ------------------------------------------------------

function renderMatch() {
  const list = state.match || [];
  $("match-section").hidden = list.length === 0;
  const box = $("match");
  box.replaceChildren();
  for (const m of list) {
    const n = m.w + m.d + m.l;
    const score = n ? (100 * (m.w + m.d / 2) / n).toFixed(1) + "%" : "–";
    const elo = m.defined ? (m.elo >= 0 ? "+" : "") + m.elo.toFixed(1) + " ± " + ((m.elo_hi - m.elo_lo) / 2).toFixed(1) : "not yet defined";
    const stats = el("p", { class: "stats" },
      `${m.first} vs ${m.second}: games ${n}, +${m.w} =${m.d} -${m.l}, score ${score}, Elo ${elo}, LOS ${(100 * m.los).toFixed(1)}%, ` +
      `pentanomial ${m.ptnml.join(" ")}` +
      (m.sprt ? `, LLR ${m.llr.toFixed(2)} [${m.lower.toFixed(2)}, ${m.upper.toFixed(2)}]` : "") +
      (m.decision ? ", SPRT: " + m.decision : ""));
    const card = el("article", { class: "encounter" }, stats);
    if (m.sprt) card.append(el("h3", {}, "LLR"), plot(m.points, "llr", null, [m.lower, m.upper], "llr-plot"));
    card.append(el("h3", {}, "Elo with its 95% interval"), plot(m.points, "elo", ["elo_lo", "elo_hi"], [0], "elo-plot"));
    box.append(card);
  }
}

// plot draws points[*][y] against games, with an optional band and
// horizontal reference lines.
function plot(points, y, band, lines, cls) {
  const w = 480, h = 180, pad = 36;
  const s = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "plot " + cls, role: "img" });
  const xs = points.map((p) => p.games);
  const vals = points.flatMap((p) => (band ? [p[y], p[band[0]], p[band[1]]] : [p[y]])).concat(lines);
  let lo = Math.min(...vals), hi = Math.max(...vals);
  if (!isFinite(lo) || lo === hi) { lo = (isFinite(lo) ? lo : 0) - 1; hi = lo + 2; }
  const x0 = Math.min(0, ...xs), x1 = Math.max(1, ...xs);
  const X = (v) => pad + ((v - x0) / (x1 - x0)) * (w - 2 * pad);
  const Y = (v) => h - pad + 10 - ((v - lo) / (hi - lo)) * (h - 2 * pad);
  s.append(svg("line", { x1: pad, y1: h - pad + 10, x2: w - pad, y2: h - pad + 10, class: "axis" }));
  s.append(svg("line", { x1: pad, y1: 10, x2: pad, y2: h - pad + 10, class: "axis" }));
  for (const v of lines) s.append(svg("line", { x1: pad, y1: Y(v), x2: w - pad, y2: Y(v), class: "bound" }));
  if (band && points.length) {
    const top = points.map((p) => `${X(p.games)},${Y(p[band[1]])}`);
    const bottom = points.map((p) => `${X(p.games)},${Y(p[band[0]])}`).reverse();
    s.append(svg("polygon", { points: top.concat(bottom).join(" "), class: "band" }));
  }
  if (points.length) s.append(svg("polyline", { points: points.map((p) => `${X(p.games)},${Y(p[y])}`).join(" "), class: "line" }));
  for (const p of points) s.append(svg("circle", { cx: X(p.games), cy: Y(p[y]), r: 2, class: "dot" }));
  const label = (x, yy, t, c) => { const e = svg("text", { x, y: yy, class: c || "label" }); e.textContent = t; s.append(e); };
  label(4, 14, hi.toFixed(1));
  label(4, h - pad + 10, lo.toFixed(1));
  label(w - pad, h - 6, x1 + " games", "label end");
  return s;
}

// captureText counts the stones each side has captured in moves, under the
// capture rules (pente: a pair at a time, five pairs win; keryo-pente: two
// or three at a time, fifteen stones win); "" under the others.
function captureText(rule, moves) {
  if (rule !== "pente" && rule !== "keryo-pente") return "";
  const took = { black: 0, white: 0 };
  for (const m of moves) if (!m.refused) took[m.color] += (m.captured || []).length;
  const side = (c) => (rule === "pente" ? took[c] / 2 + (took[c] === 2 ? " pair" : " pairs") + " (" + took[c] + " stones)" : took[c] + " stones");
  return "Captures: Black " + side("black") + ", White " + side("white");
}

// ---- replay ----------------------------------------------------------------

let replay = null;

async function openReplay() {
  const m = /^#game=(\d+)\.(\d+)$/.exec(location.hash);
  if (!m) {
    $("replay").hidden = true;
    replay = null;
    return;
  }
  const r = await fetch(`${base}api/game?round=${m[1]}&number=${m[2]}`);
  if (!r.ok) {
    $("replay").hidden = false;
    $("replay-title").textContent = "Game " + m[2];
    $("replay-result").textContent = await r.text();
    return;
  }
  const g = await r.json();
  replay = { game: g, ply: g.moves.length };
  $("replay").hidden = false;
  $("replay-title").textContent = (g.round ? "Round " + g.round + ", game " : "Game ") + g.number + ": " + g.black + " (Black) vs " + g.white + " (White)";
  $("replay-result").textContent = g.result + " — " + g.end + (g.detail ? ": " + g.detail : "");
  const body = $("replay-moves").tBodies[0];
  body.replaceChildren();
  g.moves.forEach((mv, i) => {
    const tr = el("tr", { "data-ply": i + 1 }, el("td", { class: "num" }, i + 1), el("td", {}, mv.color + (mv.opening ? " (opening)" : "") + (mv.refused ? " (refused)" : "")),
      el("td", {}, pointName(mv.x, mv.y)), el("td", { class: "num" }, mv.opening ? "" : mv.think || ""));
    tr.addEventListener("click", () => showPly(i + 1));
    body.append(tr);
  });
  $("replay-messages").textContent = g.messages.join("\n");
  const dl = $("downloads");
  dl.replaceChildren();
  if (g.file) {
    dl.append("Records: ", el("a", { href: base + "games/" + g.file + ".sgf" }, "SGF"), " ", el("a", { href: base + "games/" + g.file + ".psq" }, "psq"));
  }
  showPly(g.moves.length);
  $("replay").scrollIntoView();
}

function showPly(n) {
  if (!replay) return;
  const g = replay.game;
  replay.ply = Math.max(0, Math.min(n, g.moves.length));
  const shown = g.moves.slice(0, replay.ply);
  // The winning row is marked on the final position only.
  const five = replay.ply === g.moves.length ? g.five : null;
  drawBoard($("replay-board"), g.size, shown, { numbers: $("numbers").checked, five });
  $("replay-ply").textContent = replay.ply + " / " + g.moves.length;
  $("replay-captures").textContent = captureText(g.rule, shown);
  for (const tr of $("replay-moves").tBodies[0].rows) tr.classList.toggle("current", Number(tr.dataset.ply) === replay.ply);
}

$("first").addEventListener("click", () => showPly(0));
$("prev").addEventListener("click", () => replay && showPly(replay.ply - 1));
$("next").addEventListener("click", () => replay && showPly(replay.ply + 1));
$("last").addEventListener("click", () => replay && showPly(Infinity));
$("close-replay").addEventListener("click", (e) => { e.preventDefault(); history.pushState("", "", location.pathname); openReplay(); });
document.addEventListener("keydown", (e) => {
  if (!replay) return;
  if (e.key === "ArrowLeft") showPly(replay.ply - 1);
  else if (e.key === "ArrowRight") showPly(replay.ply + 1);
  else if (e.key === "Home") showPly(0);
  else if (e.key === "End") showPly(Infinity);
  else return;
  e.preventDefault();
});
window.addEventListener("hashchange", openReplay);
$("numbers").addEventListener("change", () => { if (state) { state.running.forEach(updateCard); if (replay) showPly(replay.ply); } });
$("forbidden").addEventListener("change", () => state && state.running.forEach(updateCard));

connect();
