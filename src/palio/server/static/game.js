// The game page: live view over a WebSocket, legal choices as buttons, undo, log, result.
//
// Views come only from the server: on connect, after every change (WebSocket push), and by
// GET when a request failed. Acting POSTs the action with the move number it was chosen at,
// so a double click or a second tab is refused as stale instead of playing twice.

import { $, api, catalogById, el, errorMessage, gameTitle, say, seatName } from "/static/common.js";
import { rendererFor } from "/static/render/index.js";

const gameId = decodeURIComponent(window.location.pathname.split("/")[2] || "");
// the join link carries the token in its #fragment, which is never sent to a server
const token = new URLSearchParams(window.location.hash.slice(1)).get("token")
  || new URLSearchParams(window.location.search).get("token") || null;

let view = null;
let legend = null;
let catalog = {};
let socket = null;
let retryDelay = 500;
let busy = false; // a request of ours is in flight: further clicks wait for its answer

// -- connection ---------------------------------------------------------------------------
function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  // the token goes in the first message, not in the URL (servers and proxies log URLs)
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/games/${encodeURIComponent(gameId)}`);
  setConnection("connecting");
  let refused = false;
  socket.addEventListener("open", () => {
    retryDelay = 500;
    setConnection("live");
    if (token) socket.send(JSON.stringify({ type: "auth", token }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      if (token && message.view.seat === null) return; // the spectator view before our seat's
      show(message.view);
    }
    else if (message.type === "error") {
      refused = true;
      say(message.error.message);
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
  badge.textContent = state;
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
  say(stale ? `That choice came too late: the game has moved on. The board is up to date now.`
    : `${what} was refused: ${errorMessage(reply)}`, stale ? "warning" : "error");
  await refresh();
}

function act(notation) {
  return post(`/api/games/${gameId}/actions`, { action: notation, move_number: view.move_number },
    `"${notation}"`);
}

function undo() {
  return post(`/api/games/${gameId}/undo`, { move_number: view.move_number }, "Undo");
}

// -- drawing -------------------------------------------------------------------------------
function show(fresh) {
  view = fresh;
  closeChooser();
  document.body.dataset.move = String(view.move_number);
  document.body.dataset.status = view.status;
  document.body.dataset.yourTurn = view.legal.length ? "1" : "0";
  document.title = `${gameTitle(catalog, view.game)} - Palio`;
  $("title").textContent = `${gameTitle(catalog, view.game)} · ${view.id}`;
  $("whoami").textContent = view.seat === null ? "spectator"
    : `you are ${seatName(view.seats, view.seat)} (seat ${view.seat})`;
  $("move-number").textContent = `move ${view.move_number}`;
  drawSeats();
  drawResult();
  drawBoard();
  drawActions();
  drawLog();
}

function drawSeats() {
  const scores = view.scores;
  $("seats").replaceChildren(...view.seats.map((s) => el("div", {
    class: `seat-chip seat-${s.seat}${view.to_move === s.seat ? " turn" : ""}${view.seat === s.seat ? " me" : ""}`,
    "data-seat": s.seat,
  }, el("span", { class: "dot" }), seatName(view.seats, s.seat),
  s.kind === "bot" ? el("span", { class: "muted" }, " bot") : null,
  s.taken ? null : el("span", { class: "muted" }, " (free)"),
  scores ? el("span", { class: "score" }, ` ${scores[s.seat]}`) : null,
  view.to_move === s.seat ? el("span", { class: "turn-mark" }, " to move") : null)));
}

function drawResult() {
  const box = $("result");
  if (!view.is_over) {
    box.hidden = true;
    return;
  }
  const rows = view.ranking.map((seat, place) => el("tr", { "data-seat": seat },
    el("td", {}, `${place + 1}.`), el("td", {}, seatName(view.seats, seat)),
    el("td", { class: "num" }, String(view.scores[seat]))));
  box.replaceChildren(
    el("h2", {}, "Game over"),
    el("table", { id: "scores", class: "scores" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Player"), el("th", {}, "Score"))),
      el("tbody", {}, rows)),
    el("a", { class: "button", id: "replay-link", href: `/games/${view.id}/replay` }, "Watch the replay"));
  box.hidden = false;
}

function drawBoard() {
  const legal = new Set(view.legal.map((a) => a.notation));
  const ctx = {
    seat: view.seat, seats: view.seats, legend, text: view.text,
    offer: (node, notations) => offer(node, notations.filter((n) => legal.has(n))),
  };
  let board;
  try {
    board = rendererFor(view.game)(view.observation, ctx);
  } catch (exc) {
    console.error(exc);
    board = el("pre", { class: "generic-view" }, view.text);
  }
  $("board").replaceChildren(board);
}

/** Make a drawn element play its legal actions: one plays at once, several open a chooser. */
function offer(node, notations) {
  if (!notations.length) return;
  node.classList.add("clickable");
  node.dataset.offers = notations.join("|");
  node.title = notations.join(", ");
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    if (notations.length === 1) act(notations[0]);
    else openChooser(node, notations);
  });
}

function openChooser(node, notations) {
  closeChooser();
  const labels = new Map(view.legal.map((a) => [a.notation, a.label]));
  const box = el("div", { class: "chooser", id: "chooser" },
    notations.map((n) => el("button", { class: "action", onclick: () => { closeChooser(); act(n); } },
      labels.get(n) || n)),
    el("button", { class: "small", onclick: closeChooser }, "cancel"));
  const rect = node.getBoundingClientRect();
  box.style.left = `${window.scrollX + rect.left}px`;
  box.style.top = `${window.scrollY + rect.bottom + 4}px`;
  document.body.append(box);
}

function closeChooser() {
  document.getElementById("chooser")?.remove();
}

function drawActions() {
  const box = $("actions");
  const groups = new Map();
  for (const action of view.legal) {
    const word = action.notation.split(" ")[0];
    if (!groups.has(word)) groups.set(word, []);
    groups.get(word).push(action);
  }
  const parts = [...groups.entries()].map(([word, actions]) => el("div", { class: "action-group" },
    el("span", { class: "group-name" }, word),
    actions.map((a) => el("button", {
      class: "action", "data-notation": a.notation, title: a.notation, onclick: () => act(a.notation),
    }, a.label))));
  if (!parts.length) {
    let why = "Waiting for the other players.";
    if (view.is_over) why = "The game is over.";
    else if (view.seat === null) why = "You are watching.";
    else if (view.status === "open") why = "Waiting for every seat to be taken.";
    else if (view.to_move === view.seat) why = "Waiting…";
    parts.push(el("p", { class: "muted" }, why));
  }
  box.replaceChildren(...parts);
  $("undo").hidden = !view.can_undo;
}

function drawLog() {
  const box = $("log");
  const items = view.log.slice(-200).map((entry) => el("li", {
    class: entry.seat === null || entry.seat === undefined ? "" : `seat-${entry.seat}`,
  }, el("span", { class: "log-n" }, String(entry.n)), " ", entry.text));
  box.replaceChildren(...items);
  box.scrollTop = box.scrollHeight;
}

async function start() {
  if (!gameId) {
    say("No game in the address.");
    return;
  }
  $("undo").addEventListener("click", undo);
  document.addEventListener("click", (event) => {
    if (!event.target.closest("#chooser")) closeChooser();
  });
  catalog = await catalogById();
  const summary = await api("GET", `/api/games/${gameId}`);
  if (!summary.ok) {
    say(errorMessage(summary));
    return;
  }
  const reply = await api("GET", `/api/catalog/${summary.data.game}/legend`);
  legend = reply.ok ? reply.data : {};
  connect();
}

start();
