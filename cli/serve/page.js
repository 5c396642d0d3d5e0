// The zrf web board: draws the state the server sends and posts the player's commands.
"use strict";
const NS = "http://www.w3.org/2000/svg";
const COLOURS = [["#f7f3e8", "#222"], ["#262626", "#ddd"], ["#c0392b", "#fff"], ["#2a62c9", "#fff"],
  ["#2e8b3a", "#fff"], ["#e0b000", "#222"], ["#8e44ad", "#fff"], ["#16a0a0", "#fff"]];
const CHESS = { king: "\u265A", queen: "\u265B", rook: "\u265C", bishop: "\u265D", knight: "\u265E", pawn: "\u265F" };
let S = null;          // the last state
let id = null;         // this tab's game
let sel = null;        // selected square id
let steps = [];        // landing squares clicked so far in a multi-step move
let dropSel = null;    // selected piece type in hand
let shownVersion = -1;
let editingPosition = false;
let flipped = false;   // the board turned half round
let pendingEngine = null; // an engine setting typed while the computer thinks, sent after
const $ = (x) => document.getElementById(x);

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function setError(t) { $("error").textContent = t || ""; }

// Every request carries the server's token: the cookie the page's load set, and the header
// from the page's URL (for browsers that keep no cookies).
const TOKEN = new URLSearchParams(location.search).get("token");
function request(url, options) {
  const o = options || {};
  o.headers = Object.assign({}, o.headers, TOKEN ? { "Authorization": "token " + TOKEN } : {});
  o.credentials = "same-origin";
  return fetch(url, o);
}

async function post(url, body) {
  const r = await request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: "bad answer from the server" }; }
  if (!r.ok) { setError(j.error); return null; }
  setError("");
  return j;
}

async function start(variant) {
  const j = await post("/api/games", variant === undefined ? {} : { variant: variant });
  if (!j) return;
  id = j.id;
  sel = null; dropSel = null; steps = [];
  show(j, true);
}

async function cmd(body) {
  if (id === null) return;
  const j = await post("/api/games/" + id, body);
  if (j) { sel = null; dropSel = null; steps = []; $("choices").textContent = ""; show(j, true); }
  return j;
}

async function poll() {
  if (id !== null) {
    try {
      const r = await request("/api/games/" + id);
      if (r.ok) {
        const j = await r.json();
        if (j.version !== shownVersion || (S && j.thinking !== S.thinking)) show(j, false);
      } else if (r.status === 404 || r.status === 410) {
        await start();
      }
    } catch (e) { /* the server is gone; try again later */ }
  }
  setTimeout(poll, S && S.thinking ? 250 : 800);
}

function pieceKind(name) {
  const n = name.toLowerCase();
  for (const k in CHESS) if (n === k || n.endsWith(k) && n.length < k.length + 3) return { glyph: CHESS[k] };
  return null;
}

// A player named after a colour (White, Black, Red, Blue...) is drawn in it, whatever its
// place in the player list (draughts lists Black first); others by their place.
const NAMED = [[/white|light/i, 0], [/black|dark/i, 1], [/red/i, 2], [/blue/i, 3], [/green/i, 4],
  [/yellow|gold/i, 5], [/purple|violet/i, 6], [/cyan|teal/i, 7]];
function playerColour(owner) {
  const name = (S.players[owner] || "");
  for (const [re, k] of NAMED) if (re.test(name)) return COLOURS[k];
  return COLOURS[owner % COLOURS.length];
}

function draughtsLike() {
  return S.pieces.some((p) => /^(man|men|checker|counter|draught|pawn)$/i.test(p.name)) &&
    !S.pieces.some((p) => /queen|rook|bishop|knight/i.test(p.name));
}

// Draws one piece centred in a box of side `size` at (cx, cy).
function drawPiece(g, piece, owner, cx, cy, size) {
  const p = S.pieces[piece];
  const [fill, ink] = playerColour(owner);
  const grp = el("g", { class: "piece", "data-piece": p.name, "data-owner": owner }, g);
  const img = S.images && (S.images.pieces[piece] || [])[owner];
  if (img) {
    // The file's own bitmap, at its size (as Zillions draws it), shrunk when it overflows.
    const k = Math.min(1, size / Math.max(img.width, img.height));
    const w = img.width * k, h = img.height * k;
    el("image", { href: img.url, x: cx - w / 2, y: cy - h / 2, width: w, height: h, "data-image": img.url }, grp);
    return grp;
  }
  const r = size * 0.4;
  const chess = !draughtsLike() && pieceKind(p.name);
  if (chess) {
    const t = el("text", { x: cx, y: cy + size * 0.02, "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": size * 0.82, fill: fill, stroke: owner === 1 ? "#000" : "#222", "stroke-width": size * 0.02,
      "font-family": "DejaVu Sans, Segoe UI Symbol, sans-serif" }, grp);
    t.textContent = chess.glyph;
    return grp;
  }
  el("circle", { cx: cx, cy: cy, r: r, fill: fill, stroke: owner === 0 ? "#333" : "#000", "stroke-width": size * 0.04 }, grp);
  el("circle", { cx: cx, cy: cy, r: r * 0.72, fill: "none", stroke: ink, "stroke-opacity": 0.35, "stroke-width": size * 0.02 }, grp);
  if (draughtsLike() && /king|dame|queen/i.test(p.name)) {
    const w = r * 0.9, h = r * 0.55, x = cx - w / 2, y = cy - h / 2;
    el("path", { d: `M${x},${y + h} L${x},${y} L${x + w * 0.25},${y + h * 0.5} L${x + w / 2},${y - h * 0.1} L${x + w * 0.75},${y + h * 0.5} L${x + w},${y} L${x + w},${y + h} Z`,
      fill: ink, "fill-opacity": 0.85 }, grp);
  } else if (!draughtsLike() || !/^(man|men|checker|counter|draught|pawn)$/i.test(p.name)) {
    const t = el("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": size * (abbrev(piece).length > 2 ? 0.24 : 0.36), fill: ink, "font-weight": "bold" }, grp);
    t.textContent = abbrev(piece);
  }
  return grp;
}

// A piece's mark on a disc: its notation letter, else the shortest prefix of its name that
// no other piece shares (at most three letters).
function abbrev(piece) {
  const p = S.pieces[piece];
  if (p.letter.length <= 2) return p.letter;
  for (let k = 1; k <= 3; k++) {
    const pre = p.name.slice(0, k).toLowerCase();
    if (!S.pieces.some((q, i) => i !== piece && q.name.toLowerCase().startsWith(pre))) return p.name.slice(0, k);
  }
  return p.name.slice(0, 3);
}

// The cells as drawn: turned half round about the board's centre when flipped.
function cellById() {
  const m = new Map();
  const [x1, y1, x2, y2] = S.board.bounds;
  for (const c of S.board.cells) {
    if (!flipped) { m.set(c.id, c); continue; }
    const [a, b, c2, d] = c.rect;
    m.set(c.id, Object.assign({}, c, { rect: [x1 + x2 - c2, y1 + y2 - d, x1 + x2 - a, y1 + y2 - b] }));
  }
  return m;
}

// The legal moves that agree with what was clicked: the piece (or the piece in hand), then
// the landing squares so far.
function targets() {
  let ms = [];
  if (sel !== null) ms = S.moves.filter((m) => m.from === sel);
  else if (dropSel !== null) ms = S.moves.filter((m) => m.drop === dropSel);
  return ms.filter((m) => steps.every((sq, i) => m.path[i] === sq));
}

// The squares the next click may land on, and the moves that end where the clicks are.
function nextSteps() {
  const ts = targets();
  const next = new Set(ts.filter((m) => m.path.length > steps.length).map((m) => m.path[steps.length]));
  const done = steps.length ? ts.filter((m) => m.path.length === steps.length) : [];
  return { ts, next, done };
}

function drawBoard() {
  const svg = $("board");
  svg.textContent = "";
  const bimg = S.images && S.images.board;
  let [x1, y1, x2, y2] = S.board.bounds;
  if (bimg) { x1 = Math.min(x1, 0); y1 = Math.min(y1, 0); x2 = Math.max(x2, bimg.width); y2 = Math.max(y2, bimg.height); }
  const pad = 6;
  svg.setAttribute("viewBox", `${x1 - pad} ${y1 - pad} ${x2 - x1 + 2 * pad} ${y2 - y1 + 2 * pad}`);
  const w = x2 - x1;
  svg.style.width = "min(92vw, " + Math.max(360, Math.min(720, w * 1.6)) + "px)";
  const cells = cellById();
  const labels = $("labels").checked;
  const zoneName = $("zone").value;
  const zone = new Set();
  for (const z of S.board.zones) if (z.name === zoneName) for (const per of z.positions) for (const p of per) zone.add(p);
  const ts = targets();
  const centre = (c) => [(c.rect[0] + c.rect[2]) / 2, (c.rect[1] + c.rect[3]) / 2];
  if (bimg) {
    const im = el("image", { href: bimg.url, x: 0, y: 0, width: bimg.width, height: bimg.height, id: "boardimage" }, svg);
    if (flipped) im.setAttribute("transform", `rotate(180 ${(S.board.bounds[0] + S.board.bounds[2]) / 2} ${(S.board.bounds[1] + S.board.bounds[3]) / 2})`);
  }
  svg.setAttribute("data-flipped", flipped ? "1" : "0");
  if (!bimg) for (const [a, z] of S.board.links) {
    const ca = cells.get(a), cz = cells.get(z);
    if (!ca || !cz || (ca.grid && cz.grid)) continue;
    const [ax, ay] = centre(ca), [zx, zy] = centre(cz);
    el("line", { x1: ax, y1: ay, x2: zx, y2: zy, class: "link" }, svg);
  }
  for (const c0 of S.board.cells) {
    const c = cells.get(c0.id);
    const [a, b, c2, d] = c.rect;
    const wd = c2 - a, ht = d - b;
    let shape;
    if (bimg) {
      // The bitmap shows the board; the rectangles only take the clicks.
      shape = el("rect", { x: a, y: b, width: wd, height: ht, class: "cell hit" }, svg);
    } else if (c.grid) {
      shape = el("rect", { x: a, y: b, width: wd, height: ht, class: "cell " + (c.dark ? "dark" : "light") }, svg);
    } else {
      shape = el("circle", { cx: a + wd / 2, cy: b + ht / 2, r: Math.min(wd, ht) * 0.42, class: "cell spot" }, svg);
    }
    shape.setAttribute("data-sq", c.name);
    shape.setAttribute("data-label", c.label);
    shape.addEventListener("click", () => clickCell(c.id));
    if (zone.has(c.id)) el("rect", { x: a, y: b, width: wd, height: ht, class: "zone" }, svg);
    if (labels) {
      const t = el("text", { x: a + 2, y: d - 2, class: "label", "font-size": Math.max(6, Math.min(wd, ht) * 0.2) }, svg);
      t.textContent = c.label;
    }
  }
  const mark = (sq, cls) => {
    const c = cells.get(sq);
    if (!c) return;
    const [a, b, c2, d] = c.rect;
    const s = Math.min(c2 - a, d - b);
    if (cls === "target") el("circle", { cx: (a + c2) / 2, cy: (b + d) / 2, r: s * 0.18, class: cls, "data-target": c.name }, svg);
    else if (cls === "capture") el("circle", { cx: (a + c2) / 2, cy: (b + d) / 2, r: s * 0.42, class: cls }, svg);
    else if (cls === "check") el("circle", { cx: (a + c2) / 2, cy: (b + d) / 2, r: s * 0.46, class: cls, "data-check": c.name }, svg);
    else el("rect", { x: a, y: b, width: c2 - a, height: d - b, class: cls, "data-mark": c.name }, svg);
  };
  // Under the pieces: the last move's squares, and a royal piece in check.
  for (const sq of S.last || []) mark(sq, "last");
  for (const sq of S.check || []) mark(sq, "check");
  for (const [at, piece, owner] of S.position) {
    const c = cells.get(at);
    if (!c) continue;
    const [a, b, c2, d] = c.rect;
    drawPiece(svg, piece, owner, (a + c2) / 2, (b + d) / 2, Math.min(c2 - a, d - b));
  }
  if (sel !== null) mark(sel, "selected");
  const { next } = nextSteps();
  for (const sq of next) mark(sq, "target");
  if (steps.length) {
    // The move so far: the path drawn, the piece at its last landing square, the pieces it
    // has taken ringed.
    const pts = [sel, ...steps].map((sq) => cells.get(sq)).filter((c) => c).map(centre);
    if (sel !== null && pts.length > 1) el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "path" }, svg);
    const moving = S.position.find(([at]) => at === sel);
    const end = cells.get(steps[steps.length - 1]);
    if (moving && end) {
      const [a, b, c2, d] = end.rect;
      drawPiece(svg, moving[1], moving[2], (a + c2) / 2, (b + d) / 2, Math.min(c2 - a, d - b)).classList.add("ghost");
    }
    for (const m of ts) {
      const taken = m.captures.length === m.path.length ? m.captures.slice(0, steps.length) : m.captures;
      for (const x of taken) mark(x, "capture");
    }
  } else {
    for (const m of ts) for (const x of m.captures) mark(x, "capture");
  }
}

function handPieces(player) {
  // Pieces a player holds, and pieces its drops can place even with nothing stored.
  const kinds = new Set();
  (S.hand[player] || []).forEach((n, k) => { if (n > 0) kinds.add(k); });
  if (player === S.mover) for (const m of S.moves) if (m.drop !== null) kinds.add(m.drop);
  return [...kinds].sort((a, b) => a - b);
}

function drawHands() {
  const box = $("handlist");
  box.textContent = "";
  let any = false;
  S.players.forEach((name, p) => {
    const kinds = handPieces(p);
    if (!kinds.length) return;
    any = true;
    const row = document.createElement("div");
    row.className = "hand";
    row.append(name + ":");
    for (const k of kinds) {
      const svg = el("svg", { viewBox: "0 0 50 50", "data-hand": S.pieces[k].name, "data-player": p }, row);
      if (dropSel === k && p === S.mover) svg.classList.add("sel");
      drawPiece(svg, k, p, 25, 25, 50);
      const n = (S.hand[p] || [])[k] || 0;
      if (n > 1) { const t = el("text", { x: 48, y: 48, "text-anchor": "end", "font-size": 14, "font-weight": "bold", fill: "#c00" }, svg); t.textContent = n; }
      if (p === S.mover) svg.addEventListener("click", () => { sel = null; dropSel = dropSel === k ? null : k; drawBoard(); drawHands(); });
    }
    box.appendChild(row);
  });
  $("hands").style.display = any ? "" : "none";
}

function offer(moves, stop) {
  const box = $("choices");
  box.textContent = stop ? "Stop here, or click the next square: " : moves.length > 1 ? "Which move? " : "";
  for (const m of moves) {
    const b = document.createElement("button");
    b.textContent = m.text;
    b.addEventListener("click", () => cmd({ cmd: "move", move: m.text }));
    box.appendChild(b);
  }
}

function clickCell(sq) {
  if (!S || S.thinking) return;
  $("choices").textContent = "";
  if (sel !== null || dropSel !== null) {
    const { next } = nextSteps();
    if (next.has(sq)) {
      // One more landing square: play the move once the clicks name it; while longer moves
      // go on from here, offer the ones that end here beside the squares that continue.
      steps.push(sq);
      const after = nextSteps();
      if (after.next.size === 0 && after.done.length === 1) { cmd({ cmd: "move", move: after.done[0].text }); return; }
      if (after.done.length) offer(after.done, after.next.size > 0);
      drawBoard(); drawHands();
      return;
    }
    // A click on the last square of a move plays it at once (when only one move ends there).
    const ends = targets().filter((m) => m.to === sq);
    if (ends.length === 1) { cmd({ cmd: "move", move: ends[0].text }); return; }
    if (ends.length > 1) { offer(ends); return; }
    steps = [];
  }
  if (S.moves.some((m) => m.from === sq)) { sel = sel === sq ? null : sq; dropSel = null; drawBoard(); drawHands(); return; }
  const drops = S.moves.filter((m) => m.from === null && m.to === sq && !m.pass);
  sel = null; dropSel = null; steps = [];
  if (drops.length === 1) { cmd({ cmd: "move", move: drops[0].text }); return; }
  if (drops.length > 1) offer(drops);
  drawBoard(); drawHands();
}

function show(j, force) {
  const first = S === null;
  const gameChanged = !S || S.id !== j.id || S.variant !== j.variant || S.title !== j.title;
  S = j;
  shownVersion = j.version;
  document.title = "zrf: " + j.title;
  $("title").textContent = j.title;
  if (gameChanged || first) {
    const v = $("variant");
    v.textContent = "";
    j.variants.forEach((t, i) => { const o = document.createElement("option"); o.value = String(i + 1); o.textContent = t; v.appendChild(o); });
    const zs = $("zone");
    zs.textContent = "";
    const none = document.createElement("option"); none.value = ""; none.textContent = "none"; zs.appendChild(none);
    for (const z of j.board.zones) { const o = document.createElement("option"); o.value = z.name; o.textContent = z.name; zs.appendChild(o); }
  }
  $("variant").value = String(j.variant + 1);
  const c = $("computer");
  const want = j.computer.every((x) => x) ? "all" : j.computer.some((x) => x) ? String(j.computer.indexOf(true)) : "none";
  c.textContent = "";
  const opt = (v, t) => { const o = document.createElement("option"); o.value = v; o.textContent = t; c.appendChild(o); };
  opt("none", "none");
  j.players.forEach((p, i) => opt(String(i), p));
  opt("all", j.players.length === 2 ? "both" : "all");
  c.value = want;
  if (document.activeElement !== $("engine") && pendingEngine === null) $("engine").value = j.engine.replace(/^engine:\s*/, "");
  $("turn").textContent = j.result ? "" : j.players[j.mover] + " to move";
  $("result").textContent = j.result || "";
  $("thinking").className = j.thinking ? "on" : "";
  $("message").textContent = j.message || "";
  if (pendingEngine !== null) {
    if (j.thinking) $("message").textContent = "The engine setting “" + pendingEngine + "” applies from the next search.";
    else { const v = pendingEngine; pendingEngine = null; setTimeout(() => cmd({ cmd: "engine", setting: v }), 0); }
  }
  $("stuck").textContent = j.stuck ? "Nothing can be played: " + j.stuck + "." : "";
  $("broken").textContent = j.broken || "";
  $("broken").className = "panel" + (j.broken ? " on" : "");
  $("pass").disabled = !j.moves.some((m) => m.pass);
  $("undo").disabled = j.history.length === 0;
  $("redo").disabled = j.redo === 0;
  const n = j.players.length;
  // The moves as players write them: SAN in chess-like games, PDN in draughts.
  let h = "";
  (j.notation || j.history).forEach((m, i) => { if (i % n === 0) h += (h ? "\n" : "") + (i / n + 1) + ". "; h += m + " "; });
  $("history").textContent = h;
  $("history").scrollTop = 1e9;
  if (!editingPosition) $("position").value = j.fen || j.native;
  if (force || !sel) { /* keep the selection only while nothing changed */ }
  if (!force) { sel = null; dropSel = null; steps = []; }
  drawBoard();
  drawHands();
}

$("new").addEventListener("click", () => cmd({ cmd: "new" }));
$("undo").addEventListener("click", () => cmd({ cmd: "undo" }));
$("redo").addEventListener("click", () => cmd({ cmd: "redo" }));
$("pass").addEventListener("click", () => { const m = S && S.moves.find((x) => x.pass); if (m) cmd({ cmd: "move", move: m.text }); });
$("stop").addEventListener("click", () => cmd({ cmd: "stop" }));
$("variant").addEventListener("change", (e) => cmd({ cmd: "variant", variant: e.target.value }));
$("computer").addEventListener("change", (e) => {
  const v = e.target.value;
  cmd({ cmd: "computer", sides: S.players.map((_, i) => v === "all" || v === String(i)) });
});
// While the computer thinks the setting waits, and applies from its next search.
$("engine").addEventListener("change", (e) => {
  if (S && S.thinking) { pendingEngine = e.target.value; show(S, false); }
  else cmd({ cmd: "engine", setting: e.target.value });
});
$("labels").addEventListener("change", drawBoard);
$("flip").addEventListener("click", () => { flipped = !flipped; if (S) drawBoard(); });
$("zone").addEventListener("change", drawBoard);
$("position").addEventListener("focus", () => { editingPosition = true; });
$("position").addEventListener("blur", () => { editingPosition = false; });
$("copy").addEventListener("click", () => { const t = $("position").value; if (navigator.clipboard) navigator.clipboard.writeText(t).catch(() => {}); $("position").select(); });
$("setpos").addEventListener("click", () => { editingPosition = false; cmd({ cmd: "setup", position: $("position").value.trim() }); });

// Save: the server writes the record, the browser downloads it. Load: the chosen file's text
// is sent to the server, which replays it (a record that fails changes nothing).
$("save").addEventListener("click", async () => {
  const j = await cmd({ cmd: "save", format: $("format").value });
  if (j && j.saved) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([j.saved.text], { type: "text/plain" }));
    a.download = j.saved.name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
});
$("load").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  const text = await f.text();
  e.target.value = "";
  await cmd({ cmd: "load", name: f.name, record: text });
});

start().then(poll);
