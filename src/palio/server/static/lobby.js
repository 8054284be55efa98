// The lobby: create a game, join a seat, lists of open, running and finished games, my seats.

import {
  $, api, catalogById, el, errorMessage, forgetSeat, gameTitle, heldSeats, holdSeat, say,
  seatName,
} from "/static/common.js";

const NAME_KEY = "palio.name";
let catalog = {};
let botLevels = [];

function playerName() {
  return $("player-name").value.trim() || "Player";
}

// -- the create form ---------------------------------------------------------------------
function fillGames() {
  const select = $("create-game");
  select.replaceChildren(...Object.values(catalog).map(
    (entry) => el("option", { value: entry.id }, entry.name)));
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
  fillSeats();
}

function optionField(option) {
  const id = `option-${option.name}`;
  if (option.kind === "bool") {
    return el("label", { title: option.help },
      el("input", { type: "checkbox", id, "data-option": option.name, "data-kind": "bool",
        checked: option.default === true }), ` ${option.name}`);
  }
  const select = el("select", { id, "data-option": option.name, "data-kind": option.kind },
    option.choices.map((choice) => el("option", { value: JSON.stringify(choice),
      selected: choice === option.default }, String(choice))));
  return el("label", { title: option.help }, `${option.name} `, select);
}

function fillSeats() {
  const count = Number($("create-players").value);
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    const kinds = [el("option", { value: "human" }, "person")];
    for (const level of botLevels) kinds.push(el("option", { value: `bot:${level}` }, `bot (${level})`));
    rows.push(el("label", { class: "seat-choice" }, `Seat ${seat} `,
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
  body.seats = [...$("create-seats").querySelectorAll("select")].map((select) => (
    select.value === "human" ? { kind: "human" } : { kind: "bot", level: select.value.slice(4) }));
  return body;
}

async function createGame(event) {
  event.preventDefault();
  say("");
  const reply = await api("POST", "/api/games", createBody());
  if (!reply.ok) {
    say(`Could not create the game: ${errorMessage(reply)}`);
    return;
  }
  showCreated(reply.data);
  refreshLists();
}

function showCreated(summary) {
  const box = $("created");
  const free = summary.seats.filter((s) => !s.taken);
  box.replaceChildren(
    el("p", {}, `Created ${gameTitle(catalog, summary.game)} `, el("code", {}, summary.id), ". Take a seat:"),
    el("div", { class: "row" }, free.map((s) => el("button", {
      class: "primary", "data-join": s.seat, onclick: () => joinSeat(summary, s.seat),
    }, `Join seat ${s.seat}`))),
    free.length ? null : el("p", {}, "Every seat is a bot: ",
      el("a", { href: `/games/${summary.id}` }, "watch the game")),
  );
  box.hidden = false;
}

async function joinSeat(summary, seat) {
  say("");
  const name = playerName();
  const reply = await api("POST", `/api/games/${summary.id}/seats/${seat}/join`, { name });
  if (!reply.ok) {
    say(`Could not join seat ${seat}: ${errorMessage(reply)}`);
    refreshLists();
    return;
  }
  holdSeat({ id: summary.id, game: summary.game, seat, name, token: reply.data.token });
  window.location.href = reply.data.url;
}

// -- lists -------------------------------------------------------------------------------
function seatsText(summary) {
  return summary.seats.map((s) => (s.taken ? seatName(summary.seats, s.seat) : "free")).join(" · ");
}

function gameRow(summary) {
  const held = heldSeats().filter((h) => h.id === summary.id);
  const links = [];
  if (summary.status === "open") {
    for (const s of summary.seats.filter((x) => !x.taken)) {
      links.push(el("button", { class: "small primary", "data-join": s.seat,
        onclick: () => joinSeat(summary, s.seat) }, `Join seat ${s.seat}`));
    }
  }
  for (const h of held) {
    links.push(el("a", { class: "button small", href: `/games/${h.id}?token=${encodeURIComponent(h.token)}` },
      `Play seat ${h.seat}`));
  }
  if (summary.status !== "finished") {
    links.push(el("a", { class: "button small", href: `/games/${summary.id}` }, "Watch"));
  } else {
    links.push(el("a", { class: "button small", href: `/games/${summary.id}` }, "Result"));
    links.push(el("a", { class: "button small", href: `/games/${summary.id}/replay` }, "Replay"));
  }
  return el("div", { class: "game-row", "data-game": summary.id },
    el("span", { class: "game-name" }, gameTitle(catalog, summary.game)),
    el("code", {}, summary.id),
    el("span", { class: "muted" }, `${summary.players} players · move ${summary.move_number}`),
    el("span", { class: "seat-names" }, seatsText(summary)),
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
  box.replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, "none")]));
}

async function fillMine() {
  const box = $("my-games");
  const held = heldSeats();
  if (!held.length) {
    box.replaceChildren(el("p", { class: "muted" }, "Seats you join are kept here, in this browser."));
    return;
  }
  const rows = await Promise.all(held.map(async (h) => {
    const reply = await api("GET", `/api/games/${h.id}`);
    const status = reply.ok ? reply.data.status : "gone";
    const yourTurn = reply.ok && reply.data.to_move === h.seat && status === "running";
    return el("div", { class: "game-row", "data-mine": h.id },
      el("span", { class: "game-name" }, gameTitle(catalog, h.game)),
      el("code", {}, h.id),
      el("span", {}, `seat ${h.seat} as ${h.name}`),
      el("span", { class: yourTurn ? "badge turn" : "muted" }, yourTurn ? "your turn" : status),
      el("span", { class: "links" },
        status === "gone" ? null : el("a", { class: "button small",
          href: `/games/${h.id}?token=${encodeURIComponent(h.token)}` }, "Go back"),
        el("button", { class: "small", onclick: () => { forgetSeat(h.id, h.seat); fillMine(); } },
          "Forget")));
  }));
  box.replaceChildren(...rows);
}

function refreshLists() {
  fillMine();
  for (const status of ["open", "running", "finished"]) fillList(status);
}

async function start() {
  $("player-name").value = localStorage.getItem(NAME_KEY) || "";
  $("player-name").addEventListener("change", () => localStorage.setItem(NAME_KEY, playerName()));
  catalog = await catalogById();
  const bots = await api("GET", "/api/bots");
  botLevels = bots.ok ? bots.data.levels : [];
  fillGames();
  $("create-form").addEventListener("submit", createGame);
  $("refresh").addEventListener("click", refreshLists);
  refreshLists();
  document.body.dataset.ready = "1";
}

start();
