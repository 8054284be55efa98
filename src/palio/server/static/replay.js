// The replay viewer: a finished game's frames (a spectator's observations, or the reader's own
// seat's when the reader held one), stepped or scrubbed,
// each step's move in words and what it changed highlighted; the score breakdown at the end.

import {
  $, api, catalogById, el, errorMessage, gameTitle, heldSeats, language, loadWords, say, seatName, t,
} from "/static/common.js";
import { drawKey } from "/static/boardkey.js";
import { boardContext, diffPaths, rendererFor } from "/static/render/index.js";
import { installReview } from "/static/review.js";
import { chatInit } from "/static/chat.js";

const gameId = decodeURIComponent(window.location.pathname.split("/")[2] || "");
// the seat this browser held at the table (its token, from the link or kept by the lobby): a
// finished game's replay then shows that seat's own cards (a signed-in account's seat is
// known to the server by the session alone)
const seatToken = new URLSearchParams(window.location.hash.slice(1)).get("token")
  || heldSeats().find((s) => s.id === gameId)?.token || null;

let frames = [];
let record = null;
let scoreTable = null;
let legend = {};
let seats = null;
let current = 0;
let mySeat = null; // the seat whose view the replay's frames are (null: a spectator's)
// the game as this browser's seat saw it (its own cards), where it played here: review.py
let own = null;

function seatLabel(seat) {
  if (seat === null || seat === undefined) return "";
  return seats ? seatName(seats, seat) : (record?.seats?.[seat] ?? t("ui.player_n", { n: seat + 1 }));
}

function whole(value) {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 10) / 10);
}

function go(index) {
  current = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[current];
  document.body.dataset.frame = String(current);
  $("slider").value = String(current);
  $("frame-number").textContent = t("ui.replay.step_of", { n: current, total: frames.length - 1 });
  // the headline says what happened in the third person (the label is the mover's prompt)
  const headline = frame.headline || frame.label || "";
  $("frame-move").replaceChildren(frame.n === 0 ? t("ui.replay.setup")
    : el("span", { class: `seat-${frame.seat}`, "data-seat": frame.seat }, el("span", { class: "dot" }), " ", headline));
  const said = frame.log.length ? frame.log : [frame.n === 0 ? t("ui.replay.setup") : headline];
  $("step-log").replaceChildren(...said.map((line) => el("li", { class: frame.seat === null ? "" : `seat-${frame.seat}` }, line)));
  const seen = (i) => (own ? own.frames[i] : frames[i].observation);
  const observation = seen(current);
  const before = current > 0 ? seen(current - 1) : observation;
  const ctx = boardContext({ seat: own ? own.seat : mySeat, seats, legend, paths: diffPaths(before, observation) });
  let board;
  try {
    board = rendererFor(record.game)(observation, ctx);
  } catch (exc) {
    console.error(exc);
    board = el("pre", { class: "generic-view" }, JSON.stringify(observation, null, 1));
  }
  $("board").replaceChildren(board);
  $("back").disabled = current === 0;
  $("first").disabled = current === 0;
  $("forward").disabled = current === frames.length - 1;
  $("last").disabled = current === frames.length - 1;
  $("result").hidden = current !== frames.length - 1 || !record.result; // no spoiler before the end
}

function drawResult() {
  const result = record.result;
  if (!result) return;
  const names = (scoreTable?.totals || result.scores).map((_, seat) => seatLabel(seat));
  const ranking = el("table", { class: "scores", id: "scores" }, el("tbody", {}, result.ranking.map((seat, place) => el("tr", {},
    el("td", {}, t("ui.result.place_n", { n: scoreTable?.ranks?.[seat] ?? place + 1 })), el("td", {}, names[seat]),
    el("td", { class: "num" }, whole(result.scores[seat]))))));
  const breakdown = scoreTable ? el("table", { id: "score-breakdown", class: "scores breakdown" },
    el("thead", {}, el("tr", {}, el("th", {}, t("ui.result.category")), names.map((name) => el("th", { class: "num" }, name)))),
    el("tbody", {}, scoreTable.rows.map((row) => el("tr", {}, el("td", {}, row.category),
      row.points.map((points) => el("td", { class: "num" }, whole(points))))),
    el("tr", { class: "total" }, el("td", {}, t("ui.result.total")),
      scoreTable.totals.map((points) => el("td", { class: "num" }, whole(points)))))) : null;
  $("result").replaceChildren(el("h3", {}, t("ui.result.final_scores")),
    el("div", { class: "result-tables" }, ranking, breakdown));
}

async function start() {
  await loadWords();
  const catalog = await catalogById();
  const reply = await api("GET", `/api/games/${gameId}/replay`, undefined, seatToken);
  if (!reply.ok) {
    say(t("ui.replay.none", { reason: errorMessage(reply) }));
    document.body.dataset.ready = "1";
    return;
  }
  ({ frames, record } = reply.data);
  scoreTable = reply.data.score_table || null;
  mySeat = reply.data.seat ?? null;
  document.body.dataset.viewer = mySeat === null ? "spectator" : "seat";
  document.body.dataset.game = record.game; // picks the game's seat colours (style.css)
  $("title").textContent = gameTitle(catalog, record.game);
  document.title = `${gameTitle(catalog, record.game)} - Palio`;
  $("rules-link").href = `/rules/${record.game}?lang=${language()}`;
  const summary = await api("GET", `/api/games/${gameId}`);
  seats = summary.ok ? summary.data.seats : null;
  const legendReply = await api("GET", `/api/catalog/${record.game}/legend`);
  legend = legendReply.ok ? legendReply.data : {};
  drawKey(legend);
  $("slider").max = String(frames.length - 1);
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(current - 1));
  $("forward").addEventListener("click", () => go(current + 1));
  $("last").addEventListener("click", () => go(frames.length - 1));
  document.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: frames.length - 1 };
    if (event.key in moves && event.target.tagName !== "INPUT") go(moves[event.key]);
  });
  // one's own cards in one's own review: the seat's token held here, else the signed-in
  // account's seat (the server refuses anyone else, and any running game)
  const mine = await api("GET", `/api/games/${gameId}/review/seat`, undefined, seatToken);
  if (mine.ok && mine.data.frames.length === frames.length) {
    own = mine.data;
    $("own-view").textContent = t("review.own_view");
    $("own-view").hidden = false;
  }
  drawResult();
  go(0);
  installReview({ gameId, go, seatLabel, moves: frames.length - 1, viewerSeat: own ? own.seat : mySeat }); // review.js
  // the table's chat, read with a seat's token this browser holds (chat.py decides who reads)
  chatInit($("chat"), gameId, seatToken,
    { readOnly: true, tableSeats: seats });
  document.body.dataset.ready = "1";
}

start();
