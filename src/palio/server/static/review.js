// The review on the replay page: ask for it, follow its progress, then show
// - each player's chances over the game (inline SVG drawn here, nothing fetched): axes in
//   moves and percent, a legend in the seat colours, the decisions that lost the most as
//   markers and the game report's turning points as marked lines (each jumps the replay there);
// - the game report per player: accuracy per phase and the moments that decided the game;
// - the list of decisions beside the board (the viewer's own first, a filter by player and by
//   "lost the most"), each with the choice played and the better one, in words, with their
//   chances in percent, the reason and the likely continuation; "Show this position" shows the
//   board there (and scrolls to it where the board is not beside the list).
// Every word comes from the "review" catalog; reviews stored before reasons existed have none
// (their empty reasons and lines are not shown).

import { $, api, el, errorMessage, t } from "/static/common.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 260;
const LEFT = 52;
const RIGHT = 12;
const TOP = 14;
const BOTTOM = 40;
const TOUCH_PX = 44; // a marker's touch target on screen
let poll = null;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function percent(value) {
  return value === null || value === undefined ? "–" : String(Math.round(100 * value));
}

function problem(reply) {
  const code = reply.data?.error?.code;
  return t(`review.error.${code}`, {}, "") || errorMessage(reply);
}

/** Add the review panel to the replay page. ``go(frame)`` shows a frame of the replay;
 *  ``seatLabel(seat)`` names a seat; ``moves`` is how many decisions the record has;
 *  ``viewerSeat`` the seat this browser played (its decisions first), or null. */
export function installReview({ gameId, go, seatLabel, moves, viewerSeat = null }) {
  const box = $("review");
  const listBox = $("review-list");
  box.hidden = false;
  const path = `/api/games/${encodeURIComponent(gameId)}/review`;

  function show(move) {
    go(move);
    const board = $("board");
    // the board sits beside the list on a wide screen; elsewhere it is scrolled to
    const rect = board.getBoundingClientRect();
    if (rect.top < 0 || rect.top > window.innerHeight * 0.5) board.scrollIntoView({ block: "start" });
    document.body.dataset.shown = String(move);
  }

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

  function chart(review) {
    const seats = review.seats;
    const points = review.decisions;
    const innerW = WIDTH - LEFT - RIGHT;
    const innerH = HEIGHT - TOP - BOTTOM;
    const x = (move) => LEFT + innerW * (moves ? move / moves : 0);
    const y = (value) => TOP + innerH * (1 - value);
    const node = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "review-chart",
      role: "img", "aria-label": t("review.chart_title") });
    // axes: chance in percent (left), move number (bottom)
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      node.append(svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(tick), y2: y(tick), class: "review-grid" }),
        svg("text", { x: LEFT - 6, y: y(tick) + 4, class: "review-tick", "text-anchor": "end" }, `${tick * 100}%`));
    }
    const step = Math.max(1, Math.ceil(moves / 8 / 10) * 10);
    for (let move = 0; move <= moves; move += step) {
      node.append(svg("line", { x1: x(move), x2: x(move), y1: TOP + innerH, y2: TOP + innerH + 4, class: "review-axis" }),
        svg("text", { x: x(move), y: TOP + innerH + 17, class: "review-tick", "text-anchor": "middle" }, String(move + 1)));
    }
    node.append(svg("line", { x1: LEFT, x2: LEFT, y1: TOP, y2: TOP + innerH, class: "review-axis" }),
      svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: TOP + innerH, y2: TOP + innerH, class: "review-axis" }),
      svg("text", { x: LEFT + innerW / 2, y: HEIGHT - 4, class: "review-axis-title", "text-anchor": "middle" },
        t("review.chart.axis_move")),
      svg("text", { x: 12, y: TOP + innerH / 2, class: "review-axis-title", "text-anchor": "middle",
        transform: `rotate(-90 12 ${TOP + innerH / 2})` }, t("review.chart.axis_chance")));
    const even = y(1 / seats);
    node.append(svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: even, y2: even, class: "review-even" }));
    // turning points: the report's moments, a dashed line each
    const turning = new Map();
    for (const player of review.report || []) {
      for (const m of player.moments) if (!turning.has(m.move)) turning.set(m.move, m);
    }
    for (const [move, m] of turning) {
      const mark = svg("g", { class: "review-turning", "data-move": move },
        svg("title", {}, t("review.chart.turning", { n: move + 1, player: seatLabel(m.seat) })),
        svg("line", { x1: x(move), x2: x(move), y1: TOP, y2: TOP + innerH }),
        svg("path", { d: `M${x(move) - 6},${TOP} L${x(move) + 6},${TOP} L${x(move)},${TOP + 9} Z` }),
        svg("rect", { x: x(move) - 11, y: TOP, width: 22, height: innerH, class: "review-hit", "data-cx": x(move) }));
      mark.addEventListener("click", () => show(move + 1));
      node.append(mark);
    }
    for (let seat = 0; seat < seats; seat += 1) {
      const line = points.filter((d) => d.values[seat] !== null)
        .map((d) => `${x(d.move).toFixed(1)},${y(d.values[seat]).toFixed(1)}`).join(" ");
      node.append(svg("polyline", { points: line, class: `review-line seat-stroke-${seat}` },
        svg("title", {}, seatLabel(seat))));
    }
    const hits = [];
    for (const d of points.filter((p) => p.class)) {
      const value = d.values[d.seat] ?? 0;
      const hit = svg("circle", { cx: x(d.move), cy: y(value), r: 11, class: "review-hit" });
      hits.push(hit);
      const dot = svg("g", { class: `review-marker review-${d.class}`, "data-move": d.move },
        svg("title", {}, `${t("review.chart_move", { n: d.move + 1 })}: ${t(`review.class.${d.class}`)}`),
        hit, svg("circle", { cx: x(d.move), cy: y(value), r: d.class === "blunder" ? 6 : 4.5,
          class: `seat-fill-${d.seat}` }));
      dot.addEventListener("click", () => show(d.move + 1));
      node.append(dot);
    }
    // touch targets of TOUCH_PX on screen, whatever the chart's drawn width
    const fit = () => {
      const drawn = node.getBoundingClientRect().width || WIDTH;
      const r = (TOUCH_PX / 2) * (WIDTH / drawn);
      for (const hit of hits) hit.setAttribute("r", r.toFixed(1));
      for (const rect of node.querySelectorAll(".review-turning .review-hit")) {
        const cx = Number(rect.dataset.cx);
        rect.setAttribute("x", (cx - r).toFixed(1));
        rect.setAttribute("width", (2 * r).toFixed(1));
      }
    };
    requestAnimationFrame(fit);
    window.addEventListener("resize", fit);
    const legend = el("ul", { class: "review-legend", id: "review-legend", "aria-label": t("review.chart.legend") },
      Array.from({ length: seats }, (_, seat) => el("li", { class: `seat-${seat}` },
        el("span", { class: "dot" }), " ", seatLabel(seat))));
    return el("div", { id: "review-chart" }, node, legend);
  }

  function report(review) {
    const players = review.report || [];
    if (!players.length) return "";
    const ordered = [...players].sort((a, b) => (b.seat === viewerSeat) - (a.seat === viewerSeat));
    return el("div", { class: "review-report", id: "review-report" }, ordered.map((p) => el("section",
      { class: `review-player seat-${p.seat}`, "data-seat": p.seat },
      el("h4", {}, el("span", { class: "dot" }), " ", seatLabel(p.seat), " ",
        el("span", { class: "muted" }, p.accuracy === null ? "" : t("review.report.accuracy", { n: Math.round(p.accuracy) }))),
      el("table", { class: "scores review-phases" }, el("tbody", {}, el("tr", {},
        p.phases.map((ph) => el("td", {}, el("div", { class: "muted small" }, t(`review.report.phase.${ph.phase}`)),
          el("strong", {}, ph.accuracy === null ? t("review.report.no_decisions") : String(ph.accuracy))))))),
      el("div", { class: "muted small" }, t("review.report.moments")),
      p.moments.length ? el("ol", { class: "review-moments" }, p.moments.map((m) => el("li", { "data-move": m.move },
        el("div", {}, m.text), m.reason ? el("div", { class: "muted" }, m.reason) : "",
        el("button", { class: "small review-jump", onclick: () => show(m.move + 1) }, t("review.jump")))))
        : el("p", { class: "muted" }, t("review.report.no_moments")))));
  }

  function entry(d) {
    const heading = d.class ? t("review.marked", { n: d.move + 1, player: seatLabel(d.seat),
      judgement: t(`review.class.${d.class}`), loss: percent(d.loss) })
      : `${t("review.chart_move", { n: d.move + 1 })}, ${seatLabel(d.seat)}`;
    const differs = d.played.notation !== d.best.notation;
    return el("li", { class: `review-decision ${d.class ? `review-${d.class}` : ""} seat-${d.seat}`,
      "data-move": d.move, "data-seat": d.seat },
    el("strong", {}, heading),
    el("div", {}, t("review.played", { label: d.played.label, value: percent(d.played.value) })),
    differs && d.played_line ? el("div", { class: "muted review-line-text" }, d.played_line) : "",
    differs ? el("div", {}, t("review.better", { label: d.best.label, value: percent(d.best.value) })) : "",
    d.reason ? el("div", { class: "review-reason" }, d.reason) : "",
    d.line ? el("div", { class: "muted review-line-text" }, d.line) : "",
    el("button", { class: "small review-jump", onclick: () => show(d.move + 1) }, t("review.jump")));
  }

  function decisionList(review) {
    const judged = review.decisions.filter((d) => !d.forced);
    // the viewer's own decisions first, then the others, each in move order
    judged.sort((a, b) => ((b.seat === viewerSeat) - (a.seat === viewerSeat)) || (a.move - b.move));
    const who = el("select", { id: "review-filter-seat" },
      el("option", { value: "all" }, t("review.filter.all")),
      Array.from({ length: review.seats }, (_, seat) => el("option",
        { value: String(seat), selected: seat === viewerSeat }, seatLabel(seat))));
    const flagged = el("input", { type: "checkbox", id: "review-filter-flagged", checked: true });
    const list = el("ol", { class: "review-marked", id: "review-marked" });
    const empty = el("p", { class: "muted", id: "review-none" }, t("review.none_marked"));
    const apply = () => {
      const shown = judged.filter((d) => (who.value === "all" || d.seat === Number(who.value))
        && (!flagged.checked || d.class));
      list.replaceChildren(...shown.map(entry));
      empty.hidden = shown.length > 0;
    };
    who.addEventListener("change", apply);
    flagged.addEventListener("change", apply);
    apply();
    return [el("h3", {}, t("review.list_title")),
      el("div", { class: "row review-filter" },
        el("label", {}, `${t("review.filter.label")} `, who),
        el("label", { class: "check" }, flagged, ` ${t("review.filter.flagged")}`)),
      viewerSeat !== null ? el("p", { class: "muted small" }, t("review.yours_first")) : "",
      list, empty];
  }

  function draw(review) {
    stop();
    const header = ["player", "average", "inaccuracies", "mistakes", "blunders", "accuracy"];
    const summary = el("table", { class: "scores review-summary", id: "review-summary" },
      el("thead", {}, el("tr", {}, header.map((key) => el("th", {}, t(`review.col.${key}`))))),
      el("tbody", {}, review.players.map((p) => el("tr", { class: `seat-${p.seat}` },
        el("td", {}, seatLabel(p.seat)), el("td", { class: "num" }, percent(p.average_loss)),
        el("td", { class: "num" }, String(p.inaccuracies)),
        el("td", { class: "num" }, String(p.mistakes)),
        el("td", { class: "num" }, String(p.blunders)),
        el("td", { class: "num" }, p.accuracy === null ? "–" : String(Math.round(p.accuracy)))))));
    box.replaceChildren(el("h3", {}, t("review.chart_title")), chart(review),
      el("p", { class: "muted" }, t("review.engine", { even: percent(1 / review.seats) })),
      el("h3", {}, t("review.report_title")), report(review),
      el("h3", {}, t("review.summary_title")), el("div", { class: "review-wide" }, summary),
      // what the accuracy means (a review stored before decisions had stakes measured it otherwise)
      review.decisions.every((d) => "accuracy_stake" in d)
        ? el("p", { class: "muted small", id: "review-accuracy-means" }, t("review.accuracy_means")) : "");
    listBox.replaceChildren(...decisionList(review));
    listBox.hidden = false;
    document.body.dataset.review = "done";
  }

  refresh();
}
