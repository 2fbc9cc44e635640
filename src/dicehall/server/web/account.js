// The account screen (#/account): register, log in, log out, delete the account.
// The server keeps the session in an HttpOnly cookie: no script here ever sees it. A
// browser that took a seat without logging in plays as a guest; registering from there
// turns that guest, and every game it played, into the named account.

import { call, savedSeats } from "./api.js";
import { h, mount } from "./dom.js";

export const accountApi = {
  me: () => call("GET", "/api/account"),
  register: (name, password) => call("POST", "/api/account/register", { name, password }),
  login: (name, password) => call("POST", "/api/account/login", { name, password }),
  logout: () => call("POST", "/api/account/logout"),
  remove: (password) => call("POST", "/api/account/delete", { password }),
  claim: (tableId, token) => call("POST", `/api/tables/${encodeURIComponent(tableId)}/claim`, { seat_token: token }),
};

/** Show who is logged in on the top bar's account link. */
export async function refreshAccountLink() {
  const link = document.getElementById("account-link");
  if (!link) return null;
  let account = null;
  try {
    account = (await accountApi.me()).account;
  } catch {
    account = null;
  }
  link.textContent = account && account.kind !== "guest" ? account.name : "Log in";
  return account;
}

export function showAccount(main) {
  const box = h("section", { class: "card account" }, h("h1", {}, "Account"), h("p", { class: "muted" }, "Loading…"));
  mount(main, box);
  refreshAccountLink().then((account) => draw(box, account));
  return null;
}

function draw(box, account) {
  if (account && account.kind !== "guest") {
    drawLoggedIn(box, account);
    return;
  }
  const guestNote = account
    ? h("p", { class: "muted" }, "You play as a guest. Register to keep your games and ratings under a name.")
    : h("p", { class: "muted" }, "Register a name to keep your games and ratings, or just play as a guest.");
  mount(box, h("h1", {}, "Account"), guestNote,
    credentialsForm("register", "Register", accountApi.register, box),
    credentialsForm("login", "Log in", accountApi.login, box),
    account ? deleteForm(box, account) : null);
}

function credentialsForm(id, title, send, box) {
  const name = h("input", { id: `${id}-name`, name: "name", autocomplete: "username", maxlength: 24, required: true });
  const password = h("input", {
    id: `${id}-password`, name: "password", type: "password", minlength: 8, maxlength: 256, required: true,
    autocomplete: id === "register" ? "new-password" : "current-password",
  });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: `account-form ${id}`, novalidate: true },
    h("h2", {}, title),
    h("div", { class: "field" }, h("label", { for: name.id }, "Name"), name),
    h("div", { class: "field" }, h("label", { for: password.id }, "Password"), password),
    error, h("button", { type: "submit", class: "primary" }, title));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await send(name.value.trim(), password.value);
      draw(box, await refreshAccountLink());
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return form;
}

function drawLoggedIn(box, account) {
  const logout = h("button", { type: "button" }, "Log out");
  logout.addEventListener("click", async () => {
    await accountApi.logout();
    draw(box, await refreshAccountLink());
  });
  mount(box, h("h1", {}, "Account"),
    h("p", { class: "logged-in" }, "Logged in as ", h("strong", {}, account.name), "."),
    h("p", {}, h("a", { href: `#/player/${encodeURIComponent(account.name)}` }, "Your games and ratings")),
    logout, claimSeats(), deleteForm(box, account));
}

/** Seats this browser took before accounts existed become the account's, by their tokens. */
function claimSeats() {
  const result = h("p", { class: "claim-result", role: "status" });
  const button = h("button", { type: "button" }, "Claim this browser's earlier seats");
  button.addEventListener("click", async () => {
    button.disabled = true;
    const counts = { claimed: 0, yours: 0, refused: 0 };
    for (const seat of savedSeats()) {
      try {
        const answer = await accountApi.claim(seat.tableId, seat.token);
        counts[answer.claimed ? "claimed" : "yours"] += 1;
      } catch {
        counts.refused += 1; // another account's, a table gone, a rated table's second seat
      }
    }
    result.textContent = `${counts.claimed} claimed, ${counts.yours} already yours, ${counts.refused} not yours to claim.`;
    button.disabled = false;
  });
  return h("div", { class: "claim-seats" },
    h("p", { class: "muted" }, "Games played in this browser before accounts existed belong to no one: claim them for your history (ratings stay as they were)."),
    button, result);
}

function deleteForm(box, account) {
  const password = h("input", { id: "delete-password", name: "password", type: "password", autocomplete: "current-password" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "account-form delete", novalidate: true },
    h("p", {}, "Deleting the account deletes its name, password and sessions. Its games stay, under “deleted player”."),
    account.kind === "guest" ? null : h("div", { class: "field" }, h("label", { for: password.id }, "Password"), password),
    error, h("button", { type: "submit", class: "danger" }, "Delete my account"));
  const details = h("details", { class: "delete-account" }, h("summary", {}, "Delete the account"), form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await accountApi.remove(password.value);
      draw(box, await refreshAccountLink());
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return details;
}
