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
const READ_KEY = "palio.chat.read"; // {game id: the newest message number its reader saw}
let gameId = null;
let token = null;
let seats = null; // the table's seats, for names
let mySeat = null;
let writable = false;
let last = 0; // number of the newest message shown
let loading = null;
let seenBefore = null; // the newest number read before this page opened (null: the replay's)
let unreadLines = 0;

// -- unread chat --------------------------------------------------------------------------------
function readMarks() {
  try {
    const kept = JSON.parse(localStorage.getItem(READ_KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch (exc) {
    return {};
  }
}

/** The newest message number read at this table in this browser (0: none). */
export function readUpTo(id) {
  return Number(readMarks()[id] || 0);
}

function markRead(id, n) {
  const kept = readMarks();
  if (Number(kept[id] || 0) >= n) return;
  delete kept[id];
  kept[id] = n;
  const newest = Object.entries(kept).slice(-200); // insertion order: the oldest go first
  try {
    localStorage.setItem(READ_KEY, JSON.stringify(Object.fromEntries(newest)));
  } catch (exc) { /* private mode: unread again next time */ }
}

/** The table's "Unread chat: N" link (to the chat panel), shown while N > 0. */
function drawUnread() {
  const link = $("chat-unread");
  if (!link) return;
  link.hidden = unreadLines === 0;
  link.textContent = t("chat.unread_n", { n: unreadLines });
  link.title = t("chat.unread_title");
}

function onScreen() {
  const list = $("chat-list");
  if (!list || $("chat").hidden || document.visibilityState !== "visible") return false;
  const box = list.getBoundingClientRect();
  const bar = $("turn-bar"); // on a phone the choice sheet covers the bottom of the screen
  const covered = bar && getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().top : window.innerHeight;
  return box.height > 0 && box.top < Math.min(window.innerHeight, covered) && box.bottom > 0;
}

function readIfSeen() {
  if (onScreen()) readAll();
}

/** The reader has the chat in front of them: everything shown is read. */
function readAll() {
  if (seenBefore === null || document.visibilityState !== "visible") return;
  markRead(gameId, last);
  for (const line of document.querySelectorAll("#chat-list li.unread")) line.classList.remove("unread");
  unreadLines = 0;
  drawUnread();
}

/** "Unread chat: N" for a table of "My games" (null when none, or when the chat is not the
 *  reader's to read): the messages others wrote after the newest this browser saw there. */
export async function unreadBadge(id, seatToken = null) {
  const reply = await api("GET", `/api/games/${encodeURIComponent(id)}/chat/unread?after=${readUpTo(id)}`,
    undefined, seatToken);
  if (!reply.ok || !reply.data.count) return null;
  return el("a", { class: "badge turn chat-unread", href: `/games/${encodeURIComponent(id)}${seatToken ? `#token=${encodeURIComponent(seatToken)}` : ""}`,
    title: t("chat.unread_title"), "data-unread": reply.data.count }, t("chat.unread_n", { n: reply.data.count }));
}

// -- when a message was written --------------------------------------------------------------
/** "3 minutes ago" the same day, else the date and time: "Nov 27, 14:02". */
export function chatTime(iso, now = new Date()) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const lang = document.documentElement.lang || "en";
  const sameDay = at.toDateString() === now.toDateString();
  if (!sameDay) {
    return new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
      ...(at.getFullYear() !== now.getFullYear() ? { year: "numeric" } : {}) }).format(at);
  }
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  if (Math.abs(seconds) < 60) return relative.format(0, "second");
  if (Math.abs(seconds) < 3600) return relative.format(Math.round(seconds / 60), "minute");
  return relative.format(Math.round(seconds / 3600), "hour");
}

function retime() {
  for (const node of document.querySelectorAll("#chat-list time[datetime]")) {
    const text = chatTime(node.getAttribute("datetime"));
    if (node.textContent !== text) node.textContent = text;
  }
}

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
  const fresh = seenBefore !== null && !own && message.n > seenBefore;
  const at = message.at ? new Date(message.at) : null;
  const line = el("li", { class: `chat-line${message.seat !== null ? ` seat-${message.seat}` : ""}${fresh ? " unread" : ""}`, dataset: { n: String(message.n), author: message.author } },
    at ? el("time", { class: "chat-time", datetime: message.at, title: at.toLocaleString(document.documentElement.lang || "en") },
      chatTime(message.at)) : null, " ",
    el("span", { class: "chat-name" }, authorName(message)), " ",
    el("span", { class: "chat-text" }, message.text),
    own ? null : el("button", { class: "small link chat-mute", type: "button", title: t("chat.mute"),
      onclick: () => setMuted(message.author, true) }, t("chat.mute")));
  const list = $("chat-list");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.append(line);
  if (atBottom) list.scrollTop = list.scrollHeight;
  applyMutes();
  if (fresh && !isMuted(message.author)) {
    unreadLines += 1;
    drawUnread();
    if (onScreen()) setTimeout(readIfSeen, 1500);
  }
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
    readAll(); // writing answers what came before
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
  setInterval(retime, 30000);
  if (!readOnly) {
    $("chat-form").addEventListener("submit", send);
    // unread: what came after the newest message this browser saw here, until the reader
    // has the chat on screen (or writes in it)
    seenBefore = readUpTo(id);
    $("chat-input").addEventListener("focus", readAll);
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setTimeout(readIfSeen, 1500);
    }, { threshold: 0.6 });
    seen.observe($("chat-list"));
    document.addEventListener("visibilitychange", () => { if (onScreen()) setTimeout(readIfSeen, 1500); });
  }
  else chatCatchUp().then(() => { if (last === 0) place.hidden = true; });
}

/** The lobby's create form: may spectators use the chat ("spectator_chat" at creation). */
export function spectatorChatField(after) {
  const box = el("input", { id: "spectator-chat", type: "checkbox" });
  after.after(el("div", { class: "row" }, el("label", {}, box, " ", t("chat.allow_spectators"))));
  return () => box.checked;
}
