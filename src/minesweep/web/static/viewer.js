// The replay viewer: one for a ranked game's replay, an uploaded replay file and a record
// under review. While it is open the board is the replay's; closing gives the game back.

import { build, paint, paintAll } from "./drawing.js";
import { status } from "./play.js";
import { $, face, page, say } from "./shared.js";

// One viewer for a ranked game's replay and for an uploaded replay file. Frame i is the
// board just before action (or click) i, its square marked; the last frame is the board at
// the end. As everywhere, the page draws only what the server sent.

// The viewer's state is its own: its board, its mines, its frames. Nothing of the live
// game (its overlay, its counters, its clock) is read or drawn while it is open.
const viewer = {
  frames: [], views: [], at: 0, unit: "Click", shown: null, marked: null, timer: null,
  done: null, closeAtEnd: false, mines: null,
};

export function openViewer({ title, unit, rows, cols, mines, views, frames, evf, stats, closeAtEnd }) {
  closeViewer(false);
  page.replaying = true;
  Object.assign(viewer, {
    frames, views, unit, at: 0, shown: null, marked: null, closeAtEnd,
    mines: Number.isInteger(mines) ? mines : null,
  });
  build(rows, cols);
  $("viewer").hidden = false;
  $("viewertitle").textContent = title;
  $("evflink").hidden = !evf;
  if (evf) $("evflink").href = evf;
  showStats(stats);
  showFrame(0);
  return new Promise((resolve) => { viewer.done = resolve; });
}

// Back to the player's game (when ``restore`` and there is one), its board theirs again.
export function closeViewer(restore = true, message = "") {
  if (!page.replaying) return;
  pause();
  page.replaying = false;
  $("viewer").hidden = true;
  if (restore && page.game) {
    build(page.game.rows, page.game.cols);
    paintAll();
    status();
  }
  if (message) say(message);
  const done = viewer.done;
  viewer.done = null;
  if (done) done();
}

// Only the squares that differ from the board shown are painted again.
function drawView(view) {
  view.forEach((line, r) => {
    const before = viewer.shown && viewer.shown[r];
    for (let c = 0; c < line.length; c++) if (!before || before[c] !== line[c]) paint(r, c, line[c]);
  });
  viewer.shown = view;
}

function showFrame(i) {
  const last = viewer.frames.length - 1;
  i = Math.max(0, Math.min(last, i));
  viewer.at = i;
  const frame = viewer.frames[i];
  drawView(viewer.views[frame.view]);
  if (viewer.marked) page.cells[viewer.marked[0]][viewer.marked[1]].classList.remove("clicked");
  viewer.marked = frame.square;
  if (frame.square) page.cells[frame.square[0]][frame.square[1]].classList.add("clicked");
  $("frame").textContent = i < last ? `${viewer.unit} ${i + 1} of ${last}` :
    `End, after ${last} ${viewer.unit.toLowerCase()}${last === 1 ? "" : "s"}`;
  viewerBar(i, last);
  $("first").disabled = $("prev").disabled = i === 0;
  $("next").disabled = $("last").disabled = i === last;
  const note = $("note");
  note.replaceChildren();
  for (const [term, text] of frame.note) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    note.append(dt, dd);
  }
}

// The bar while a replay is open: the replay's mines left (its mines less its flags), its
// clock and its state at the frame shown. Frame i appears when action i - 1 was done (see
// play()), so its clock reads that action's time: 0 before the first. The live game's
// download is hidden (it is not this board's file); closing the viewer redraws the bar.
function viewerBar(i, last) {
  const frames = viewer.frames;
  const view = viewer.views[frames[i].view];
  let flags = 0, covered = 0, exploded = false;
  for (const line of view) {
    for (const symbol of line) {
      if (symbol === "F" || symbol === "!") flags++;
      if (symbol === "#" || symbol === "F" || symbol === "?" || symbol === "*") covered++;
      if (symbol === "X") exploded = true;
    }
  }
  $("left").textContent = viewer.mines === null ? "–" : String(viewer.mines - flags);
  $("time").textContent = i > 0 ? Math.max(0, frames[i - 1].time).toFixed(0) : "0";
  // Won: every safe square open, as the rules say; the file's own claim is in its checks.
  const state = exploded ? "lost" : i === 0 ? "ready" :
    i === last && covered === viewer.mines ? "won" : i === last ? "not won" : "playing";
  const node = $("status");
  node.textContent = `replay: ${state}`;
  node.className = state === "not won" ? "lost" : state;
  face(state);
  $("download").hidden = true;
}

// Plays from the frame shown, each board at its time; from the start if at the end.
export function play() {
  if (viewer.timer !== null) { pause(); return; }
  const last = viewer.frames.length - 1;
  if (viewer.at >= last) showFrame(0);
  $("play").setAttribute("aria-pressed", "true");
  $("play").textContent = "Pause";
  const frames = viewer.frames;
  const from = viewer.at > 0 ? frames[viewer.at - 1].time : Math.min(0, frames[0].time);
  const t0 = performance.now() - from * 1000;
  const tick = () => {
    if (viewer.at >= last) {
      pause();
      if (viewer.closeAtEnd) closeViewer(true, "Replay over: back to your game.");
      return;
    }
    const wait = frames[viewer.at].time * 1000 - (performance.now() - t0);
    viewer.timer = setTimeout(() => { showFrame(viewer.at + 1); tick(); }, Math.max(0, wait));
  };
  tick();
}

function pause() {
  clearTimeout(viewer.timer);
  viewer.timer = null;
  $("play").setAttribute("aria-pressed", "false");
  $("play").textContent = "Play";
}

function step(to) {
  pause();
  showFrame(to);
}

$("first").addEventListener("click", () => step(0));
$("prev").addEventListener("click", () => step(viewer.at - 1));
$("next").addEventListener("click", () => step(viewer.at + 1));
$("last").addEventListener("click", () => step(viewer.frames.length - 1));
$("play").addEventListener("click", () => play());
$("close").addEventListener("click", () => closeViewer(true, "Back to your game."));

export function viewerKey(event) {
  if (event.target.closest("form, input, select, textarea")) return;
  const moves = { ArrowLeft: -1, h: -1, ArrowRight: 1, l: 1 };
  if (moves[event.key]) step(viewer.at + moves[event.key]);
  else if (event.key === "Home") step(0);
  else if (event.key === "End") step(viewer.frames.length - 1);
  else if (event.key === "Escape") closeViewer(true, "Back to your game.");
  else return;
  event.preventDefault();
}

// The statistics beside the board: a headline, the file's checks, and every statistic.
function showStats(stats) {
  $("headline").textContent = stats ? stats.headline : "";
  const checks = $("checks");
  checks.replaceChildren();
  checks.hidden = !stats || !stats.checks;
  for (const text of (stats && stats.checks) || []) {
    const item = document.createElement("li");
    item.textContent = text;
    checks.appendChild(item);
  }
  const list = $("statlist");
  list.replaceChildren();
  $("allstats").hidden = !stats || !stats.all;
  for (const [key, value] of Object.entries((stats && stats.all) || {})) {
    if (key === "checks") continue;
    const dt = document.createElement("dt");
    dt.textContent = key;
    const dd = document.createElement("dd");
    dd.textContent = value === null ? "–" : typeof value === "number" && !Number.isInteger(value) ?
      String(+value.toFixed(4)) : String(value);
    list.append(dt, dd);
  }
}
