// The review on the replay page: ask for it, follow its progress, then draw each player's
// chances over the game (inline SVG, drawn here), mark the decisions that lost the most, list
// them (the choice played and the better one, in words, with both estimates; a button jumps
// the replay there) and sum up each player. Every word comes from the "review" catalog.

import { $, api, el, errorMessage, t } from "/static/common.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 180;
const PAD = 24;
let poll = null;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

function share(value) {
  return value === null || value === undefined ? "–" : value.toFixed(2);
}

function problem(reply) {
  const code = reply.data?.error?.code;
  return t(`review.error.${code}`, {}, "") || errorMessage(reply);
}

/** Add the review panel to the replay page. ``go(frame)`` shows a frame of the replay;
 *  ``seatLabel(seat)`` names a seat; ``moves`` is how many decisions the record has. */
export function installReview({ gameId, go, seatLabel, moves }) {
  const box = $("review");
  box.hidden = false;
  const path = `/api/games/${encodeURIComponent(gameId)}/review`;

  async function refresh() {
    const reply = await api("GET", path);
    if (reply.status === 404) return offer();
    if (!reply.ok) return box.replaceChildren(el("p", { class: "muted" }, problem(reply)));
    const data = reply.data;
    if (data.status === "done") return draw(data.review);
    if (data.status === "queued" || data.status === "running") return progress(data);
    offer(t(`review.${data.status}`));
  }

  function offer(note = "") {
    stop();
    const button = el("button", { id: "review-button", title: t("review.button_title") },
      t("review.button"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      const reply = await api("POST", path);
      if (!reply.ok) {
        button.disabled = false;
        box.append(el("p", { class: "message" }, problem(reply)));
        return;
      }
      refresh();
    });
    box.replaceChildren(el("h3", {}, t("review.title")), button,
      note ? el("p", { class: "muted" }, note) : "");
  }

  function progress(data) {
    const text = data.status === "queued" ? t("review.queued")
      : t("review.running", { done: data.progress, total: data.total || moves });
    const cancel = el("button", { id: "review-cancel", class: "small" }, t("review.cancel"));
    cancel.addEventListener("click", async () => {
      await api("DELETE", path);
      refresh();
    });
    box.replaceChildren(el("h3", {}, t("review.title")),
      el("progress", { id: "review-progress", max: String(data.total || moves || 1),
        value: String(data.progress) }),
      el("span", { class: "muted" }, " ", text, " "), cancel);
    stop();
    poll = setTimeout(refresh, 1000);
  }

  function stop() {
    if (poll !== null) clearTimeout(poll);
    poll = null;
  }

  function draw(review) {
    stop();
    const seats = review.seats;
    const points = review.decisions;
    const marked = points.filter((d) => d.class);
    const x = (move) => PAD + (WIDTH - 2 * PAD) * (moves ? move / moves : 0);
    const y = (value) => HEIGHT - PAD - (HEIGHT - 2 * PAD) * value;
    const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "review-chart",
      role: "img", "aria-label": t("review.chart_title") });
    chart.append(svg("rect", { x: PAD, y: PAD, width: WIDTH - 2 * PAD, height: HEIGHT - 2 * PAD,
      class: "review-frame" }));
    const even = y(1 / seats);
    chart.append(svg("line", { x1: PAD, x2: WIDTH - PAD, y1: even, y2: even, class: "review-even" }));
    for (let seat = 0; seat < seats; seat += 1) {
      const line = points.filter((d) => d.values[seat] !== null)
        .map((d) => `${x(d.move).toFixed(1)},${y(d.values[seat]).toFixed(1)}`).join(" ");
      chart.append(svg("polyline", { points: line, class: `review-line seat-stroke-${seat}` },
        svg("title", {}, seatLabel(seat))));
    }
    for (const d of marked) {
      const value = d.values[d.seat] ?? 0;
      const dot = svg("circle", { cx: x(d.move), cy: y(value), r: d.class === "blunder" ? 6 : 4.5,
        class: `review-marker review-${d.class} seat-fill-${d.seat}`, "data-move": d.move },
      svg("title", {}, t("review.chart_move", { n: d.move + 1 })));
      dot.addEventListener("click", () => go(d.move + 1));
      chart.append(dot);
    }
    const list = marked.length ? el("ol", { class: "review-marked", id: "review-marked" },
      marked.map((d) => el("li", { class: `review-${d.class} seat-${d.seat}`, "data-move": d.move },
        el("strong", {}, t("review.marked", { n: d.move + 1, player: seatLabel(d.seat),
          judgement: t(`review.class.${d.class}`), loss: share(d.loss) })),
        el("div", {}, t("review.played", { label: d.played.label, value: share(d.played.value) })),
        el("div", {}, t("review.better", { label: d.best.label, value: share(d.best.value) })),
        el("button", { class: "small review-jump", onclick: () => go(d.move + 1) }, t("review.jump")))))
      : el("p", { class: "muted" }, t("review.none_marked"));
    const header = ["player", "average", "inaccuracies", "mistakes", "blunders", "accuracy"];
    const summary = el("table", { class: "scores review-summary", id: "review-summary" },
      el("thead", {}, el("tr", {}, header.map((key) => el("th", {}, t(`review.col.${key}`))))),
      el("tbody", {}, review.players.map((p) => el("tr", { class: `seat-${p.seat}` },
        el("td", {}, seatLabel(p.seat)), el("td", { class: "num" }, p.average_loss.toFixed(3)),
        el("td", { class: "num" }, String(p.inaccuracies)),
        el("td", { class: "num" }, String(p.mistakes)),
        el("td", { class: "num" }, String(p.blunders)),
        el("td", { class: "num" }, p.accuracy === null ? "–" : String(Math.round(p.accuracy)))))));
    box.replaceChildren(el("h3", {}, t("review.chart_title")),
      el("div", { id: "review-chart" }, chart),
      el("p", { class: "muted" }, t("review.engine", { bot: review.engine.bot,
        n: review.engine.iterations ?? "–", even: share(1 / seats) })),
      el("h3", {}, t("review.marked_title")), list,
      el("h3", {}, t("review.summary_title")), summary);
    document.body.dataset.review = "done";
  }

  refresh();
}
