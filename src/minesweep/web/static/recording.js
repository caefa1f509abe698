// The page's record of the game: what the mouse did over the board, sent once the game is over.

import { board, page, say } from "./shared.js";

// What the mouse did over the board, from the game's start: presses, releases and moves,
// in ms and in board pixels (squares of record.px, from the first square's top-left,
// the 1 px gaps between squares left out), sent once the game is over. A person's win
// ranks only with a record that matches its actions (see minesweep/web/trace.py). Moves
// are kept once an animation frame at most, so an expert game's record stays small.
const RECORD_MAX = 100000;  // events; the server takes 120,000
export const record = { id: null, events: [], px: 16, pending: null, frame: 0, sent: false, down: new Set() };

export function recordReset(id) {
  record.id = id; record.events = []; record.pending = null; record.sent = false;
  record.down = new Set();
}

// A pointer position as board pixels: the square under it, then where in that square.
function boardPoint(event) {
  const first = page.cells[0] && page.cells[0][0];
  if (!first) return null;
  const origin = first.getBoundingClientRect();
  const size = origin.width || 1;
  const pitch = page.cells[0].length > 1 ? page.cells[0][1].getBoundingClientRect().left - origin.left : size;
  record.px = Math.max(1, Math.min(255, Math.round(size)));
  const axis = (offset, step) => {
    const square = Math.floor(offset / step);
    const within = Math.min(record.px - 1, Math.floor(((offset - square * step) * record.px) / size));
    return Math.max(-32767, Math.min(32767, square * record.px + within));
  };
  return [axis(event.clientX - origin.left, pitch || size), axis(event.clientY - origin.top, pitch || size)];
}

function recordEvent(kind, event) {
  if (!page.game || page.replaying || record.id !== page.game.id || record.sent || record.events.length >= RECORD_MAX) return;
  if (page.game.status !== "ready" && page.game.status !== "playing" && kind === "mv") return;
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
  recordEvent(page.flagMode ? "rc" : "lc", event);
}, { passive: true });
board.addEventListener("pointerup", (event) => {
  if (event.pointerType !== "touch") return;
  touchedAt = event.timeStamp;
  recordEvent(page.flagMode ? "rr" : "lr", event);
}, { passive: true });

// The record, once: the game as the server judged it, or as it was if it was refused.
export async function sendRecord(state) {
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
