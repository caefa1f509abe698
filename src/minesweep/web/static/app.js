// The page only draws what the server says the player sees; every rule is on the server.
"use strict";

const $ = (id) => document.getElementById(id);
const board = $("board");
const SYMBOLS = { "#": "", "F": "⚑", "?": "?", ".": "", "*": "✱", "X": "✱", "!": "⚑" };
const NAMES = {
  "#": "hidden", "F": "flagged", "?": "question mark", ".": "blank", "*": "mine",
  "X": "exploded mine", "!": "wrong flag",
};

const MIN_CELL = 24;      // px: the smallest square a finger can hit (WCAG 2.2, 2.5.8)

let game = null;          // the last state the server sent
let cells = [];           // the buttons, row by row
let cursor = [0, 0];
let flagMode = false;
let cellSize = 28;        // px: the squares' size, as build() fitted them to the screen
let overlay = null;       // mine probabilities, when shown
let timerBase = 0;        // elapsed seconds at the last response
let timerAt = 0;          // local time of that response
let busy = Promise.resolve();
let replaying = false;
// The signed-in account, and its session's CSRF token: the session itself is an
// HttpOnly cookie this script never sees; every write it signs in sends the token.
let account = null;
let csrf = null;

// The game's token goes in a header, never in a URL. A refused request keeps the
// server's answer: a 409 for a stale version carries the game as it is now.
// A file (a Blob) goes as its raw bytes, anything else as JSON.
async function api(method, path, body, token) {
  const headers = {};
  const file = body instanceof Blob;
  if (body) headers["Content-Type"] = file ? "application/octet-stream" : "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, {
    method, headers, body: file ? body : body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.state = data.state;
    error.status = response.status;
    throw error;
  }
  return data;
}

// A request refused because the game moved on (another tab, a retried request):
// draw the game as the server has it.
function refused(error) {
  if (error.state && !replaying) {
    game = error.state;
    paintAll();
    status();
  }
  say(error.message);
}

function say(text) { $("message").textContent = text; }

// The new-game face, as players of the classic game know it: it smiles while the game
// goes on, wears sunglasses for a win, is knocked out by a loss, and gasps while a
// button is held over the board. Its label says what it does, not what it shows.
function face(state) {
  $("face").dataset.state = state === "not won" ? "lost" : state;
}

// --- drawing -----------------------------------------------------------------------------

function build(rows, cols) {
  board.replaceChildren();
  board.removeAttribute("aria-busy");
  board.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
  // Squares fit the screen, but never below 24 px, WCAG 2.2's minimum target size
  // (2.5.8): a wider board scrolls sideways in its frame instead (style.css).
  const size = Math.max(MIN_CELL, Math.min(32, Math.floor((window.innerWidth - 40) / cols) - 1));
  cellSize = size;
  board.classList.toggle("narrow", size < 30);
  document.documentElement.style.setProperty("--cell", `${size}px`);
  cells = [];
  board.setAttribute("aria-rowcount", rows);
  board.setAttribute("aria-colcount", cols);
  for (let r = 0; r < rows; r++) {
    const line = [];
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    for (let c = 0; c < cols; c++) {
      const cell = document.createElement("div");
      cell.setAttribute("role", "gridcell");
      cell.className = "cell";
      cell.dataset.row = r;
      cell.dataset.col = c;
      cell.tabIndex = r === cursor[0] && c === cursor[1] ? 0 : -1;
      row.appendChild(cell);
      line.push(cell);
    }
    board.appendChild(row);
    cells.push(line);
  }
}

// ``odds`` is the probability grid to draw on hidden squares, or none: the caller says
// whose board it paints, so the viewer never draws the live game's overlay (issue 53).
function paint(r, c, symbol, odds = null) {
  const button = cells[r][c];
  const number = symbol >= "1" && symbol <= "8";
  button.className = "cell";
  if (number || symbol === "." || symbol === "*" || symbol === "X" || symbol === "!") button.classList.add("open");
  if (number) button.classList.add("n" + symbol);
  if (symbol === "F" || symbol === "!") button.classList.add("flag");
  if (symbol === "X") button.classList.add("exploded");
  if (symbol === "!") button.classList.add("wrong");
  let label = number ? `${symbol} ${symbol === "1" ? "mine" : "mines"} around` : NAMES[symbol];
  let text = number ? symbol : SYMBOLS[symbol];
  const p = odds && odds[r] ? odds[r][c] : null;
  if (symbol === "#" && p !== null && p !== undefined) {
    text = "";
    const span = document.createElement("span");
    span.className = "p";
    span.textContent = oddsText(p);
    button.replaceChildren(span);
    label += `, mine probability ${Math.round(p * 100)}%`;
  } else {
    button.textContent = text;
  }
  button.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}: ${label}`);
}

// The live game's board. While the viewer is open the board is the replay's: a response
// that lands then (a click sent just before) must not draw over it; closing redraws.
// A probability as a square shows it. "100%" or "safe" needs about 2.6 em, more than a
// narrow square holds at a readable size, so below 30 px the square shows the number
// alone ("100", "0"); the label always says it in full. style.css clips whatever is left.
function oddsText(p) {
  const percent = Math.round(p * 100);
  if (cellSize >= 30) return p === 0 ? "safe" : `${percent}%`;
  return String(percent);
}

function paintAll() {
  if (replaying) return;
  game.view.forEach((line, r) => [...line].forEach((symbol, c) => paint(r, c, symbol, overlay)));
}

// The bar's counters are the live game's, except while a replay is open (viewerBar).
function status() {
  if (replaying) return;
  $("left").textContent = game.mines_left;
  const node = $("status");
  node.textContent = game.status + (game.assisted ? " (assisted)" : "") + (game.seeded ? " (seeded)" : "");
  node.className = game.status;
  face(game.status);
  timerBase = game.elapsed;
  timerAt = performance.now();
  // A finished game's replay file holds its mines: offered only once it is over.
  $("download").hidden = !game.stats;
  if (game.stats) {
    const s = game.stats;
    say(`${game.status === "won" ? "Won" : "Lost"} in ${game.elapsed.toFixed(1)} s: 3BV ${s.solved_bbbv}/${s.bbbv}, ` +
        `3BV/s ${s.bbbv_per_second.toFixed(2)}, efficiency ${Math.round(s.efficiency * 100)}%` +
        (game.ranked ? " — on the leaderboard." :
         game.unranked_because === "pending review"
           ? " — pending review: an operator checks it before it ranks." :
         game.status === "won" ? ` (not ranked: ${game.unranked_because}).` : "."));
    leaderboard();
    if (game.unranked_because === "pending review") loadReviews();
  }
}

setInterval(() => {
  if (!game || replaying) return;
  const running = game.status === "playing";
  const seconds = running ? timerBase + (performance.now() - timerAt) / 1000 : timerBase;
  $("time").textContent = seconds.toFixed(0);
}, 250);

// A reveal's squares appear in the order the flood fill reaches them, one step of the
// fill at a time, like the seeds' walk-throughs: the clicked square (or, for a chord, the
// squares around it), then the neighbours of every blank opened so far. Squares no fill
// reaches (a loss shows every mine) come last, nearest first.
function animate(changed, origin, view) {
  const key = (r, c) => r * view[0].length + c;
  const pending = new Map(changed.map(([r, c]) => [key(r, c), [r, c]]));
  let next = [];
  const take = (r, c) => {
    const k = key(r, c);
    if (r >= 0 && c >= 0 && r < view.length && c < view[0].length && pending.has(k)) {
      pending.delete(k);
      next.push([r, c]);
    }
  };
  const around = (r, c, visit) => {
    for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) if (dr || dc) visit(r + dr, c + dc);
  };
  take(origin[0], origin[1]);
  if (!next.length) around(origin[0], origin[1], take);
  const steps = [];
  while (next.length) {
    const step = next;
    steps.push(step);
    next = [];
    for (const [r, c] of step) if (view[r][c] === ".") around(r, c, take);
  }
  const distance = ([r, c]) => Math.max(Math.abs(r - origin[0]), Math.abs(c - origin[1]));
  const rest = [...pending.values()].sort((a, b) => distance(a) - distance(b));
  for (const square of rest) {
    const last = steps[steps.length - 1];
    if (last && last.restDistance === distance(square)) last.push(square);
    else { const step = [square]; step.restDistance = distance(square); steps.push(step); }
  }
  const delay = steps.length > 40 ? 4 : 18;
  // The squares are drawn later: not on a board rebuilt since (a replay opened, a new game).
  const drawnOn = cells;
  steps.forEach((step, i) => setTimeout(() => {
    if (cells !== drawnOn) return;
    for (const [r, c] of step) paint(r, c, view[r][c]);
  }, i * delay));
  return steps.length * delay;
}

// --- playing -------------------------------------------------------------------------------

function start(state) {
  game = state;
  // A new game (not a reload of the same one) starts a new record of the mouse.
  if (record.id !== game.id) recordReset(game.id);
  overlay = null;
  $("overlay").setAttribute("aria-pressed", "false");
  localStorage.setItem("minesweep-game", game.id);
  cursor = [Math.floor(game.rows / 2), Math.floor(game.cols / 2)];
  build(game.rows, game.cols);
  paintAll();
  status();
  $("kind").textContent = game.kind;
  const preset = game.kind.split("/")[0];
  $("preset").value = ["beginner", "intermediate", "expert"].includes(preset) ? preset : "custom";
  $("custom").hidden = $("preset").value !== "custom";
  if ($("preset").value === "custom") {
    $("rows").value = game.rows; $("cols").value = game.cols; $("mines").value = game.mines;
  }
  $("noguess").checked = game.no_guess;
  $("rule").value = game.rule;
  leaderboard();
}

// A click names the mouse button; the server's rules say what it does on that square.
function click(button, r, c) {
  busy = busy.then(async () => {
    if (!game || game.status === "won" || game.status === "lost" || replaying) return;
    try {
      const result = await api("POST", "/api/game/actions",
        { click: button, row: r, col: c, version: game.version }, game.id);
      const before = game;
      game = result.state;
      // The page's record of the mouse goes before the result is shown: it is
      // what lets a person's win rank (the server answers the game as judged).
      if (game.status === "won" || game.status === "lost") game = await sendRecord(game);
      // "New game: click any square." (or a first-click hint) is done with.
      if (before.status === "ready" && game.status !== "ready") say("");
      for (const line of cells) for (const b of line) b.classList.remove("hinted");
      if (game.status === "lost" || game.status === "won" || before.status === "ready") {
        const wait = result.changed.length ? animate(result.changed, [r, c], game.view) : 0;
        setTimeout(paintAll, wait);
      } else if (result.changed.length) {
        animate(result.changed, [r, c], game.view);
      }
      // A finished game has no probabilities to show: the mines are there.
      if (overlay && game.status === "playing") await showOverlay();
      else if (overlay) { overlay = null; $("overlay").setAttribute("aria-pressed", "false"); paintAll(); }
      status();
      if (!result.effective && !game.stats) say("");
    } catch (error) {
      refused(error);
    }
  });
}

// Flag mode (for touch screens) makes a tap a right click.
function clickSquare(r, c, button) {
  click(flagMode && button === "left" ? "right" : button, r, c);
}

function focusCell(r, c) {
  r = Math.max(0, Math.min(game.rows - 1, r));
  c = Math.max(0, Math.min(game.cols - 1, c));
  cells[cursor[0]][cursor[1]].tabIndex = -1;
  cursor = [r, c];
  const button = cells[r][c];
  button.tabIndex = 0;
  button.focus();
}

async function showOverlay() {
  const result = await api("POST", "/api/game/hint", { version: game.version }, game.id);
  game = result.state;
  overlay = result.probabilities;
  paintAll();
  status();
  return result;
}

board.addEventListener("click", (event) => {
  const button = event.target.closest(".cell");
  if (!button || pressed.fired || replaying) return;
  const r = +button.dataset.row, c = +button.dataset.col;
  cursor = [r, c];
  clickSquare(r, c, "left");
});
board.addEventListener("auxclick", (event) => {
  const button = event.target.closest(".cell");
  if (button && event.button === 1 && !replaying) { event.preventDefault(); click("middle", +button.dataset.row, +button.dataset.col); }
});
board.addEventListener("contextmenu", (event) => {
  const button = event.target.closest(".cell");
  if (!button) return;
  event.preventDefault();
  if (!pressed.fired) click("right", +button.dataset.row, +button.dataset.col);
});

// --- the page's record of the game ------------------------------------------------------
// What the mouse did over the board, from the game's start: presses, releases and moves,
// in ms and in board pixels (squares of record.px, from the first square's top-left,
// the 1 px gaps between squares left out), sent once the game is over. A person's win
// ranks only with a record that matches its actions (see minesweep/web/trace.py). Moves
// are kept once an animation frame at most, so an expert game's record stays small.
const RECORD_MAX = 100000;  // events; the server takes 120,000
const record = { id: null, events: [], px: 16, pending: null, frame: 0, sent: false, down: new Set() };

function recordReset(id) {
  record.id = id; record.events = []; record.pending = null; record.sent = false;
  record.down = new Set();
}

// A pointer position as board pixels: the square under it, then where in that square.
function boardPoint(event) {
  const first = cells[0] && cells[0][0];
  if (!first) return null;
  const origin = first.getBoundingClientRect();
  const size = origin.width || 1;
  const pitch = cells[0].length > 1 ? cells[0][1].getBoundingClientRect().left - origin.left : size;
  record.px = Math.max(1, Math.min(255, Math.round(size)));
  const axis = (offset, step) => {
    const square = Math.floor(offset / step);
    const within = Math.min(record.px - 1, Math.floor(((offset - square * step) * record.px) / size));
    return Math.max(-32767, Math.min(32767, square * record.px + within));
  };
  return [axis(event.clientX - origin.left, pitch || size), axis(event.clientY - origin.top, pitch || size)];
}

function recordEvent(kind, event) {
  if (!game || replaying || record.id !== game.id || record.sent || record.events.length >= RECORD_MAX) return;
  if (game.status !== "ready" && game.status !== "playing" && kind === "mv") return;
  const point = boardPoint(event);
  if (!point) return;
  const ms = Math.round(event.timeStamp || performance.now());
  if (kind === "mv") {
    // The latest position, written at the next frame.
    record.pending = [ms, "mv", point[0], point[1]];
    if (!record.frame) record.frame = requestAnimationFrame(flushMove);
    return;
  }
  // A release counts only after its press was recorded (not a click begun before the game).
  if (kind[1] === "r" && !record.down.delete(kind[0])) return;
  if (kind[1] === "c") record.down.add(kind[0]);
  flushMove();
  record.events.push([ms, kind, point[0], point[1]]);
}

function flushMove() {
  record.frame = 0;
  const move = record.pending;
  record.pending = null;
  if (!move) return;
  const last = record.events[record.events.length - 1];
  if (last && last[2] === move[2] && last[3] === move[3]) return;
  if (last && move[0] < last[0]) move[0] = last[0];
  record.events.push(move);
}

const BUTTON_KINDS = { 0: "l", 1: "m", 2: "r" };
board.addEventListener("pointermove", (event) => recordEvent("mv", event), { passive: true });
// Mouse buttons by mousedown/mouseup: pointer events fire once for the first button
// down and the last up, so a chord's second button would go unseen. A release off the
// board still counts (the press was on it).
// (A tap's emulated mouse events, which follow it, are left out: the tap is recorded.)
let touchedAt = -Infinity;
const fromTouch = (event) => event.timeStamp - touchedAt < 1000;
board.addEventListener("mousedown", (event) => {
  if (BUTTON_KINDS[event.button] && !fromTouch(event)) recordEvent(`${BUTTON_KINDS[event.button]}c`, event);
});
window.addEventListener("mouseup", (event) => {
  if (BUTTON_KINDS[event.button] && !fromTouch(event)) recordEvent(`${BUTTON_KINDS[event.button]}r`, event);
});
// Touch: a tap is a press and a release (a right one in flag mode). Taps have no cursor
// between them, so a touch game's record shows no hand's path and does not rank.
board.addEventListener("pointerdown", (event) => {
  if (event.pointerType !== "touch") return;
  touchedAt = event.timeStamp;
  recordEvent(flagMode ? "rc" : "lc", event);
}, { passive: true });
board.addEventListener("pointerup", (event) => {
  if (event.pointerType !== "touch") return;
  touchedAt = event.timeStamp;
  recordEvent(flagMode ? "rr" : "lr", event);
}, { passive: true });

// The record, once: the game as the server judged it, or as it was if it was refused.
async function sendRecord(state) {
  if (record.id !== state.id || record.sent || !record.events.length) return state;
  flushMove();
  record.sent = true;
  try {
    const body = JSON.stringify({ cell_px: record.px, events: record.events });
    const response = await fetch("/api/game/trace", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${state.id}` },
      body,
    });
    const data = await response.json();
    if (response.ok) return data;
    say(`The page's record of the game was refused: ${data.error || response.statusText}`);
  } catch (error) {
    say(`The page's record of the game was not sent: ${error.message}`);
  }
  return state;
}

// Touch: a long press flags, with a ring that fills while the finger stays down.
const pressed = { timer: null, fired: false, button: null };
board.addEventListener("touchstart", (event) => {
  const button = event.target.closest(".cell");
  if (!button) return;
  pressed.fired = false;
  pressed.button = button;
  button.classList.add("pressing");
  pressed.timer = setTimeout(() => {
    pressed.fired = true;
    button.classList.remove("pressing");
    if (navigator.vibrate) navigator.vibrate(30);
    click("right", +button.dataset.row, +button.dataset.col);
  }, 500);
}, { passive: true });
for (const name of ["touchend", "touchcancel", "touchmove"]) {
  board.addEventListener(name, () => {
    clearTimeout(pressed.timer);
    if (pressed.button) pressed.button.classList.remove("pressing");
    setTimeout(() => { pressed.fired = false; }, 50);
  }, { passive: true });
}

document.addEventListener("keydown", (event) => {
  if (replaying) { viewerKey(event); return; }
  if (!game || event.target.closest("form")) return;
  // Space and Enter on a focused control (the face, a bar button, a link) are that
  // control's own: they must not also reveal the square under the board's cursor.
  if ((event.key === " " || event.key === "Enter") &&
      event.target.closest("button, a, summary, input, select")) return;
  const [r, c] = cursor;
  const moves = { ArrowUp: [-1, 0], k: [-1, 0], ArrowDown: [1, 0], j: [1, 0],
                  ArrowLeft: [0, -1], h: [0, -1], ArrowRight: [0, 1], l: [0, 1] };
  if (moves[event.key]) { focusCell(r + moves[event.key][0], c + moves[event.key][1]); event.preventDefault(); return; }
  if (event.key === " " || event.key === "Enter") { clickSquare(r, c, "left"); event.preventDefault(); }
  else if (event.key === "f") click("right", r, c);
  else if (event.key === "c") click("middle", r, c);
  else if (event.key === "i" || event.key === "H") $("hint").click();
  else if (event.key === "u") $("undo").click();
});

// Every request that needs the game's version waits its turn, so a quick
// space-then-u sends the undo with the version the reveal left.
function queued(work) {
  return () => { busy = busy.then(work); };
}

$("hint").addEventListener("click", queued(async () => {
  if (!game || replaying) return;
  try {
    const result = await api("POST", "/api/game/hint", { version: game.version }, game.id);
    game = result.state;
    const h = result.hint;
    for (const line of cells) for (const b of line) b.classList.remove("hinted");
    cells[h.row][h.col].classList.add("hinted");
    focusCell(h.row, h.col);
    // The server words the reason in the page's numbering (rows and columns from 1).
    say(`Hint: ${h.reason}.`);
    status();
  } catch (error) { refused(error); }
}));

$("overlay").addEventListener("click", queued(async () => {
  if (!game || replaying) return;
  if (overlay) {
    overlay = null;
    $("overlay").setAttribute("aria-pressed", "false");
    paintAll();
    return;
  }
  try {
    await showOverlay();
    $("overlay").setAttribute("aria-pressed", "true");
  } catch (error) { refused(error); }
}));

$("undo").addEventListener("click", queued(async () => {
  if (!game || replaying) return;
  try {
    game = await api("POST", "/api/game/undo", { version: game.version }, game.id);
    paintAll();
    status();
    say("Undone.");
  } catch (error) { refused(error); }
}));

$("face").addEventListener("click", () => $("setup").requestSubmit());
// The gasp while a button is down over a square of a game still going (not a replay's).
board.addEventListener("mousedown", (event) => {
  if (event.button === 0 && !replaying && game && (game.status === "ready" || game.status === "playing") &&
      event.target.closest(".cell:not(.open)")) face("press");
});
window.addEventListener("mouseup", () => {
  if ($("face").dataset.state === "press") face(replaying || !game ? "ready" : game.status);
});

$("flagmode").addEventListener("click", () => {
  flagMode = !flagMode;
  $("flagmode").setAttribute("aria-pressed", String(flagMode));
});

$("theme").addEventListener("click", () => {
  const root = document.documentElement;
  const dark = root.classList.contains("dark") ||
    (!root.classList.contains("light") && matchMedia("(prefers-color-scheme: dark)").matches);
  root.classList.toggle("dark", !dark);
  root.classList.toggle("light", dark);
  localStorage.setItem("minesweep-theme", dark ? "light" : "dark");
});

$("preset").addEventListener("change", () => { $("custom").hidden = $("preset").value !== "custom"; });

$("setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  // Signed in, the game is the account's (the cookie says whose); a guest's has no name.
  const body = { rule: $("rule").value, no_guess: $("noguess").checked };
  if ($("preset").value === "custom") {
    body.rows = +$("rows").value; body.cols = +$("cols").value; body.mines = +$("mines").value;
  } else {
    body.preset = $("preset").value;
  }
  try {
    let state, note = "";
    try {
      state = await api("POST", "/api/games", body);
    } catch (error) {
      // The session ended (the answer cleared its cookie): the game is a guest's.
      if (error.status !== 401 || !account) throw error;
      showAccount(null);
      state = await api("POST", "/api/games", body);
      note = " (Your session ended: this game is a guest's; sign in again to rank.)";
    }
    closeViewer(false);
    start(state);
    say("New game: click any square." + note);
    focusCell(cursor[0], cursor[1]);
  } catch (error) { say(error.message); }
});

// --- leaderboards and replays -----------------------------------------------------------

// The leaderboard of the game's kind, or of ``kind`` (a record an operator just confirmed).
async function leaderboard(kind = game && game.kind) {
  if (!kind) return;
  try {
    const data = await api("GET", `/api/leaderboards/${kind}`);
    $("kind").textContent = kind;
    const list = $("leaderboard");
    list.replaceChildren();
    // An empty leaderboard is a sentence, not a list with one line numbered 1.
    list.hidden = !data.scores.length;
    $("noscores").hidden = data.scores.length > 0;
    for (const score of data.scores) {
      const item = document.createElement("li");
      const link = document.createElement("button");
      link.type = "button";
      link.className = "link";
      link.textContent = `${score.name}: ${score.seconds.toFixed(2)} s, 3BV ${score.bbbv}, ` +
        `wins ${Math.round(score.win_rate * 100)}% of ${score.games}`;
      link.title = "Watch the replay";
      link.addEventListener("click", () => replay(score.replay));
      item.appendChild(link);
      list.appendChild(item);
    }
  } catch (error) { /* not on a preset: no leaderboard */ }
}

// The server steps the game and sends the view before the first action and after each;
// the viewer plays each view at its action's time, then goes back to the player's game
// (pausing it instead lets the replay be stepped through).
async function replay(publicId) {
  const data = await api("GET", `/api/replays/${publicId}`);
  const seconds = (data.seconds || 0).toFixed(2);
  const frames = data.history.map((step, i) => ({
    view: i, time: step.time, square: squareOf(step.action), note: actionNote(step, i),
  }));
  const end = data.history.length ? data.history[data.history.length - 1].time : 0;
  frames.push({ view: data.views.length - 1, time: end, square: null,
                note: [["End", `${data.name}: ${seconds} s`]] });
  const closed = openViewer({
    title: `Replay: ${data.name}, ${seconds} s${data.bbbv ? `, 3BV ${data.bbbv}` : ""}.`,
    unit: "Action", rows: data.rows, cols: data.cols, mines: data.mines, views: data.views, frames,
    evf: `/api/replays/${publicId}.evf`, closeAtEnd: true,
  });
  say(`Replay: ${data.name}, ${seconds} s.`);
  play();
  await closed;
}

const ACTIONS = { O: "Reveal", F: "Flag", U: "Unflag", Q: "Question mark", C: "Chord" };

function squareOf(action) {
  const found = /^[A-Z](\d+),(\d+)$/.exec(action);
  return found ? [+found[1], +found[2]] : null;
}

// Rows and columns count from 1 on the page, as its labels do.
const place = (r, c) => `row ${r + 1}, column ${c + 1}`;

function actionNote(step, i) {
  const square = squareOf(step.action);
  const what = ACTIONS[step.action[0]] || step.action;
  return [
    ["Action", `${i + 1}: ${what}${square ? " at " + place(...square) : ""}`],
    ["Time", `${step.time.toFixed(3)} s`],
  ];
}

// --- the replay viewer --------------------------------------------------------------------
// One viewer for a ranked game's replay and for an uploaded replay file. Frame i is the
// board just before action (or click) i, its square marked; the last frame is the board at
// the end. As everywhere, the page draws only what the server sent.

// The viewer's state is its own: its board, its mines, its frames. Nothing of the live
// game (its overlay, its counters, its clock) is read or drawn while it is open.
const viewer = {
  frames: [], views: [], at: 0, unit: "Click", shown: null, marked: null, timer: null,
  done: null, closeAtEnd: false, mines: null,
};

function openViewer({ title, unit, rows, cols, mines, views, frames, evf, stats, closeAtEnd }) {
  closeViewer(false);
  replaying = true;
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
function closeViewer(restore = true, message = "") {
  if (!replaying) return;
  pause();
  replaying = false;
  $("viewer").hidden = true;
  if (restore && game) {
    build(game.rows, game.cols);
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
  if (viewer.marked) cells[viewer.marked[0]][viewer.marked[1]].classList.remove("clicked");
  viewer.marked = frame.square;
  if (frame.square) cells[frame.square[0]][frame.square[1]].classList.add("clicked");
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
function play() {
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

function viewerKey(event) {
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

// --- replay files -------------------------------------------------------------------------

const percent = (p) => `${(p * 100).toFixed(p > 0 && p < 0.001 ? 3 : 1)}%`;
const KINDS = { left: "Left click", right: "Right click", double: "Chord (double click)" };
const EFFECTS = {
  nothing: "changed nothing", flag: "placed a flag", unflag: "took a flag away",
  open: "opened squares", chord: "chorded, opening squares", mine: "hit a mine",
};

// What the solver says of one click of a file: its chance, its kind of guess, its luck.
function clickNote(click) {
  const where = click.row >= 0 ? ` at ${place(click.row, click.col)}` : " off the board";
  const note = [
    ["Click", `${KINDS[click.kind]}${where}: ${EFFECTS[click.effect]}`],
    ["Time", `${click.time.toFixed(3)} s`],
  ];
  if (click.first) {
    note.push(["Mine chance", "0% (the first click is safe by the rules)"]);
  } else if (click.judged) {
    note.push(["Mine chance", click.mine_chance === null ? "not counted" : percent(click.mine_chance)]);
    let verdict = "not counted";
    if (click.certain) verdict = click.by_counting ? "certain, by counting (no single number shows it)" : "certain";
    else if (click.guess) {
      verdict = "guess" + (click.avoidable ? ", avoidable: a certainly safe square was left" :
        click.forced ? ", forced: no square was certainly safe" : "");
      if (click.fifty_fifty) verdict += ", a 50-50";
      if (click.grade === "best") verdict += "; the best guess (no square was less risky)";
      else if (click.grade === "forced") verdict += "; no choice (every square was as risky)";
      else if (click.grade === "worse" && click.over_best !== null) {
        verdict += `; ${percent(click.over_best)} riskier than the best guess`;
      }
    }
    note.push(["Verdict", verdict]);
    if (click.lowest_chance !== null) {
      note.push(["Board", `lowest mine chance ${percent(click.lowest_chance)}, ` +
        `${click.safe_squares} certainly safe square${click.safe_squares === 1 ? "" : "s"}`]);
    }
  } else {
    note.push(["Verdict", "not judged: the click opened nothing"]);
  }
  // Luck: -log10 of the chance of surviving the click, summed over the game so far.
  const pluck = click.pluck === null ? "∞" : click.pluck.toFixed(3);
  if (click.judged) {
    const luck = click.luck === null ?
      (click.effect === "mine" ? "∞ (the click hit a mine)" : "not counted") : click.luck.toFixed(3);
    note.push(["Luck", `${luck} (the game so far: ${pluck})`]);
  } else {
    note.push(["Luck", `the game so far: ${pluck}`]);
  }
  return note;
}

const number = (value, digits = 2) => (value === null || value === undefined ? "–" :
  Number.isInteger(value) ? String(value) : value.toFixed(digits));

// An uploaded file's analysis, or a record under review's (the same answer): ``what``
// says which in the message line.
function watchFile(data, name, what = "Replay file") {
  const s = data.summary;
  const frames = data.clicks.map((click) => ({
    view: click.view, time: click.time,
    square: click.row >= 0 ? [click.row, click.col] : null, note: clickNote(click),
  }));
  const end = data.clicks.length ? data.clicks[data.clicks.length - 1].time : 0;
  const result = s.won ? "won" : "not won";
  frames.push({ view: data.views.length - 1, time: end, square: null,
                note: [["End", `${result} in ${number(s.rtime, 3)} s`]] });
  const who = data.player || "anonymous";
  const headline = `${result} in ${number(s.rtime, 3)} s · 3BV ${number(s.bbbv_solved)}/` +
    `${number(s.bbbv)} · 3BV/s ${number(s.bbbv_s)} · clicks ${number(s.cl)} ` +
    `(${number(s.ce)} effective) · IOE ${number(s.ioe)}`;
  const checks = s.checks.length ? s.checks : ["The file's claims agree with its board."];
  say(`${what}: ${name}, ${who}. Step with ← and →.`);
  return openViewer({
    title: `${name}: ${who}, ${data.format.toUpperCase()}, ${data.rows}×${data.cols}, ` +
      `${data.mines} mines`,
    unit: "Click", rows: data.rows, cols: data.cols, mines: data.mines, views: data.views, frames,
    stats: { headline, checks, all: s }, closeAtEnd: false,
  });
}

$("replayfile").addEventListener("change", async () => {
  const input = $("replayfile");
  const file = input.files[0];
  if (!file) return;
  say(`Reading ${file.name}…`);
  try {
    const data = await api("POST", `/api/replay-files?name=${encodeURIComponent(file.name)}`, file);
    watchFile(data, file.name);
  } catch (error) {
    say(`${error.message}`);
  }
  input.value = "";  // the same file can be chosen again
});

// A finished game's replay, for Metasweeper and the other replay programs. The token goes
// in a header, so the file is fetched, then saved from memory.
$("download").addEventListener("click", async () => {
  if (!game || !game.stats) return;
  try {
    const response = await fetch("/api/game.evf", { headers: { Authorization: `Bearer ${game.id}` } });
    if (!response.ok) throw new Error((await response.json()).error || response.statusText);
    const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = named ? named[1] : "minesweep.evf";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (error) { say(error.message); }
});

// --- the account ----------------------------------------------------------------------------
// Only an account's games rank. localStorage remembers that this browser signed in, so a
// guest's page never asks the server who it is.

function showAccount(data) {
  account = data ? data.account : null;
  csrf = data ? data.csrf_token : null;
  if (account) localStorage.setItem("minesweep-account", "1");
  else localStorage.removeItem("minesweep-account");
  $("whoami").textContent = account ?
    `Signed in as ${account.name}${account.bot ? " (a bot's account)" : ""}: your games rank.` :
    "Playing as a guest: only an account's games rank.";
  $("signout").hidden = !account;
  $("signin").hidden = !!account;
  $("manage").hidden = !account;
  loadReviews();
}

// Each account form says what happened in the message line, and empties its passwords.
function accountForm(id, work) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    try { say(await work()); } catch (error) { say(error.message); }
    for (const input of $(id).querySelectorAll("input[type=password]")) input.value = "";
  });
}

async function signIn(path) {
  const data = await api("POST", path, { name: $("accountname").value, password: $("password").value });
  showAccount(data);
  $("password").value = "";
  return `Signed in as ${data.account.name}: your next game ranks.`;
}

accountForm("signin", () => signIn("/api/session"));
$("register").addEventListener("click", async () => {
  if (!$("signin").reportValidity()) return;
  try { say(await signIn("/api/accounts")); } catch (error) { say(error.message); }
});
$("signout").addEventListener("click", async () => {
  try { await api("DELETE", "/api/session"); } catch (error) { /* already over */ }
  showAccount(null);
  say("Signed out: you play as a guest.");
});
accountForm("rename", async () => {
  const data = await api("POST", "/api/account/name", { name: $("newname").value });
  showAccount(data);
  $("newname").value = "";
  leaderboard();
  return `Renamed: your games and records are ${data.account.name}'s now.`;
});
accountForm("changepassword", async () => {
  await api("POST", "/api/account/password",
    { password: $("oldpassword").value, new_password: $("newpassword").value });
  return "Password changed: every other session is signed out.";
});
accountForm("deleteaccount", async () => {
  const data = await api("DELETE", "/api/account", { password: $("deletepassword").value });
  showAccount(null);
  leaderboard();
  return data.message;
});

async function loadAccount() {
  if (!localStorage.getItem("minesweep-account")) return;
  try { showAccount(await api("GET", "/api/account")); } catch (error) { showAccount(null); }
}

// --- records under review -------------------------------------------------------------------
// A win that would enter a board's top 10, or is faster than its review threshold, ranks only
// once an operator has watched it (minesweep/web/review.py). The panel shows an operator every
// record waiting, each with its replay (the solver's verdict on every click), Confirm, and
// Void with a reason; and shows every signed-in player their own records held: pending,
// confirmed, or voided with the operator's reason. Guests see no panel.

const reviews = { pending: [], mine: [], watching: null, loading: 0 };

async function loadReviews() {
  const panel = $("reviews");
  const asked = ++reviews.loading;
  if (!account) {
    // Signed out: nothing of the last account's records stays on the page.
    reviews.pending = []; reviews.mine = [];
    drawReviews();
    panel.hidden = true;
    panel.open = false;
    return;
  }
  let pending = [], mine = [];
  try {
    [pending, mine] = await Promise.all([
      account.operator ? api("GET", "/api/reviews").then((data) => data.records) : [],
      api("GET", "/api/account/reviews").then((data) => data.records),
    ]);
  } catch (error) { /* signed out meanwhile, or limited: shown as it was */ return; }
  if (asked !== reviews.loading) return;  // a later load is on its way
  reviews.pending = pending; reviews.mine = mine;
  drawReviews();
}

const seconds = (value) => `${value.toFixed(2)} s`;
const recordName = (entry) => `${entry.name}'s ${entry.kind} record, ${seconds(entry.seconds)}`;

function drawReviews() {
  const operator = !!(account && account.operator);
  $("reviews").hidden = !account || (!operator && !reviews.mine.length);
  $("reviewcount").textContent = operator ? ` (${reviews.pending.length} waiting)` :
    reviews.mine.some((entry) => entry.state === "pending") ? " (yours pending)" : "";
  $("operatorreviews").hidden = !operator;
  const list = $("pendinglist");
  list.replaceChildren(...reviews.pending.map(pendingItem));
  $("nopending").hidden = reviews.pending.length > 0;
  $("myreviews").hidden = !reviews.mine.length;
  $("minelist").replaceChildren(...reviews.mine.map(mineItem));
}

// What a record is, in one line: board, player, time, 3BV and 3BV/s.
function recordLine(entry, withName) {
  const line = document.createElement("p");
  line.className = "record";
  const parts = [entry.kind, ...(withName ? [entry.name] : []), seconds(entry.seconds),
    `3BV ${entry.bbbv}`, `${entry.bbbv_per_second.toFixed(2)} 3BV/s`];
  line.textContent = parts.join(" · ");
  return line;
}

function watchButton(entry) {
  const watch = document.createElement("button");
  watch.type = "button";
  watch.textContent = "Watch";
  watch.setAttribute("aria-label", `Watch the replay of ${recordName(entry)}`);
  watch.addEventListener("click", () => watchRecord(entry));
  return watch;
}

// An operator's item: the record, why it is held, its replay, Confirm, and Void with a reason.
function pendingItem(entry) {
  const item = document.createElement("li");
  item.dataset.record = entry.public_id;
  const why = document.createElement("p");
  why.className = "why";
  why.textContent = `Held: ${entry.why}.`;
  const confirm = document.createElement("button");
  confirm.type = "button";
  confirm.className = "confirm";
  confirm.textContent = "Confirm";
  confirm.setAttribute("aria-label", `Confirm ${recordName(entry)}: it ranks`);
  confirm.addEventListener("click", () => decide(entry, { verdict: "confirm" }));
  const form = document.createElement("form");
  form.className = "void";
  form.setAttribute("aria-label", `Void ${recordName(entry)}`);
  const label = document.createElement("label");
  label.textContent = "Reason ";
  const reason = document.createElement("input");
  reason.required = true;
  reason.maxLength = 200;
  reason.autocomplete = "off";
  reason.placeholder = "what the player will read";
  label.appendChild(reason);
  const voidButton = document.createElement("button");
  voidButton.type = "submit";
  voidButton.textContent = "Void";
  voidButton.setAttribute("aria-label", `Void ${recordName(entry)} (give a reason)`);
  form.append(label, voidButton);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = reason.value.trim();
    if (!text) { reason.value = ""; form.reportValidity(); return; }
    decide(entry, { verdict: "void", reason: text });
  });
  const actions = document.createElement("div");
  actions.className = "actions";
  actions.append(watchButton(entry), confirm, form);
  item.append(recordLine(entry, true), why, actions);
  return item;
}

// A player's own item: the record and what became of it (a voided one says why).
function mineItem(entry) {
  const item = document.createElement("li");
  item.dataset.record = entry.public_id;
  item.dataset.state = entry.state;
  const state = document.createElement("p");
  state.className = `state ${entry.state}`;
  state.textContent = entry.state === "pending" ? "Pending review: an operator checks it before it ranks." :
    entry.state === "confirmed" ? "Confirmed: it is on the leaderboard." :
    `Voided: ${entry.reason || "no reason given"}`;
  const actions = document.createElement("div");
  actions.className = "actions";
  actions.append(watchButton(entry));
  item.append(recordLine(entry, false), state, actions);
  return item;
}

// The record's replay, in the viewer: the page's record of the mouse, with the exact solver's
// verdict on every click, as an uploaded file's.
async function watchRecord(entry) {
  say(`Opening ${recordName(entry)}…`);
  try {
    const data = await api("GET", `/api/reviews/${entry.public_id}`);
    reviews.watching = entry.public_id;
    const closed = watchFile(data, `${entry.kind} record`, "Record under review");
    await closed;
  } catch (error) {
    say(error.message);
  } finally {
    if (reviews.watching === entry.public_id) reviews.watching = null;
  }
}

async function decide(entry, decision) {
  try {
    const decided = await api("POST", `/api/reviews/${entry.public_id}`, decision);
    if (reviews.watching === entry.public_id) closeViewer(true);
    say(decided.state === "confirmed" ?
      `Confirmed ${recordName(entry)}: it is on the leaderboard.` :
      `Voided ${recordName(entry)}: its player reads why.`);
    if (decided.state === "confirmed") leaderboard(entry.kind);
  } catch (error) {
    say(`${recordName(entry)}: ${error.message}`);
  }
  await loadReviews();
}

$("reviewsrefresh").addEventListener("click", () => loadReviews());

// --- start ------------------------------------------------------------------------------

(async () => {
  const theme = localStorage.getItem("minesweep-theme");
  if (theme) document.documentElement.classList.add(theme);
  await loadAccount();
  const saved = localStorage.getItem("minesweep-game");
  if (saved) {
    try { start(await api("GET", "/api/game", null, saved)); return; } catch (error) { /* gone */ }
  }
  $("setup").requestSubmit();
})();
