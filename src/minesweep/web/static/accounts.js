// The account: signing in, registering, signing out, renaming, a new password, deletion.
// Only an account's games rank. localStorage remembers that this browser signed in, so a
// guest's page never asks the server who it is.

import { leaderboard } from "./replays.js";
import { loadReviews } from "./reviews.js";
import { $, api, page, say } from "./shared.js";

export function showAccount(data) {
  page.account = data ? data.account : null;
  page.csrf = data ? data.csrf_token : null;
  if (page.account) localStorage.setItem("minesweep-account", "1");
  else localStorage.removeItem("minesweep-account");
  $("whoami").textContent = page.account ?
    `Signed in as ${page.account.name}${page.account.bot ? " (a bot's account)" : ""}: your games rank.` :
    "Playing as a guest: only an account's games rank.";
  $("signout").hidden = !page.account;
  $("signin").hidden = !!page.account;
  $("manage").hidden = !page.account;
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

export async function loadAccount() {
  if (!localStorage.getItem("minesweep-account")) return;
  try { showAccount(await api("GET", "/api/account")); } catch (error) { showAccount(null); }
}
