// Records under review, signed in only.
// A win that would enter a board's top 10, or is faster than its review threshold, ranks only
// once an operator has watched it (minesweep/web/review.py). The panel shows an operator every
// record waiting, each with its replay (the solver's verdict on every click), Confirm, and
// Void with a reason; and shows every signed-in player their own records held: pending,
// confirmed, or voided with the operator's reason. Guests see no panel.

import { leaderboard, watchFile } from "./replays.js";
import { closeViewer } from "./viewer.js";
import { $, api, page, say } from "./shared.js";

const reviews = { pending: [], mine: [], watching: null, loading: 0 };

export async function loadReviews() {
  const panel = $("reviews");
  const asked = ++reviews.loading;
  if (!page.account) {
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
      page.account.operator ? api("GET", "/api/reviews").then((data) => data.records) : [],
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
  const operator = !!(page.account && page.account.operator);
  $("reviews").hidden = !page.account || (!operator && !reviews.mine.length);
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

// An operator's item: the record, why it is held, its account's flag if any, its replay,
// Confirm, and Void with a reason.
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
  item.append(recordLine(entry, true), why);
  if (entry.flag) {
    // The account's wins look like a program's play: a reason to watch closely, no verdict.
    const flag = document.createElement("p");
    flag.className = "flag";
    flag.textContent = `Flagged: plays like a program (${entry.flag}).`;
    item.appendChild(flag);
  }
  item.appendChild(actions);
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
