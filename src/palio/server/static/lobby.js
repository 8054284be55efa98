// The lobby: create a game, join a seat (also from an invite link), lists of open, running
// and finished games, and the seats this browser holds.

import {
  $, api, catalogById, el, errorMessage, fill, forgetSeat, gameTitle, heldSeats, holdSeat, language,
  levelName, loadWords, rememberCreated, say, seatName, t,
} from "/static/common.js";
import { leaderboardLink, lobbyRatings } from "/static/ratings.js";
import { spectatorChatField, unreadBadge } from "/static/chat.js";
import { accountGameRows, currentAccount } from "/static/account.js";
import { fillTimingFields, forfeitStatus, statusWords, timingBadges, timingBody } from "/static/timing.js";

const NAME_KEY = "palio.name";
let catalog = {};
let botLevels = [];
let spectatorChat = () => false;

/** The name typed, or null: the server then names the seat "Player N" in each reader's words. */
function playerName() {
  return $("player-name").value.trim() || null;
}

/** The address that invites someone to a game's free seats. */
export function inviteLink(gameId) {
  return `${window.location.origin}/?invite=${encodeURIComponent(gameId)}`;
}

/** A read-only field with the invite link and a button that copies it. */
function invitePanel(gameId) {
  const field = el("input", { class: "invite-link", readonly: true, value: inviteLink(gameId), "aria-label": t("ui.invite.label") });
  const copy = el("button", { type: "button", class: "small", onclick: async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      copy.textContent = t("ui.invite.copied");
    } catch (exc) {
      document.execCommand?.("copy");
    }
  } }, t("ui.invite.copy"));
  return el("div", { class: "invite" }, el("span", {}, t("ui.invite.label")), field, copy);
}

// -- the create form ---------------------------------------------------------------------
function fillGames() {
  const select = $("create-game");
  select.replaceChildren(...Object.values(catalog).map(
    (entry) => el("option", { value: entry.id }, gameTitle(catalog, entry.id))));
  select.addEventListener("change", fillGameFields);
  $("create-players").addEventListener("change", fillSeats);
  fillGameFields();
}

function fillGameFields() {
  const entry = catalog[$("create-game").value];
  if (!entry) return;
  const players = [];
  for (let n = entry.min_players; n <= entry.max_players; n += 1) {
    players.push(el("option", { value: n }, String(n)));
  }
  $("create-players").replaceChildren(...players);
  $("create-options").replaceChildren(...entry.options.map(optionField));
  $("create-rules").href = `/rules/${entry.id}?lang=${language()}`;
  fillSeats();
}

function optionField(option) {
  const id = `option-${option.name}`;
  const label = t(`ui.option.${option.name}`, {}, option.name);
  const help = t(`ui.option.${option.name}.help`, {}, option.help);
  if (option.kind === "bool") {
    return el("label", { title: help },
      el("input", { type: "checkbox", id, "data-option": option.name, "data-kind": "bool",
        checked: option.default === true }), ` ${label}`);
  }
  const select = el("select", { id, "data-option": option.name, "data-kind": option.kind },
    option.choices.map((choice) => el("option", { value: JSON.stringify(choice),
      selected: choice === option.default }, choice === null ? t("ui.none") : String(choice))));
  return el("label", { title: help }, `${label} `, select);
}

/** The bot level the lobby starts with: the easiest. */
function firstLevel() {
  return botLevels.includes("easy") ? "easy" : botLevels[0];
}

function fillSeats() {
  const count = Number($("create-players").value);
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    // by default you play the first seat against bots; a seat for a friend is chosen here
    const bot = seat > 0 && botLevels.length ? `bot:${firstLevel()}` : "human";
    const kinds = [el("option", { value: "human", selected: bot === "human" },
      seat === 0 ? t("ui.lobby.person") : t("board.lobby.friend"))];
    for (const level of botLevels) {
      kinds.push(el("option", { value: `bot:${level}`, selected: bot === `bot:${level}` },
        t("ui.bot_named", { level: levelName(level) })));
    }
    rows.push(el("label", { class: "seat-choice" }, `${t("ui.player_n", { n: seat + 1 })} `,
      el("select", { id: `seat-kind-${seat}`, "data-seat": seat }, kinds)));
  }
  $("create-seats").replaceChildren(...rows);
}

function createBody() {
  const body = { game: $("create-game").value, players: Number($("create-players").value) };
  const options = {};
  for (const input of $("create-options").querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.dataset.kind === "bool" ? input.checked : JSON.parse(input.value);
  }
  body.options = options;
  const seed = $("create-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  if (spectatorChat()) body.spectator_chat = true;
  body.seats = [...$("create-seats").querySelectorAll("select")].map((select) => (
    select.value === "human" ? { kind: "human" } : { kind: "bot", level: select.value.slice(4) }));
  return Object.assign(body, timingBody()); // timed tables (timing.js)
}

async function createGame(event) {
  event.preventDefault();
  say("");
  const reply = await api("POST", "/api/games", createBody());
  if (!reply.ok) {
    say(t("ui.lobby.create_failed", { reason: errorMessage(reply) }));
    return;
  }
  rememberCreated(reply.data.id, reply.data.creator_token);
  showCreated(reply.data);
  refreshLists();
}

/** One click: you in the first seat, bots of the chosen level in the others, and off to it. */
async function playAgainstBots() {
  say("");
  const body = createBody();
  const level = $("bot-level").value;
  body.seats = body.seats.map((_, seat) => (seat === 0 ? { kind: "human" } : { kind: "bot", level }));
  // a practice table: unrated, hints on (review.py), no real-time clock (a practice table has none)
  body.practice = true;
  body.rated = false;
  if (body.timing.kind === "realtime") body.timing = { kind: "none" };
  const reply = await api("POST", "/api/games", body);
  if (!reply.ok) {
    say(t("ui.lobby.create_failed", { reason: errorMessage(reply) }));
    return;
  }
  rememberCreated(reply.data.id, reply.data.creator_token);
  await joinSeat(reply.data, 0);
}

function fillBotLevels() {
  $("bot-level").replaceChildren(...botLevels.map((level) => el("option", {
    value: level, selected: level === firstLevel() }, levelName(level))));
}

function joinButtons(summary, cls = "primary") {
  return summary.seats.filter((s) => !s.taken).map((s) => el("button", {
    class: cls, "data-join": s.seat, onclick: () => joinSeat(summary, s.seat),
  }, t("ui.lobby.join_seat", { player: seatName(summary.seats, s.seat) })));
}

function showCreated(summary) {
  const box = $("created");
  const free = summary.seats.filter((s) => !s.taken);
  fill(box,
    el("p", {}, t("ui.lobby.created", { game: gameTitle(catalog, summary.game) }), " ", el("code", {}, summary.id)),
    free.length ? el("div", { class: "row" }, joinButtons(summary)) : null,
    free.length ? invitePanel(summary.id) : null,
    free.length ? null : el("p", {}, el("a", { href: `/games/${summary.id}` }, t("ui.lobby.watch_bots"))),
  );
  box.hidden = false;
}

async function joinSeat(summary, seat) {
  say("");
  const account = currentAccount(); // signed in: the seat is the account's, by its name
  const name = account ? null : playerName();
  const reply = await api("POST", `/api/games/${summary.id}/seats/${seat}/join`, name ? { name } : {});
  if (!reply.ok) {
    say(t("ui.lobby.join_failed", { reason: errorMessage(reply) }));
    refreshLists();
    return;
  }
  // a guest's seat (also if the session ended meanwhile): its token opens it, keep it here
  if (reply.data.url.includes("#token=")) {
    holdSeat({ id: summary.id, game: summary.game, seat, name, token: reply.data.token });
  }
  window.location.href = reply.data.url;
}

// -- an invitation ------------------------------------------------------------------------------
async function showInvitation(gameId) {
  const box = $("invited");
  const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
  if (!reply.ok) {
    say(errorMessage(reply));
    return;
  }
  const summary = reply.data;
  const title = gameTitle(catalog, summary.game);
  const free = summary.status === "open" ? summary.seats.filter((s) => !s.taken) : [];
  box.replaceChildren(
    el("h2", {}, t("ui.invite.title", { game: title })),
    el("p", { class: "seat-names" }, seatsText(summary)),
    // a signed-in player's seat takes the account's name: nothing to type
    free.length ? el("p", {}, currentAccount() ? t("ui.invite.take_seat_as", { name: currentAccount().name })
      : t("ui.invite.take_seat")) : el("p", {}, t("ui.invite.no_free_seat")),
    el("div", { class: "row" }, joinButtons(summary),
      el("a", { class: "button", href: `/games/${summary.id}` }, t("ui.lobby.watch"))));
  box.dataset.game = summary.id;
  box.hidden = false;
}

// -- lists -------------------------------------------------------------------------------
function seatsText(summary) {
  return summary.seats.map((s) => {
    if (!s.taken) return t("ui.seat_free");
    const forfeited = forfeitStatus(summary, s.seat); // "Ada (timed out)", not a plain player
    return forfeited ? `${seatName(summary.seats, s.seat)} (${forfeited})` : seatName(summary.seats, s.seat);
  }).join(" · ");
}

function gameRow(summary) {
  const held = heldSeats().filter((h) => h.id === summary.id);
  const links = [];
  if (summary.status === "open") links.push(...joinButtons(summary, "small primary"));
  for (const h of held) {
    links.push(el("a", { class: "button small", href: `/games/${h.id}#token=${encodeURIComponent(h.token)}` },
      t("ui.lobby.play_as", { player: seatName(summary.seats, h.seat) })));
  }
  if (summary.status === "expired") {
    links.push(el("span", { class: "muted" }, t("timing.status.expired")));
  } else if (summary.status !== "finished") {
    links.push(el("a", { class: "button small", href: `/games/${summary.id}` }, t("ui.lobby.watch")));
  } else {
    links.push(el("a", { class: "button small", href: `/games/${summary.id}` }, t("ui.lobby.result")));
    links.push(el("a", { class: "button small", href: `/games/${summary.id}/replay` }, t("ui.lobby.replay")));
  }
  return el("div", { class: "game-row", "data-game": summary.id },
    el("span", { class: "game-name" }, gameTitle(catalog, summary.game)),
    el("code", {}, summary.id),
    el("span", { class: "muted" }, t("ui.lobby.players_move", { n: summary.players, move: summary.move_number })),
    el("span", { class: "seat-names" }, seatsText(summary)),
    timingBadges(summary),
    el("span", { class: "links" }, links));
}

async function fillList(status) {
  const box = $(`games-${status}`);
  const reply = await api("GET", `/api/games?status=${status}`);
  if (!reply.ok) {
    box.replaceChildren(el("p", { class: "muted" }, errorMessage(reply)));
    return;
  }
  const rows = reply.data.slice(0, 30).map(gameRow);
  box.replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, t("ui.lobby.no_games"))]));
  lobbyRatings(box, reply.data.slice(0, 30));
}

async function fillMine() {
  const box = $("my-games");
  const held = heldSeats();
  const account = currentAccount() ? await api("GET", "/api/me/games") : null;
  if (account?.ok) { // the account's games (from any device), then this browser's guest seats
    const games = account.data.games;
    const mine = new Set(games.map((g) => `${g.id}/${g.seat}`));
    const rows = accountGameRows(games, catalog);
    box.replaceChildren(...rows, el("div", { id: "browser-seats" }));
    for (const row of rows) addUnread(row, row.dataset.accountGame, null);
    const guest = held.filter((h) => !mine.has(`${h.id}/${h.seat}`));
    if (!guest.length && !rows.length) box.append(el("p", { class: "muted" }, t("ui.lobby.mine_empty")));
    if (!guest.length) return;
    await fillHeld($("browser-seats"), guest);
    return;
  }
  if (!held.length) {
    box.replaceChildren(el("p", { class: "muted" }, t("ui.lobby.mine_empty")));
    return;
  }
  await fillHeld(box, held);
}

/** Rows for the seats this browser holds by token. */
async function fillHeld(box, held) {
  const rows = await Promise.all(held.map(async (h) => {
    const reply = await api("GET", `/api/games/${h.id}`);
    const status = reply.ok ? reply.data.status : "gone";
    const forfeited = reply.ok ? forfeitStatus(reply.data, h.seat) : null;
    const yourTurn = reply.ok && reply.data.to_move === h.seat && status === "running" && !forfeited;
    const name = reply.ok ? seatName(reply.data.seats, h.seat) : (h.name || t("ui.player_n", { n: h.seat + 1 }));
    return el("div", { class: "game-row", "data-mine": h.id },
      el("span", { class: "game-name" }, gameTitle(catalog, h.game)),
      el("code", {}, h.id),
      el("span", {}, t("ui.lobby.seat_as", { player: name })),
      el("span", { class: yourTurn ? "badge turn" : "muted", "data-status": forfeited ? "forfeited" : status },
        yourTurn ? t("ui.lobby.your_turn") : statusWords(status, forfeited)),
      el("span", { class: "links" },
        status === "gone" ? null : el("a", { class: "button small",
          href: `/games/${h.id}#token=${encodeURIComponent(h.token)}` }, t("ui.lobby.go_back")),
        el("button", { class: "small", onclick: () => { forgetSeat(h.id, h.seat); fillMine(); } },
          t("ui.lobby.forget"))));
  }));
  box.replaceChildren(...rows);
  for (const [i, row] of rows.entries()) addUnread(row, held[i].id, held[i].token);
}

/** A row of "My games" shows its table's unread chat (chat.js). */
async function addUnread(row, gameId, seatToken) {
  const badge = await unreadBadge(gameId, seatToken);
  if (badge) row.querySelector(".links")?.before(badge);
}

function refreshLists() {
  fillMine();
  // finished and expired tables are listed as "recent"; the lobby's own lists are live ones
  for (const status of ["open", "running", "recent"]) fillList(status);
}

async function start() {
  await loadWords();
  $("player-name").value = localStorage.getItem(NAME_KEY) || "";
  if (currentAccount()) $("player-name").closest("label").hidden = true; // seats take its name
  $("player-name").addEventListener("change", () => localStorage.setItem(NAME_KEY, playerName() || ""));
  catalog = await catalogById();
  const bots = await api("GET", "/api/bots");
  botLevels = bots.ok ? bots.data.levels : [];
  fillGames();
  fillBotLevels();
  leaderboardLink($("create-game"));
  spectatorChat = spectatorChatField($("create-seats"));
  fillTimingFields($("create-timing-fields"), botLevels);
  $("create-form").addEventListener("submit", createGame);
  $("play-bots").addEventListener("click", playAgainstBots);
  $("refresh").addEventListener("click", refreshLists);
  const invite = new URLSearchParams(window.location.search).get("invite");
  if (invite) await showInvitation(invite);
  refreshLists();
  document.body.dataset.ready = "1";
}

start();
