// Perft in Dagaz (Konstantin Kamenev's JavaScript engine for ZRF-like games), for
// scripts/dagaz-diff.sh. Nothing of Dagaz is in this repository: the script fetches it.
//   node dagaz_perft.js GAME.htm DEPTH [--pure] [--dedupe] [--list] [--divide] [--moves M1,M2]
// Loads the model scripts the game's page lists (not its view, controller or AI), with the
// browser globals stubbed, and prints `D COUNT` per depth on stdout; on stderr the pieces,
// the start position in zrf's native text (`setup: ...`) and the options Dagaz did not know.
//   --pure    only Dagaz's kernel and the game's own design script: the per-game extension
//             scripts (forced captures, invariants, dice...) are left out, so the counts are
//             those of Dagaz's reading of the ZRF model alone; options the kernel does not
//             know are listed instead of failing the design
//   --dedupe  moves that Dagaz lists twice with the same actions count once (zrf's rule)
// The underscore library is taken from $UNDERSCORE.
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const args = process.argv.slice(2);
const htm = args[0];
const depth = +(args[1] || 1);
const list = args.includes('--list');
const divide = args.includes('--divide');
const dir = path.dirname(htm);

// Globals a browser page would have.
const noop = function () {};
const stubObj = () => new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => '' : (k in t ? t[k] : stubObj())),
  apply: () => stubObj(),
  construct: () => stubObj(),
});
global.window = global;
global.document = stubObj();
global.navigator = { userAgent: 'node' };
global.localStorage = { getItem: () => null, setItem: noop, removeItem: noop };
global.sessionStorage = global.localStorage;
global.Image = function () {};
global.Audio = function () { return { play: noop }; };
global.alert = noop;
global.location = { search: '', href: '', hash: '' };
window.location = global.location;
global.Canvas = stubObj();
global._ = require(process.env.UNDERSCORE || '/usr/share/javascript/underscore/underscore.js');

const html = fs.readFileSync(htm, 'latin1');
const isGame = (s) => { const f = path.resolve(dir, s); return fs.existsSync(f) && fs.readFileSync(f, 'latin1').includes('Dagaz.Model.BuildDesign'); };
const srcs = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
const pure = args.includes('--pure');
const dedupe = args.includes('--dedupe');
const skip = (s) => (pure && !/kernel\//.test(s) && !isGame(s)) || /underscore|\/view\/|\/controller\/|\/ai\/|jquery|app[-.]|-view|sound/.test(s) && !/^[^/]*-extension/.test(s);
let code = '';
const loaded = [];
for (const s of srcs) {
  if (/^https?:/.test(s)) continue;
  if (skip(s)) continue;
  const f = path.resolve(dir, s);
  if (!fs.existsSync(f)) { loaded.push('missing:' + s); continue; }
  code += fs.readFileSync(f, 'latin1') + '\n;\n';
  loaded.push(s);
}
vm.runInThisContext(code, { filename: htm });
const unknownOptions = [];
const options = [];
{
  const cv = Dagaz.Model.checkVersion;
  Dagaz.Model.checkVersion = function (design, name, value) {
    options.push(name + '=' + value);
    const was = design.failed;
    cv(design, name, value);
    if (pure && design.failed && !was) { design.failed = false; unknownOptions.push(name + '=' + value); }
  };
}

Dagaz.Model.InitGame();
const design = Dagaz.Model.getDesign();
let board0 = Dagaz.Model.getInitBoard();
if (Dagaz.Model.Done) Dagaz.Model.Done(design, board0);
const mi = args.indexOf('--moves');
const playMoves = mi >= 0 ? args[mi + 1].split(',') : [];

function gen(board) {
  if (board.dmoves) return board.dmoves;
  board.generate(design);
  let moves = Dagaz.Model.Determinate(board.moves);
  if (Dagaz.Model.PostProcessing) Dagaz.Model.PostProcessing(board, moves);
  if (dedupe) {
    const seen = new Set();
    const all = moves.length;
    moves = moves.filter((m) => { const k = m.toString(); if (seen.has(k)) return false; seen.add(k); return true; });
    if (board === root) console.error('duplicates-at-root: ' + (all - moves.length));
  }
  board.dmoves = moves;
  return moves;
}

function perft(board, d) {
  if (d === 0) return 1;
  const moves = gen(board);
  if (d === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    const b = board.apply(m);
    n += perft(b, d - 1);
  }
  return n;
}

console.error('pieces: ' + design.pieceNames.join(' ') + ' positions: ' + design.positions.length + ' players: ' + design.playerNames.slice(1).join(' '));
function setupText(board) {
  const groups = new Map();
  for (const k of Object.keys(board.pieces)) {
    const p = board.pieces[k];
    if (!p) continue;
    const key = design.playerNames[p.player] + ' ' + design.pieceNames[p.type];
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(design.positionNames[+k]);
  }
  const parts = ['turn 0', 'last - -'];
  for (const [k, v] of groups) parts.push(k + ' ' + v.join(' '));
  const r = board.reserve || {};
  for (const t of Object.keys(r)) {
    if (!r[t]) continue;
    for (const o of Object.keys(r[t])) {
      if (r[t][o] > 0) parts.push('off ' + design.playerNames[+o] + ' ' + design.pieceNames[+t] + ' ' + r[t][o]);
    }
  }
  return parts.join('; ');
}
console.error('setup: ' + setupText(board0));
console.error('unknown-options: ' + unknownOptions.join(' '));
console.error('options: ' + options.join(' '));
// Piece types a player may drop without holding any: Dagaz treats a missing count as unlimited.
const unlimited = [];
for (let t = 0; t < design.pieceNames.length; t++) {
  if (!(design.pieces[t] || []).some((m) => m.type == 1)) continue;
  for (let o = 1; o < design.playerNames.length; o++) {
    const r = board0.reserve || {};
    if (r[t] === undefined || r[t][o] === undefined) unlimited.push(design.playerNames[o] + ':' + design.pieceNames[t]);
  }
}
console.error('drops-without-count: ' + unlimited.join(' '));
for (const t of playMoves) {
  const ms = gen(board0).filter((m) => m.toString().replace(/\s+/g, '') === t.replace(/\s+/g, ''));
  if (ms.length !== 1) { console.log('no unique move ' + t + ': ' + gen(board0).map((m) => m.toString()).join(' | ')); process.exit(1); }
  board0 = board0.apply(ms[0]);
}
const root = board0;
const counts = [];
for (let d = 1; d <= depth; d++) {
  counts.push(perft(board0, d));
  console.log(d + ' ' + counts[d - 1]);
}
if (list || divide) {
  for (const m of gen(board0)) {
    const s = m.toString();
    if (divide) console.log('move ' + s + ' ' + perft(board0.apply(m), depth - 1));
    else console.log('move ' + s);
  }
}
console.error('scripts: ' + loaded.join(' ') + (design.failed ? ' DESIGN FAILED' : ''));
