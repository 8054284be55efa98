// The account corner of every page's header: sign up, sign in, sign out, and a link to the
// profile. A signed-in browser is its account's seats at every table (the session cookie is
// HttpOnly: this page never sees it; GET /api/me says who is signed in).

import { $, api, el, errorMessage, gameTitle, heldSeats, seatName, t } from "/static/common.js";
import { forfeitStatus, statusWords } from "/static/timing.js";

let me = null;

/** The signed-in account ({name, email, lang, mail_turns}) or null; after installAccount. */
export function currentAccount() {
  return me;
}

/** An account error in the reader's words (accounts.error.<code>), else the usual message. */
export function accountError(reply) {
  const code = reply.data?.error?.code;
  return t(`accounts.error.${code}`, {}, "") || errorMessage(reply);
}

/** The guest seats this browser holds, offered to the account at sign-up and sign-in. */
function claims() {
  return heldSeats().slice(0, 50).filter((h) => h.token)
    .map((h) => ({ game: h.id, seat: Number(h.seat), token: h.token }));
}

function field(id, key, attrs) {
  return el("label", { class: "account-field" }, el("span", {}, t(key)), el("input", { id, ...attrs }));
}

/** Open the sign-in dialog (a table's "this is your seat: sign in"). */
export function openSignIn() {
  openForm("in");
}

function openForm(kind) {
  $("account-dialog")?.remove();
  const signUp = kind === "up";
  const message = el("p", { id: "account-message", class: "message error", hidden: true });
  const form = el("form", { id: "account-form", "data-kind": kind },
    el("h2", {}, t(signUp ? "accounts.sign_up" : "accounts.sign_in")),
    field("account-name", "accounts.name", { name: "name", required: true, maxlength: 32, autocomplete: "username" }),
    field("account-password", "accounts.password", { name: "password", type: "password", required: true,
      minlength: signUp ? 8 : 1, autocomplete: signUp ? "new-password" : "current-password" }),
    signUp ? field("account-email", "accounts.email", { name: "email", type: "email", autocomplete: "email" }) : null,
    signUp && claims().length ? el("p", { class: "muted" }, t("accounts.keeps_seats")) : null,
    message,
    el("div", { class: "row" },
      el("button", { type: "submit", class: "primary", id: "account-submit" },
        t(signUp ? "accounts.submit_sign_up" : "accounts.submit_sign_in")),
      el("button", { type: "button", onclick: () => dialog.close() }, t("accounts.cancel"))));
  const dialog = el("dialog", { id: "account-dialog", class: "account-dialog" }, form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: $("account-name").value.trim(), password: $("account-password").value };
    if (signUp) {
      const email = $("account-email").value.trim();
      if (email) body.email = email;
      body.lang = document.documentElement.lang || "en";
    }
    const held = claims();
    if (held.length) body.claim = held;
    const reply = await api("POST", signUp ? "/api/accounts" : "/api/session", body);
    if (!reply.ok) {
      message.textContent = t("accounts.failed", { reason: accountError(reply) });
      message.hidden = false;
      return;
    }
    window.location.reload(); // every part of the page now sees the account
  });
  document.body.append(dialog);
  dialog.showModal();
  $("account-name").focus();
}

async function signOut() {
  await api("DELETE", "/api/session");
  window.location.reload();
}

function draw(box) {
  if (me) {
    box.replaceChildren(
      el("a", { id: "account-name-link", href: "/profile", title: t("accounts.profile_link") },
        t("accounts.signed_in_as", { name: me.name })),
      el("button", { type: "button", class: "small", id: "sign-out", onclick: signOut }, t("accounts.sign_out")));
  } else {
    box.replaceChildren(
      el("button", { type: "button", class: "small", id: "sign-in", onclick: () => openForm("in") }, t("accounts.sign_in")),
      el("button", { type: "button", class: "small", id: "sign-up", onclick: () => openForm("up") }, t("accounts.sign_up")));
  }
}

/** Ask who is signed in and draw the header's account corner (once per page). */
export async function installAccount() {
  const place = document.querySelector("header.top");
  if (!place || $("account")) return;
  const reply = await api("GET", "/api/me");
  me = reply.ok ? reply.data : null;
  const box = el("span", { id: "account", class: "account" });
  place.append(box);
  draw(box);
  document.body.dataset.account = me ? me.name : "";
  await drawTurns(place);
  setInterval(drawTurns, 30000, place); // a move elsewhere: the count follows within 30 s
  if (me) hearSeated(place);
}

// -- a new table seating the account (a tournament's round, an arena's next table) -------------
let seatedDelay = 1000;

/** Hold /ws/me while the page is open: each new table seating the account shows a link to
 *  it in the header, redraws the turn count, and is told to the page ("palio:seated", which
 *  the tournament page redraws on), with no reload. */
function hearSeated(place) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/me`);
  let refused = false;
  socket.addEventListener("open", () => { seatedDelay = 1000; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "error") refused = true;
    if (message.type !== "seated") return;
    const href = `/games/${encodeURIComponent(message.game)}`;
    const fresh = el("a", { id: "seated", class: "badge turn", href, title: t("ui.seated.open"), "data-game": message.game },
      t("ui.seated.new"));
    const old = $("seated");
    if (old) old.replaceWith(fresh);
    else place.querySelector("#account")?.before(fresh);
    drawTurns(place);
    window.dispatchEvent(new CustomEvent("palio:seated", { detail: message }));
  });
  socket.addEventListener("close", () => {
    if (refused) return; // signed out, or not ours: retrying does not help
    setTimeout(hearSeated, seatedDelay, place);
    seatedDelay = Math.min(seatedDelay * 2, 30000);
  });
}

// -- "your turn" in the header ------------------------------------------------------------------
/** The header's count of tables waiting for the reader's move (the signed-in account's seats
 *  and the guest seats this browser keeps), a link to the one that has waited longest (not the
 *  table on screen). */
export async function drawTurns(place) {
  const held = heldSeats().slice(0, 50);
  const here = window.location.pathname.startsWith("/games/")
    ? decodeURIComponent(window.location.pathname.split("/")[2] || "") : null;
  let badge = $("turns");
  if (!me && !held.length) {
    badge?.remove();
    return;
  }
  const seats = held.map((h) => `${h.id}:${h.seat}`).join(",");
  const reply = await api("GET", seats ? `/api/turns?seats=${encodeURIComponent(seats)}` : "/api/turns");
  if (!reply.ok) return;
  const waiting = reply.data.games.filter((g) => g.id !== here);
  const next = waiting[0];
  let href = null;
  if (next) {
    const guest = held.find((h) => h.id === next.id && Number(h.seat) === next.seat);
    href = next.account || !guest ? `/games/${encodeURIComponent(next.id)}`
      : `/games/${encodeURIComponent(next.id)}#token=${encodeURIComponent(guest.token)}`;
  }
  const fresh = next
    ? el("a", { id: "turns", class: "badge turn turns-link", href, title: t("ui.turns.next"), "data-count": waiting.length },
      t("ui.turns.count", { n: waiting.length }))
    : el("span", { id: "turns", class: "badge turns-none", "data-count": 0 }, t("ui.turns.none"));
  if (badge) badge.replaceWith(fresh);
  else place.querySelector("#account")?.before(fresh);
  badge = fresh;
}

function yourTurnOrStatus(g) {
  const forfeited = forfeitStatus(g, g.seat); // "timed out", not "playing"
  const yours = g.status === "running" && g.to_move === g.seat && !forfeited;
  return el("span", { class: yours ? "badge turn" : "muted", "data-status": forfeited ? "forfeited" : g.status },
    yours ? t("ui.lobby.your_turn") : statusWords(g.status, forfeited));
}

/** A row per game of the account, each a link to its table (or its replay once over). */
export function accountGameRows(games, catalog) {
  return games.map((g) => el("div", { class: "game-row", "data-account-game": g.id },
    el("span", { class: "game-name" }, gameTitle(catalog, g.game)),
    el("code", {}, g.id),
    el("span", {}, t("ui.lobby.seat_as", { player: seatName(g.seats, g.seat) })),
    yourTurnOrStatus(g),
    el("span", { class: "links" }, el("a", { class: "button small", href: `/games/${g.id}` }, t("ui.lobby.go_back")))));
}
