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
export function paint(r, c, symbol, odds = null) {
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
  if (page.cellSize >= 30) return p === 0 ? "safe" : `${percent}%`;
  return String(percent);
}

export function paintAll() {
  if (page.replaying) return;
  page.game.view.forEach((line, r) => [...line].forEach((symbol, c) => paint(r, c, symbol, page.overlay)));
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
