// The table chat panel (server side: palio/server/chat.py), on the game page and the replay.
//
// A message is only ever text: every part of it goes into the page with textContent (through
// el()), never as HTML. Messages are numbered per table; a pushed one that skips a number, and
// every (re)connection, asks the server for what came after the last one shown.
//
// Muting is kept in this browser only (localStorage): the muted author's messages are hidden
// here, and nobody is told. A seat's author key ("seat:1") is muted at this table only; an
// account's ("account:17") at every table.

import { $, api, el, errorMessage, seatName, t } from "/static/common.js";

const MUTE_KEY = "palio.chat.muted";
let gameId = null;
let token = null;
let seats = null; // the table's seats, for names
let mySeat = null;
let writable = false;
let last = 0; // number of the newest message shown
let loading = null;

function muteKey(author) {
  return author.startsWith("account:") ? author : `${gameId}/${author}`;
}

function mutedList() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTE_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (exc) {
    return [];
  }
}

function setMuted(author, on) {
  const key = muteKey(author);
  const rest = mutedList().filter((k) => k !== key);
  if (on) rest.unshift(key);
  try {
    localStorage.setItem(MUTE_KEY, JSON.stringify(rest.slice(0, 500)));
  } catch (exc) { /* private mode: muting lasts for this page only */ }
  applyMutes();
}

function isMuted(author) {
  return mutedList().includes(muteKey(author));
}

function authorName(message) {
  if (message.seat !== null && message.seat !== undefined && seats) return seatName(seats, message.seat);
  if (message.name) return message.name;
  return t("chat.spectator_n", { n: message.author.slice(-4) });
}

function applyMutes() {
  let hidden = 0;
  for (const line of document.querySelectorAll("#chat-list li")) {
    const muted = isMuted(line.dataset.author);
    line.hidden = muted;
    if (muted) hidden += 1;
  }
  const note = $("chat-muted");
  note.hidden = hidden === 0;
  $("chat-muted-text").textContent = t("chat.muted_n", { n: hidden });
}

function add(message) {
  if (message.n <= last) return;
  last = message.n;
  const own = mySeat !== null && message.author === `seat:${mySeat}`;
  const line = el("li", { class: `chat-line${message.seat !== null ? ` seat-${message.seat}` : ""}`, dataset: { n: String(message.n), author: message.author } },
    el("span", { class: "chat-name" }, authorName(message)), " ",
    el("span", { class: "chat-text" }, message.text),
    own ? null : el("button", { class: "small link chat-mute", type: "button", title: t("chat.mute"),
      onclick: () => setMuted(message.author, true) }, t("chat.mute")));
  const list = $("chat-list");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.append(line);
  if (atBottom) list.scrollTop = list.scrollHeight;
  applyMutes();
}

/** Ask for every message after the last one shown (on connect, after a gap). */
export async function chatCatchUp() {
  if (!gameId || $("chat").hidden) return;
  if (loading) return loading;
  loading = (async () => {
    const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}/chat?after=${last}`, undefined, token);
    if (reply.ok) for (const message of reply.data.messages) add(message);
    else if (reply.status === 403) $("chat").hidden = true;
  })();
  try {
    await loading;
  } finally {
    loading = null;
  }
}

/** A message pushed over the game's WebSocket. */
export function chatPushed(message) {
  if (message.n > last + 1) chatCatchUp();
  else add(message);
}

/** The game page's newest view: who reads and writes, and the seats' names. */
export function chatView(view) {
  const wasHidden = $("chat").hidden;
  seats = view.seats;
  mySeat = view.seat;
  const readable = view.seat !== null || Boolean(view.spectator_chat);
  writable = readable;
  $("chat").hidden = !readable;
  $("chat-form").hidden = !writable;
  if (readable && wasHidden) chatCatchUp();
}

async function send(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value;
  if (!text.trim() || !writable) return;
  $("chat-send").disabled = true;
  const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/chat`, { text }, token);
  $("chat-send").disabled = false;
  if (reply.ok) {
    input.value = "";
    $("chat-error").hidden = true;
    chatPushed(reply.data);
  } else {
    const code = reply.data?.error?.code;
    $("chat-error").textContent = t(`chat.error.${code}`, {}, "") || errorMessage(reply);
    $("chat-error").hidden = false;
  }
}

/** Build the panel inside `place` (an element of the page). `readOnly`: the replay's. */
export function chatInit(place, id, seatToken, { readOnly = false, tableSeats = null } = {}) {
  gameId = id;
  token = seatToken;
  seats = tableSeats;
  place.replaceChildren(
    el("h3", {}, t("chat.title")),
    el("ol", { id: "chat-list", class: "log chat-list", "aria-live": "polite" }),
    el("p", { id: "chat-muted", class: "muted chat-muted", hidden: true },
      el("span", { id: "chat-muted-text" }), " ",
      el("button", { class: "small link", type: "button", onclick: () => {
        const mine = new Set([...document.querySelectorAll("#chat-list li")].map((li) => muteKey(li.dataset.author)));
        try {
          localStorage.setItem(MUTE_KEY, JSON.stringify(mutedList().filter((k) => !mine.has(k))));
        } catch (exc) { /* nothing kept */ }
        applyMutes();
      } }, t("chat.unmute_all"))),
    readOnly ? null : el("form", { id: "chat-form", class: "chat-form", hidden: true },
      el("input", { id: "chat-input", type: "text", maxlength: "500", autocomplete: "off",
        placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") }),
      el("button", { id: "chat-send", type: "submit", class: "small" }, t("chat.send"))),
    el("p", { id: "chat-error", class: "message error", hidden: true }));
  place.hidden = !readOnly;
  if (!readOnly) $("chat-form").addEventListener("submit", send);
  else chatCatchUp().then(() => { if (last === 0) place.hidden = true; });
}

/** The lobby's create form: may spectators use the chat ("spectator_chat" at creation). */
export function spectatorChatField(after) {
  const box = el("input", { id: "spectator-chat", type: "checkbox" });
  after.after(el("div", { class: "row" }, el("label", {}, box, " ", t("chat.allow_spectators"))));
  return () => box.checked;
}
