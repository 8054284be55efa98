// Ratings beside players' names (server side: palio/server/ratings.py): on the game page's seat
// bar and in the lobby's lists, for the seats accounts hold at rated tables; and the link to
// each game's leaderboard (/ratings/{game}). Numbers only ever go in as text.

import { $, api, el, language, seatName, t } from "/static/common.js";

const known = {}; // game id -> {seat: {rating, change}}, fetched once per status

async function fetchRatings(ids) {
  if (!ids.length) return {};
  const reply = await api("GET", `/api/seat-ratings?games=${ids.map(encodeURIComponent).join(",")}`);
  return reply.ok ? reply.data : {};
}

function ratingText(entry) {
  const change = entry.change ? ` (${entry.change[1] - entry.change[0] >= 0 ? "+" : ""}${entry.change[1] - entry.change[0]})` : "";
  return `${t("ratings.seat_rating", { rating: entry.rating })}${change}`;
}

/** After the seat bar is drawn: each rated seat's rating (and, once rated, its change). */
export async function seatBarRatings(view) {
  const key = `${view.id}/${view.status}`;
  if (!(key in known)) {
    known[key] = null;
    known[key] = (await fetchRatings([view.id]))[view.id] || {};
  }
  const ratings = known[key];
  if (!ratings) return;
  for (const [seat, entry] of Object.entries(ratings)) {
    const chip = document.querySelector(`#seats .seat-chip[data-seat="${seat}"]`);
    if (chip && !chip.querySelector(".rating")) chip.append(el("span", { class: "rating muted" }, ` ${ratingText(entry)}`));
  }
}

/** After a lobby list is drawn: a line of the rated seats' ratings on each rated table. */
export async function lobbyRatings(box, summaries) {
  const found = await fetchRatings(summaries.map((s) => s.id));
  for (const summary of summaries) {
    const ratings = found[summary.id];
    const row = box.querySelector(`.game-row[data-game="${CSS.escape(summary.id)}"]`);
    if (!ratings || !row || !Object.keys(ratings).length) continue;
    row.querySelector(".seat-names")?.after(el("span", { class: "seat-ratings muted" },
      Object.entries(ratings).map(([seat, entry]) => `${seatName(summary.seats, Number(seat))}: ${ratingText(entry)}`).join(" · ")));
  }
}

/** The lobby's link to the chosen game's leaderboard. */
export function leaderboardLink(select) {
  const link = el("a", { id: "ratings-link", class: "small", href: "#" }, t("ratings.link"));
  const update = () => { link.href = `/ratings/${encodeURIComponent(select.value)}?lang=${language()}`; };
  select.addEventListener("change", update);
  update();
  $("create-rules")?.after(" ", link);
}

// -- the profile: finished games, and each game type's rating history -----------------------------
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function dateText(iso) {
  const moment = new Date(iso);
  return Number.isNaN(moment.getTime()) ? "" : new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(moment);
}

function changeText(change) {
  const delta = change.after - change.before;
  return `${change.before} → ${change.after} (${delta >= 0 ? "+" : ""}${delta})`;
}

/** A rating's "provisional" mark while its uncertainty is high (ratings.PROVISIONAL_SIGMA). */
export function provisionalMark(entry) {
  return entry?.provisional ? el("span", { class: "badge provisional", title: t("ratings.provisional_help") },
    t("ratings.provisional")) : null;
}

/** Each finished game of the account: date, game, place, and how it changed the rating. */
export function finishedGames(games, ratingsByGame, catalogTitle) {
  const changes = {};
  for (const entry of Object.values(ratingsByGame || {})) {
    for (const step of entry.history || []) changes[step.game_id] = step;
  }
  const done = games.filter((g) => g.status === "finished");
  return el("table", { id: "finished-table", class: "scores finished-games" },
    el("thead", {}, el("tr", {}, ["date", "game", "place", "change"].map((c) => el("th", {}, t(`ratings.col_${c}`))))),
    el("tbody", {}, done.map((g) => el("tr", { "data-game": g.id },
      el("td", {}, g.finished_at ? dateText(g.finished_at) : ""),
      el("td", {}, el("a", { href: `/games/${encodeURIComponent(g.id)}/replay` }, catalogTitle(g.game))),
      el("td", { class: "place" }, g.place ? t("ratings.place_n", { n: g.place, players: g.players }) : "–"),
      el("td", { class: "change" }, changes[g.id] ? changeText(changes[g.id]) : t("ratings.unrated"))))));
}

/** One graph per game type: the rating before the first rated game, then after each (drawn
 *  here as SVG; nothing is fetched). */
export function ratingGraph(gameId, entry, title) {
  const history = entry.history || [];
  if (!history.length) return null;
  const values = [history[0].before, ...history.map((h) => h.after)];
  const width = 320;
  const height = 140;
  const pad = { left: 44, right: 10, top: 10, bottom: 20 };
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 20);
  const x = (i) => pad.left + (values.length === 1 ? 0 : (i * (width - pad.left - pad.right)) / (values.length - 1));
  const y = (v) => pad.top + ((high - v) * (height - pad.top - pad.bottom)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const chart = svg("svg", { class: "rating-graph", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": t("ratings.history_title", { game: title }), "data-points": values.length },
  svg("line", { class: "graph-axis", x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom }),
  svg("line", { class: "graph-axis", x1: pad.left, y1: height - pad.bottom, x2: width - pad.right, y2: height - pad.bottom }),
  svg("text", { class: "graph-label", x: pad.left - 4, y: y(high) + 4, "text-anchor": "end" }, String(high)),
  svg("text", { class: "graph-label", x: pad.left - 4, y: y(low) + 4, "text-anchor": "end" }, String(low)),
  svg("polyline", { class: "graph-line", points }),
  history.map((h, i) => svg("circle", { class: "graph-point", cx: x(i + 1), cy: y(h.after), r: 4 },
    svg("title", {}, t("ratings.history_point", { date: dateText(h.at), before: h.before, after: h.after })))));
  return el("figure", { class: "rating-history", "data-game": gameId },
    el("figcaption", {}, t("ratings.history_title", { game: title })), chart);
}
