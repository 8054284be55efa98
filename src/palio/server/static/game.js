// The game page: live view over a WebSocket, the prompt, legal choices as plain-word buttons
// grouped as the game groups them, undo, the log, the final score breakdown.
//
// Views come only from the server: on connect, after every change (WebSocket push), and by
// GET when a request failed. Acting POSTs the action with the move number it was chosen at,
// so a double click or a second tab is refused as stale instead of playing twice.
//
// A mouse click plays a choice at once; a tap (touch screen) on a kind of choice not yet
// explained first shows what it does and plays it on a second tap, since a finger has no hover
// to read the explanation with; a kind explained once plays at the first tap after that.

import {
  $, api, catalogById, creatorToken, el, errorMessage, gameTitle, hideTip, language, levelName,
  loadWords, pointerKind, say, seatName, t,
} from "/static/common.js";
import { drawKey } from "/static/boardkey.js";
import { boardContext, rendererFor } from "/static/render/index.js";
import { hintView } from "/static/hint.js";
import { chatCatchUp, chatInit, chatPushed, chatView } from "/static/chat.js";
import { seatBarRatings } from "/static/ratings.js";
import { currentAccount, openSignIn } from "/static/account.js";
import {
  drawAwayBanner, drawClocks, drawTableControls, forfeitNotes, resultNote, seatForfeitMark, signalTurn,
} from "/static/timing.js";

const gameId = decodeURIComponent(window.location.pathname.split("/")[2] || "");
// the join link carries the token in its #fragment, which is never sent to a server
const token = new URLSearchParams(window.location.hash.slice(1)).get("token")
  || new URLSearchParams(window.location.search).get("token") || null;

let view = null;
let legend = {};
let catalog = {};
let socket = null;
let retryDelay = 500;
let busy = false; // a request of ours is in flight: further clicks wait for its answer
let armed = null; // the notation a first tap chose (touch screens)
let resultShown = false;

// -- connection ---------------------------------------------------------------------------
function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  // the token goes in the first message, not in the URL (servers and proxies log URLs)
  const query = new URLSearchParams({ lang: language() });
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/games/${encodeURIComponent(gameId)}?${query}`);
  setConnection("connecting");
  let refused = false;
  socket.addEventListener("open", () => {
    retryDelay = 500;
    setConnection("live");
    if (token) socket.send(JSON.stringify({ type: "auth", token }));
    chatCatchUp(); // messages written while this page was away
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      if (token && message.view.seat === null) return; // the spectator view before our seat's
      show(message.view);
    }
    else if (message.type === "chat") chatPushed(message.message);
    else if (message.type === "error") {
      refused = true;
      say(errorMessage({ status: 0, data: message }));
    }
  });
  socket.addEventListener("close", () => {
    setConnection(refused ? "refused" : "offline");
    if (refused) return; // a wrong token or game does not get better by retrying
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10000);
  });
}

function setConnection(state) {
  const badge = $("connection");
  badge.textContent = t(`ui.connection.${state}`);
  badge.className = `badge conn-${state}`;
  document.body.dataset.connection = state;
}

async function refresh() {
  const reply = await api("GET", `/api/games/${gameId}/view`, undefined, token);
  if (reply.ok) show(reply.data);
  else say(errorMessage(reply));
}

// -- acting --------------------------------------------------------------------------------
async function post(path, body, what) {
  if (busy) return;
  busy = true;
  document.body.dataset.busy = "1";
  say("");
  const sentAt = view.move_number;
  const reply = await api("POST", path, body, token);
  busy = false;
  delete document.body.dataset.busy;
  if (reply.ok) {
    if (!socket || socket.readyState !== WebSocket.OPEN) show(reply.data);
    // the push brings the new view to every page, this one included; if it is lost, ask
    setTimeout(() => { if (view.move_number === sentAt) refresh(); }, 3000);
    return;
  }
  const stale = reply.data?.error?.code === "stale_move";
  say(stale ? t("ui.play.stale") : t("ui.play.refused", { what, reason: errorMessage(reply) }),
    stale ? "warning" : "error");
  await refresh();
}

function labelOf(notation) {
  return view.legal.find((a) => a.notation === notation)?.label || notation;
}

function act(notation) {
  disarm();
  return post(`/api/games/${gameId}/actions`, { action: notation, move_number: view.move_number },
    labelOf(notation));
}

function undo() {
  return post(`/api/games/${gameId}/undo`, { move_number: view.move_number }, t("ui.play.undo"));
}

// -- drawing -------------------------------------------------------------------------------
function show(fresh) {
  // a push may repeat the position on screen (a bot's move and the hub's both push): a choice
  // half made in it (an open chooser, a first tap) stays; a new position clears both
  const same = view !== null && fresh.move_number === view.move_number && fresh.status === view.status;
  const keep = same ? armed : null;
  view = fresh;
  if (!same) {
    closeChooser();
    hideTip();
  }
  document.body.dataset.game = view.game; // picks the game's seat colours (style.css)
  document.body.dataset.move = String(view.move_number);
  document.body.dataset.status = view.status;
  document.body.dataset.yourTurn = view.legal.length ? "1" : "0";
  document.body.dataset.viewer = view.seat === null ? "spectator" : "seat";
  const title = gameTitle(catalog, view.game);
  signalTurn(view, `${title} - Palio`, title); // the title, and "your turn" (timing.js)
  $("title").textContent = title;
  $("whoami").textContent = view.seat === null ? t("ui.play.spectator")
    : t("ui.play.you_are", { player: seatName(view.seats, view.seat) });
  $("move-number").textContent = t("ui.play.move_n", { n: view.move_number });
  const section = view.prompt?.section ? `#${encodeURIComponent(view.prompt.section)}` : "";
  $("rules-link").href = `/rules/${view.game}?lang=${language()}`;
  $("prompt-rules").href = `/rules/${view.game}?lang=${language()}${section}`;
  drawSeats();
  drawAwayBanner(view);
  drawSignInBanner();
  drawClocks(view);
  drawTableControls(view, { gameId, token, onChange: (fresh) => (fresh ? show(fresh) : refresh()) });
  drawWaiting();
  drawResult();
  drawLiveScores();
  drawBoard();
  drawPrompt();
  drawActions();
  drawLog();
  chatView(view);
  seatBarRatings(view);
  const again = keep && view.legal.find((a) => a.notation === keep);
  if (again) arm(again, document.querySelector(`#actions button[data-notation="${CSS.escape(keep)}"]`));
}

function openSeats() {
  return view.seats.filter((s) => !s.taken);
}

function drawSeats() {
  const scores = view.scores || view.score_table?.totals;
  const waiting = view.status === "open";
  $("seats").replaceChildren(...view.seats.map((s) => el("div", {
    class: `seat-chip seat-${s.seat}${seatForfeitMark(view, s.seat) ? " forfeited" : ""}${!waiting && view.to_move === s.seat ? " turn" : ""}${view.seat === s.seat ? " me" : ""}${recentSeat() === s.seat ? " recent" : ""}`,
    "data-seat": s.seat,
  }, el("span", { class: "dot" }), s.taken ? seatName(view.seats, s.seat) : t("ui.seat_free"),
  view.seat === s.seat ? el("span", { class: "muted" }, ` (${t("ui.you")})`) : null,
  seatForfeitMark(view, s.seat),
  scores ? el("span", { class: "score" }, ` ${whole(scores[s.seat])}`) : null,
  !waiting && view.to_move === s.seat ? el("span", { class: "turn-mark" }, ` ${t("ui.play.to_move")}`) : null)));
}

/** Signed out, without a seat's token, at a table where accounts hold seats (a turn mail's link
 *  signs nobody in): "this is your seat: sign in". The mail's link names the seat (?seat=N);
 *  without it the page asks whether one of the seats is the reader's. */
function drawSignInBanner() {
  const box = $("seat-sign-in");
  const named = Number.parseInt(new URLSearchParams(window.location.search).get("seat") ?? "", 10);
  const held = view.seats.filter((s) => s.account);
  const show = view.seat === null && !token && !currentAccount() && !view.is_over && held.length > 0;
  box.hidden = !show;
  if (!show) return;
  const mine = held.find((s) => s.seat === named);
  box.replaceChildren(
    el("span", {}, mine ? t("accounts.your_seat_sign_in", { player: seatName(view.seats, mine.seat) })
      : t("accounts.maybe_your_seat")), " ",
    el("button", { type: "button", class: "small primary", id: "seat-sign-in-button", onclick: openSignIn },
      t("accounts.sign_in")));
}

/** While seats are open: who is missing, and the link that invites them. */
function drawWaiting() {
  const box = $("waiting");
  const free = openSeats();
  if (view.status !== "open" || !free.length) {
    box.hidden = true;
    return;
  }
  const link = `${window.location.origin}/?invite=${encodeURIComponent(view.id)}`;
  const field = el("input", { id: "invite-link", class: "invite-link", readonly: true, value: link, "aria-label": t("ui.invite.label") });
  const copy = el("button", { class: "small", onclick: async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      copy.textContent = t("ui.invite.copied");
    } catch (exc) { /* the field is selected: the reader copies it */ }
  } }, t("ui.invite.copy"));
  box.replaceChildren(
    el("strong", {}, t("ui.play.waiting_players", { n: free.length })),
    el("div", { class: "invite" }, el("span", {}, t("ui.invite.label")), field, copy));
  const toBots = seatsToBots(free);
  if (toBots) box.append(toBots);
  box.hidden = false;
}

let botLevels = null; // the server's bot levels, asked for once

/** For the game's creator: a button per empty seat that gives it to a bot. */
function seatsToBots(free) {
  const creator = creatorToken(view.id);
  if (!creator || !botLevels?.length) return null;
  const level = el("select", { id: "seat-bot-level", "aria-label": t("board.lobby.bot_level") },
    botLevels.map((name) => el("option", { value: name, selected: name === "easy" }, levelName(name))));
  const give = (seat) => async () => {
    const reply = await api("POST", `/api/games/${view.id}/seats/${seat}/bot`, { level: level.value }, creator);
    if (!reply.ok) say(t("board.seat.to_bot_failed", { reason: errorMessage(reply) }));
    else if (!socket || socket.readyState !== WebSocket.OPEN) refresh();
  };
  return el("div", { class: "row seats-to-bots" },
    el("label", {}, `${t("board.lobby.bot_level")} `, level),
    free.map((s) => el("button", { class: "small", "data-bot-seat": s.seat, onclick: give(s.seat) },
      t("board.seat.to_bot", { player: seatName(view.seats, s.seat) }))));
}

function whole(value) {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 10) / 10);
}

function drawPrompt() {
  let text = view.prompt?.text || "";
  if (view.status === "open") text = t("ui.play.waiting_players", { n: openSeats().length });
  else if (view.is_over) text = t("ui.play.game_over");
  $("prompt").textContent = text;
  $("prompt-rules").hidden = !view.prompt?.section || view.is_over;
  $("turn-bar").classList.toggle("your-turn", view.legal.length > 0);
  $("actions-panel").hidden = view.seat === null; // a spectator has no choices to make
}

function drawResult() {
  const box = $("result");
  if (!view.is_over) {
    box.hidden = true;
    return;
  }
  const players = view.seats.map((s) => seatName(view.seats, s.seat));
  const ranking = el("table", { id: "scores", class: "scores" },
    el("thead", {}, el("tr", {}, el("th", {}, t("ui.result.place")), el("th", {}, t("ui.result.player")),
      el("th", { class: "num" }, t("ui.result.score")))),
    el("tbody", {}, view.ranking.map((seat) => el("tr", { "data-seat": seat },
      el("td", {}, t("ui.result.place_n", { n: view.score_table?.ranks?.[seat] ?? "" })),
      el("td", {}, players[seat], resultNote(view, seat)),
      el("td", { class: "num" }, whole(view.scores[seat]))))));
  const breakdown = view.score_table ? breakdownTable(view.score_table, players, "score-breakdown") : null;
  box.replaceChildren(
    el("h2", {}, t("ui.play.game_over")),
    el("div", { class: "result-tables" }, ranking, breakdown),
    forfeitNotes(view),
    el("a", { class: "button", id: "replay-link", href: `/games/${view.id}/replay?lang=${language()}` }, t("ui.result.replay")));
  box.hidden = false;
  if (!resultShown) {
    resultShown = true;
    requestAnimationFrame(() => box.scrollIntoView({ block: "start" }));
  }
}

/** The score rows, category by category, a column per player, then the totals. */
function breakdownTable(table, players, id) {
  return el("table", { id, class: "scores breakdown" },
    el("thead", {}, el("tr", {}, el("th", {}, t("ui.result.category")),
      players.map((name, seat) => el("th", { class: `num seat-${seat}` }, name)))),
    el("tbody", {},
      table.rows.map((row) => el("tr", {}, el("td", {}, row.category),
        row.points.map((points) => el("td", { class: "num" }, whole(points))))),
      el("tr", { class: "total" }, el("td", {}, t("ui.result.total")),
        table.totals.map((points) => el("td", { class: "num" }, whole(points))))));
}

/** During play, the score so far (every game's rows hold only public facts). */
function drawLiveScores() {
  const box = $("live-scores");
  const table = view.score_table;
  box.hidden = view.is_over || !table;
  if (box.hidden) return;
  const players = view.seats.map((s) => seatName(view.seats, s.seat));
  $("live-score-table").replaceChildren(breakdownTable(table, players, "live-score-breakdown"));
}

function recentSeat() {
  return view.recent ? view.recent.seat : null;
}

function drawBoard() {
  const legal = new Set(view.legal.map((a) => a.notation));
  const ctx = boardContext({
    seat: view.seat, seats: view.seats, legend, text: view.text, paths: view.recent?.paths || [],
    offer: (node, notations) => offer(node, notations.filter((n) => legal.has(n))),
  });
  let board;
  try {
    board = rendererFor(view.game)(view.observation, ctx);
  } catch (exc) {
    console.error(exc);
    board = el("pre", { class: "generic-view" }, view.text);
  }
  $("board").replaceChildren(board);
}

/** Make a drawn element play its legal actions: a click plays its one action at once, or opens
 *  a chooser when it has several (a tap always opens it, with the component's tooltip). */
function offer(node, notations) {
  if (!notations.length) return;
  node.classList.add("clickable");
  node.dataset.offers = notations.join("|");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  const open = (event) => {
    event.stopPropagation();
    hideTip();
    if (notations.length === 1 && pointerKind() !== "touch") act(notations[0]);
    else openChooser(node, notations);
  };
  node.addEventListener("click", open);
  node.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") open(event); });
}

function openChooser(node, notations) {
  closeChooser();
  const byNotation = new Map(view.legal.map((a) => [a.notation, a]));
  const title = node.dataset.tipTitle || node.closest("[data-tip-title]")?.dataset.tipTitle;
  const text = node.dataset.tip || node.closest("[data-tip]")?.dataset.tip;
  const box = el("div", { class: "chooser", id: "chooser", role: "dialog" },
    title ? el("strong", { class: "chooser-title" }, title) : null,
    text ? el("p", { class: "chooser-text" }, text) : null,
    notations.map((n) => el("button", {
      class: "action", "data-notation": n, onclick: () => { closeChooser(); act(n); },
    }, el("span", { class: "action-label" }, byNotation.get(n)?.label || n),
    el("span", { class: "action-explain" }, byNotation.get(n)?.explain || ""))),
    el("button", { class: "small", onclick: closeChooser }, t("ui.play.cancel")));
  const rect = node.getBoundingClientRect();
  document.body.append(box);
  const width = box.offsetWidth;
  box.style.left = `${window.scrollX + Math.max(8, Math.min(rect.left, window.innerWidth - width - 8))}px`;
  box.style.top = `${window.scrollY + rect.bottom + 4}px`;
  box.querySelector("button")?.focus({ preventScroll: true });
}

function closeChooser() {
  document.getElementById("chooser")?.remove();
}

/** The choices as buttons, in the groups the game gives, each with its explanation. */
function drawActions() {
  const groups = new Map();
  for (const action of view.legal) {
    const name = action.group || "";
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(action);
  }
  const parts = [...groups.entries()].map(([name, actions]) => el("div", { class: "action-group" },
    name ? el("span", { class: "group-name" }, name) : null,
    el("div", { class: "group-actions" }, actions.map((a) => el("button", {
      class: "action", "data-notation": a.notation, "data-tip": a.explain, "data-tip-title": a.label,
      onclick: (event) => choose(event, a),
    }, el("span", { class: "action-label" }, a.label),
    el("span", { class: "action-explain" }, a.explain))))));
  if (!parts.length) {
    let why = t("ui.play.waiting_others");
    if (view.is_over) why = t("ui.play.game_over");
    else if (view.status === "open") why = t("ui.play.waiting_players", { n: openSeats().length });
    parts.push(el("p", { class: "muted" }, why));
  }
  $("actions").replaceChildren(...parts);
  $("undo").hidden = !view.can_undo;
  hintView(view, gameId, token); // hint.js: practice tables only
  disarm();
}

// the kinds of choice (a game and a notation's first word) a first tap has explained already
const EXPLAINED_KEY = "palio.explained";

function explainedKinds() {
  try {
    return new Set(JSON.parse(localStorage.getItem(EXPLAINED_KEY) || "[]"));
  } catch (exc) {
    return new Set();
  }
}

function kindOf(action) {
  return `${view.game}:${action.notation.split(" ")[0]}`;
}

/** A click plays; the first tap on a kind of choice only shows what it does, in the button
 *  itself (a second tap plays it); once explained, a tap on that kind plays at once. */
function choose(event, action) {
  event.stopPropagation();
  if (pointerKind() === "touch" && armed !== action.notation && !explainedKinds().has(kindOf(action))) {
    arm(action, event.currentTarget);
    return;
  }
  act(action.notation);
}

function arm(action, button) {
  disarm();
  armed = action.notation;
  button?.classList.add("armed");
  const kinds = explainedKinds();
  kinds.add(kindOf(action));
  try {
    localStorage.setItem(EXPLAINED_KEY, JSON.stringify([...kinds].slice(-200)));
  } catch (exc) { /* private mode: it explains again next time */ }
  const box = $("choice-explain");
  // the explanation shows in the tapped button itself (style.css), covering no other choice
  box.replaceChildren(el("span", { class: "muted" }, t("ui.play.tap_again")));
  box.hidden = false;
}

function disarm() {
  armed = null;
  for (const button of document.querySelectorAll("button.action.armed")) button.classList.remove("armed");
  $("choice-explain").hidden = true;
}

function drawLog() {
  const box = $("log");
  const since = view.recent ? view.recent.since : null;
  const items = view.log.slice(-200).map((entry) => el("li", {
    class: `${entry.seat === null || entry.seat === undefined ? "" : `seat-${entry.seat}`}${since !== null && entry.n > since ? " recent" : ""}`,
  }, entry.text));
  box.replaceChildren(...items);
  box.scrollTop = box.scrollHeight;
}

// -- the phone's action bar ---------------------------------------------------------------------
function watchBar() {
  const bar = $("turn-bar");
  const update = () => document.body.style.setProperty("--bar-height", `${bar.offsetHeight}px`);
  new ResizeObserver(update).observe(bar);
  $("bar-toggle").addEventListener("click", () => {
    bar.classList.toggle("folded");
    $("bar-toggle").textContent = bar.classList.contains("folded") ? "▴" : "▾";
  });
  $("explain-toggle").addEventListener("click", () => {
    const on = !document.body.classList.contains("explain-all");
    document.body.classList.toggle("explain-all", on);
    $("explain-toggle").setAttribute("aria-pressed", String(on));
  });
}

async function start() {
  await loadWords();
  setConnection("connecting");
  if (!gameId) {
    say(t("ui.error.no_such_game"));
    return;
  }
  $("undo").addEventListener("click", undo);
  document.addEventListener("click", (event) => {
    if (!event.target.closest("#chooser")) closeChooser();
    if (!event.target.closest("button.action")) disarm();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      closeChooser();
      disarm();
    }
  });
  watchBar();
  chatInit($("chat"), gameId, token);
  catalog = await catalogById();
  const summary = await api("GET", `/api/games/${gameId}`);
  if (!summary.ok) {
    say(errorMessage(summary));
    return;
  }
  const reply = await api("GET", `/api/catalog/${summary.data.game}/legend`);
  legend = reply.ok ? reply.data : {};
  drawKey(legend);
  if (creatorToken(gameId) && summary.data.status === "open") {
    const bots = await api("GET", "/api/bots");
    botLevels = bots.ok ? bots.data.levels : [];
  }
  connect();
}

start();
