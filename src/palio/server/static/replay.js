// The replay viewer: a finished game's frames (spectator observations), stepped or scrubbed.

import { $, api, catalogById, el, errorMessage, gameTitle, say } from "/static/common.js";
import { rendererFor } from "/static/render/index.js";

const gameId = decodeURIComponent(window.location.pathname.split("/")[2] || "");

let frames = [];
let record = null;
let legend = {};
let seats = null;
let current = 0;

function seatLabel(seat) {
  if (seat === null || seat === undefined) return "";
  return record?.seats?.[seat] ?? `seat ${seat}`;
}

function go(index) {
  current = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[current];
  document.body.dataset.frame = String(current);
  $("slider").value = String(current);
  $("frame-number").textContent = `step ${current} / ${frames.length - 1}`;
  $("frame-move").textContent = frame.notation ? `${seatLabel(frame.seat)}: ${frame.notation}` : "set-up";
  $("step-log").replaceChildren(...(frame.log.length ? frame.log : ["(nothing logged)"]).map(
    (line) => el("li", {}, line)));
  const ctx = { seat: null, seats, legend, text: null, offer: () => {} };
  let board;
  try {
    board = rendererFor(record.game)(frame.observation, ctx);
  } catch (exc) {
    console.error(exc);
    board = el("pre", { class: "generic-view" }, JSON.stringify(frame.observation, null, 1));
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
  const order = result.ranking;
  $("result").replaceChildren(el("h3", {}, "Final scores"),
    el("table", { class: "scores", id: "scores" }, el("tbody", {}, order.map((seat, place) => el("tr", {},
      el("td", {}, `${place + 1}.`), el("td", {}, seatLabel(seat)),
      el("td", { class: "num" }, String(result.scores[seat])))))));
}

async function start() {
  const catalog = await catalogById();
  const reply = await api("GET", `/api/games/${gameId}/replay`);
  if (!reply.ok) {
    say(`No replay: ${errorMessage(reply)}`);
    return;
  }
  ({ frames, record } = reply.data);
  $("title").textContent = `${gameTitle(catalog, record.game)} · ${gameId}`;
  const summary = await api("GET", `/api/games/${gameId}`);
  seats = summary.ok ? summary.data.seats : null;
  const legendReply = await api("GET", `/api/catalog/${record.game}/legend`);
  legend = legendReply.ok ? legendReply.data : {};
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
  drawResult();
  go(0);
  document.body.dataset.ready = "1";
}

start();
