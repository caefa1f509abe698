// What every part of the page shares: its elements, its state, its requests, its message line.
// The page only draws what the server says the player sees; every rule is on the server.

export const $ = (id) => document.getElementById(id);
export const board = $("board");

// The page's state, one object that every module reads and writes (an imported binding
// cannot be assigned, an imported object's properties can). The browser tests read it
// too, through window.minesweep (app.js).
export const page = {
  game: null,           // the last state the server sent
  cells: [],            // the buttons, row by row
  cursor: [0, 0],
  flagMode: false,
  cellSize: 28,         // px: the squares' size, as build() fitted them to the screen
  overlay: null,        // mine probabilities, when shown
  timerBase: 0,         // elapsed seconds at the last response
  timerAt: 0,           // local time of that response
  busy: Promise.resolve(),
  replaying: false,
  // The signed-in account, and its session's CSRF token: the session itself is an
  // HttpOnly cookie this script never sees; every write it signs in sends the token.
  account: null,
  csrf: null,
};

// The game's token goes in a header, never in a URL. A refused request keeps the
// server's answer: a 409 for a stale version carries the game as it is now.
// A file (a Blob) goes as its raw bytes, anything else as JSON.
export async function api(method, path, body, token) {
  const headers = {};
  const file = body instanceof Blob;
  if (body) headers["Content-Type"] = file ? "application/octet-stream" : "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (page.csrf && method !== "GET") headers["X-CSRF-Token"] = page.csrf;
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

export function say(text) { $("message").textContent = text; }

// The new-game face, as players of the classic game know it: it smiles while the game
// goes on, wears sunglasses for a win, is knocked out by a loss, and gasps while a
// button is held over the board. Its label says what it does, not what it shows.
export function face(state) {
  $("face").dataset.state = state === "not won" ? "lost" : state;
}

// Rows and columns count from 1 on the page, as its labels do.
export const place = (r, c) => `row ${r + 1}, column ${c + 1}`;
