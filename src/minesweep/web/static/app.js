// The page's script, as ES modules by job, loaded by the browser itself (no build step):
//   shared.js     the elements, the page's state, requests to the server, the message line
//   drawing.js    the board's squares and the reveal's animation
//   play.js       the live game: clicks, keys, the bar's buttons, a new game
//   recording.js  the page's record of the mouse, sent when a game ends
//   viewer.js     the replay viewer
//   replays.js    what the viewer shows: leaderboards' replays and replay files
//   accounts.js   signing in and the account's settings
//   reviews.js    records under review
// This file starts the page. play.js imports recording.js, so the recorder's listeners
// come before play's on the same events (a press is recorded before the face gasps).

import { loadAccount } from "./accounts.js";
import { animate, paintAll } from "./drawing.js";
import { start } from "./play.js";
import { leaderboard, replay } from "./replays.js";
import { $, api, page } from "./shared.js";

// The browser tests' handle on the page (tests/web): a module's names are its own, so the
// tests read the state and call these through this one object, and nothing else.
window.minesweep = { page, animate, paintAll, replay, leaderboard };

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
