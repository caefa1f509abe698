// Playing: the live game's bar and clock, clicks and keys sent to the server, the buttons
// beside the board (hint, probabilities, undo, the face, flag mode, theme), a new game,
// and a finished game's download.

// recording.js first: its listeners on the board's mousedown and the window's mouseup
// then come before this file's, in the order they had in one script.
import { record, recordReset, sendRecord } from "./recording.js";
import { showAccount } from "./accounts.js";
import { animate, build, paintAll } from "./drawing.js";
import { leaderboard } from "./replays.js";
import { loadReviews } from "./reviews.js";
import { $, api, board, face, page, say } from "./shared.js";
import { closeViewer, viewerKey } from "./viewer.js";

// A request refused because the game moved on (another tab, a retried request):
// draw the game as the server has it.
function refused(error) {
  if (error.state && !page.replaying) {
    page.game = error.state;
    paintAll();
    status();
  }
  say(error.message);
}

// The bar's counters are the live game's, except while a replay is open (viewerBar).
export function status() {
  if (page.replaying) return;
  $("left").textContent = page.game.mines_left;
  const node = $("status");
  node.textContent = page.game.status + (page.game.assisted ? " (assisted)" : "") + (page.game.seeded ? " (seeded)" : "");
  node.className = page.game.status;
  face(page.game.status);
  page.timerBase = page.game.elapsed;
  page.timerAt = performance.now();
  // A finished game's replay file holds its mines: offered only once it is over.
  $("download").hidden = !page.game.stats;
  if (page.game.stats) {
    const s = page.game.stats;
    say(`${page.game.status === "won" ? "Won" : "Lost"} in ${page.game.elapsed.toFixed(1)} s: 3BV ${s.solved_bbbv}/${s.bbbv}, ` +
        `3BV/s ${s.bbbv_per_second.toFixed(2)}, efficiency ${Math.round(s.efficiency * 100)}%` +
        (page.game.ranked ? " — on the leaderboard." :
         page.game.unranked_because === "pending review"
           ? " — pending review: an operator checks it before it ranks." :
         page.game.status === "won" ? ` (not ranked: ${page.game.unranked_because}).` : "."));
    leaderboard();
    if (page.game.unranked_because === "pending review") loadReviews();
  }
}

setInterval(() => {
  if (!page.game || page.replaying) return;
  const running = page.game.status === "playing";
  const seconds = running ? page.timerBase + (performance.now() - page.timerAt) / 1000 : page.timerBase;
  $("time").textContent = seconds.toFixed(0);
}, 250);

export function start(state) {
  page.game = state;
  // A new game (not a reload of the same one) starts a new record of the mouse.
  if (record.id !== page.game.id) recordReset(page.game.id);
  page.overlay = null;
  $("overlay").setAttribute("aria-pressed", "false");
  localStorage.setItem("minesweep-game", page.game.id);
  page.cursor = [Math.floor(page.game.rows / 2), Math.floor(page.game.cols / 2)];
  build(page.game.rows, page.game.cols);
  paintAll();
  status();
  $("kind").textContent = page.game.kind;
  const preset = page.game.kind.split("/")[0];
  $("preset").value = ["beginner", "intermediate", "expert"].includes(preset) ? preset : "custom";
  $("custom").hidden = $("preset").value !== "custom";
  if ($("preset").value === "custom") {
    $("rows").value = page.game.rows; $("cols").value = page.game.cols; $("mines").value = page.game.mines;
  }
  $("noguess").checked = page.game.no_guess;
  $("rule").value = page.game.rule;
  leaderboard();
}

// A click names the mouse button; the server's rules say what it does on that square.
function click(button, r, c) {
  page.busy = page.busy.then(async () => {
    if (!page.game || page.game.status === "won" || page.game.status === "lost" || page.replaying) return;
    try {
      const result = await api("POST", "/api/game/actions",
        { click: button, row: r, col: c, version: page.game.version }, page.game.id);
      const before = page.game;
      page.game = result.state;
      // The page's record of the mouse goes before the result is shown: it is
      // what lets a person's win rank (the server answers the game as judged).
      if (page.game.status === "won" || page.game.status === "lost") page.game = await sendRecord(page.game);
      // "New game: click any square." (or a first-click hint) is done with.
      if (before.status === "ready" && page.game.status !== "ready") say("");
      for (const line of page.cells) for (const b of line) b.classList.remove("hinted");
      if (page.game.status === "lost" || page.game.status === "won" || before.status === "ready") {
        const wait = result.changed.length ? animate(result.changed, [r, c], page.game.view) : 0;
        setTimeout(paintAll, wait);
      } else if (result.changed.length) {
        animate(result.changed, [r, c], page.game.view);
      }
      // A finished game has no probabilities to show: the mines are there.
      if (page.overlay && page.game.status === "playing") await showOverlay();
      else if (page.overlay) { page.overlay = null; $("overlay").setAttribute("aria-pressed", "false"); paintAll(); }
      status();
      if (!result.effective && !page.game.stats) say("");
    } catch (error) {
      refused(error);
    }
  });
}

// Flag mode (for touch screens) makes a tap a right click.
function clickSquare(r, c, button) {
  click(page.flagMode && button === "left" ? "right" : button, r, c);
}

export function focusCell(r, c) {
  r = Math.max(0, Math.min(page.game.rows - 1, r));
  c = Math.max(0, Math.min(page.game.cols - 1, c));
  page.cells[page.cursor[0]][page.cursor[1]].tabIndex = -1;
  page.cursor = [r, c];
  const button = page.cells[r][c];
  button.tabIndex = 0;
  button.focus();
}

async function showOverlay() {
  const result = await api("POST", "/api/game/hint", { version: page.game.version }, page.game.id);
  page.game = result.state;
  page.overlay = result.probabilities;
  paintAll();
  status();
  return result;
}

board.addEventListener("click", (event) => {
  const button = event.target.closest(".cell");
  if (!button || pressed.fired || page.replaying) return;
  const r = +button.dataset.row, c = +button.dataset.col;
  page.cursor = [r, c];
  clickSquare(r, c, "left");
});
board.addEventListener("auxclick", (event) => {
  const button = event.target.closest(".cell");
  if (button && event.button === 1 && !page.replaying) { event.preventDefault(); click("middle", +button.dataset.row, +button.dataset.col); }
});
board.addEventListener("contextmenu", (event) => {
  const button = event.target.closest(".cell");
  if (!button) return;
  event.preventDefault();
  if (!pressed.fired) click("right", +button.dataset.row, +button.dataset.col);
});

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
  if (page.replaying) { viewerKey(event); return; }
  if (!page.game || event.target.closest("form")) return;
  // Space and Enter on a focused control (the face, a bar button, a link) are that
  // control's own: they must not also reveal the square under the board's cursor.
  if ((event.key === " " || event.key === "Enter") &&
      event.target.closest("button, a, summary, input, select")) return;
  const [r, c] = page.cursor;
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
  return () => { page.busy = page.busy.then(work); };
}

$("hint").addEventListener("click", queued(async () => {
  if (!page.game || page.replaying) return;
  try {
    const result = await api("POST", "/api/game/hint", { version: page.game.version }, page.game.id);
    page.game = result.state;
    const h = result.hint;
    for (const line of page.cells) for (const b of line) b.classList.remove("hinted");
    page.cells[h.row][h.col].classList.add("hinted");
    focusCell(h.row, h.col);
    // The server words the reason in the page's numbering (rows and columns from 1).
    say(`Hint: ${h.reason}.`);
    status();
  } catch (error) { refused(error); }
}));

$("overlay").addEventListener("click", queued(async () => {
  if (!page.game || page.replaying) return;
  if (page.overlay) {
    page.overlay = null;
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
  if (!page.game || page.replaying) return;
  try {
    page.game = await api("POST", "/api/game/undo", { version: page.game.version }, page.game.id);
    paintAll();
    status();
    say("Undone.");
  } catch (error) { refused(error); }
}));

$("face").addEventListener("click", () => $("setup").requestSubmit());
// The gasp while a button is down over a square of a game still going (not a replay's).
board.addEventListener("mousedown", (event) => {
  if (event.button === 0 && !page.replaying && page.game && (page.game.status === "ready" || page.game.status === "playing") &&
      event.target.closest(".cell:not(.open)")) face("press");
});
window.addEventListener("mouseup", () => {
  if ($("face").dataset.state === "press") face(page.replaying || !page.game ? "ready" : page.game.status);
});

$("flagmode").addEventListener("click", () => {
  page.flagMode = !page.flagMode;
  $("flagmode").setAttribute("aria-pressed", String(page.flagMode));
});

$("theme").addEventListener("click", () => {
  const root = document.documentElement;
  const dark = root.classList.contains("dark") ||
    (!root.classList.contains("light") && matchMedia("(prefers-color-scheme: dark)").matches);
  root.classList.toggle("dark", !dark);
  root.classList.toggle("light", dark);
  localStorage.setItem("minesweep-theme", dark ? "light" : "dark");
  // The overlay's heat is painted per square from the skin's stops: repaint in the new skin.
  if (page.overlay) paintAll();
});
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => { if (page.overlay) paintAll(); });

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
      if (error.status !== 401 || !page.account) throw error;
      showAccount(null);
      state = await api("POST", "/api/games", body);
      note = " (Your session ended: this game is a guest's; sign in again to rank.)";
    }
    closeViewer(false);
    start(state);
    say("New game: click any square." + note);
    focusCell(page.cursor[0], page.cursor[1]);
  } catch (error) { say(error.message); }
});

// A finished game's replay, for Metasweeper and the other replay programs. The token goes
// in a header, so the file is fetched, then saved from memory.
$("download").addEventListener("click", async () => {
  if (!page.game || !page.game.stats) return;
  try {
    const response = await fetch("/api/game.evf", { headers: { Authorization: `Bearer ${page.game.id}` } });
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
