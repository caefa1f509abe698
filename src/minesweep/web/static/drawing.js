// The board: its squares built to fit the screen, each painted from the view's symbol,
// and a reveal's squares drawn in the order the flood fill reaches them.

import { board, page } from "./shared.js";

const SYMBOLS = { "#": "", "F": "⚑", "?": "?", ".": "", "*": "✱", "X": "✱", "!": "⚑" };
const NAMES = {
  "#": "hidden", "F": "flagged", "?": "question mark", ".": "blank", "*": "mine",
  "X": "exploded mine", "!": "wrong flag",
};

const MIN_CELL = 24;      // px: the smallest square a finger can hit (WCAG 2.2, 2.5.8)

export function build(rows, cols) {
  board.replaceChildren();
  board.removeAttribute("aria-busy");
  board.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
  // Squares fit the screen, but never below 24 px, WCAG 2.2's minimum target size
  // (2.5.8): a wider board scrolls sideways in its frame instead (style.css).
  const size = Math.max(MIN_CELL, Math.min(32, Math.floor((window.innerWidth - 40) / cols) - 1));
  page.cellSize = size;
  board.classList.toggle("narrow", size < 30);
  document.documentElement.style.setProperty("--cell", `${size}px`);
  page.cells = [];
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
      cell.tabIndex = r === page.cursor[0] && c === page.cursor[1] ? 0 : -1;
      row.appendChild(cell);
      line.push(cell);
    }
    board.appendChild(row);
    page.cells.push(line);
  }
}

// ``odds`` is the probability grid to draw on hidden squares, or none: the caller says
// whose board it paints, so the viewer never draws the live game's overlay (issue 53).
// ``stops`` is heatStops(), read once for a whole board rather than once a square.
export function paint(r, c, symbol, odds = null, stops = null) {
  const button = page.cells[r][c];
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
    const heat = heatColour(p, stops ?? heatStops());
    button.style.background = rgbText(heat);
    span.style.color = readableOn(heat);
    button.replaceChildren(span);
    label += `, mine probability ${Math.round(p * 100)}%`;
  } else {
    button.style.background = "";
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
  if (page.cellSize >= 30) return p === 0 ? "safe" : `${percent}%`;
  return String(percent);
}

// The heat map's three stops (safe, even, a mine) as [r, g, b]: style.css's --heat-0 to
// --heat-2 for the skin shown, which are minesweep.svg's (a test holds them to svg.py).
function heatStops() {
  const style = getComputedStyle(document.documentElement);
  return [0, 1, 2].map((i) => {
    const hex = style.getPropertyValue(`--heat-${i}`).trim();
    return [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  });
}

// The colour of a probability between the stops, mixed as svg.py's _heat_colour mixes
// it (the same double arithmetic), so the page and minesweep.svg agree to the channel.
export function heatColour(p, stops) {
  const [low, high, share] = p <= 0.5 ? [stops[0], stops[1], p * 2] : [stops[1], stops[2], p * 2 - 1];
  return low.map((a, i) => roundHalfEven(a + (high[i] - a) * share));
}

// Python's round(): a half goes to the even neighbour, where Math.round would go up.
function roundHalfEven(x) {
  const nearest = Math.round(x);
  return x - Math.floor(x) === 0.5 && nearest % 2 !== 0 ? nearest - 1 : nearest;
}

function rgbText([r, g, b]) {
  return `rgb(${r}, ${g}, ${b})`;
}

// Black or white, whichever contrasts more with the background (WCAG 2's ratio): on any
// colour the better of the two reads at 4.58:1 or more, above AA's 4.5.
function readableOn(rgb) {
  const [r, g, b] = rgb.map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) ? "#000000" : "#ffffff";
}

export function paintAll() {
  if (page.replaying) return;
  const stops = page.overlay ? heatStops() : null;
  page.game.view.forEach((line, r) => [...line].forEach((symbol, c) => paint(r, c, symbol, page.overlay, stops)));
}

// A reveal's squares appear in the order the flood fill reaches them, one step of the
// fill at a time, like the seeds' walk-throughs: the clicked square (or, for a chord, the
// squares around it), then the neighbours of every blank opened so far. Squares no fill
// reaches (a loss shows every mine) come last, nearest first. ``draw`` paints a square:
// the page's paint, or a test's stand-in that records the steps.
export function animate(changed, origin, view, draw = paint) {
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
  const drawnOn = page.cells;
  steps.forEach((step, i) => setTimeout(() => {
    if (page.cells !== drawnOn) return;
    for (const [r, c] of step) draw(r, c, view[r][c]);
  }, i * delay));
  return steps.length * delay;
}
