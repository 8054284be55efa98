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
