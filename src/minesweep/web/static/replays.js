// What the viewer shows: the leaderboard's ranked replays, and replay files read by the
// server (an upload, or a record under review), each click with the solver's verdict.

import { openViewer, play } from "./viewer.js";
import { $, api, page, place, say } from "./shared.js";

// The leaderboard of the game's kind, or of ``kind`` (a record an operator just confirmed).
export async function leaderboard(kind = page.game && page.game.kind) {
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
export async function replay(publicId) {
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

function actionNote(step, i) {
  const square = squareOf(step.action);
  const what = ACTIONS[step.action[0]] || step.action;
  return [
    ["Action", `${i + 1}: ${what}${square ? " at " + place(...square) : ""}`],
    ["Time", `${step.time.toFixed(3)} s`],
  ];
}

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
export function watchFile(data, name, what = "Replay file") {
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
