// Aquileia drawn from observe(seat) and the legend (fields, cards, plots, glossary): the board's
// six districts in the order they resolve (Mercatus, Arena, Stadium, Theatrum, Forum, Portus),
// the tiebreaker track, the bank and decks, and each player's coins, VP, pieces and cards.
//
// Every component carries a tooltip from the glossary (in the reader's language); every drawn
// element that stands for a legal action is clickable: a field places a henchman, a display
// card is bought, a hand card is played, a plot is built, a coin bids, the blue dice roll, the
// stadium cards are chosen. Only what the observation holds is drawn: other players' unseen
// cards appear as card backs.

import { el, seatName, t } from "/static/common.js";

const METALS = ["gold", "silver", "bronze"];
const LETTER = { gold: "g", silver: "s", bronze: "b" };
const CLASS_BACKS = { slave: "slave", hw: "hw", stadium: "stadium" };
const SYMBOLS = { slave: "♟", weapon: "⚔", horse: "♞", colour: "❦", vp: "❦", theatre: "❦" };
const ROMAN = ["I", "II", "III", "IV", "V", "VI"];

function ensureStyle() {
  if (!document.getElementById("aq-style")) {
    document.head.append(el("link", { id: "aq-style", rel: "stylesheet", href: "/static/render/aquileia.css" }));
  }
}

// -- glossary, tooltips, offers --------------------------------------------------------------
function entry(ctx, key) {
  return ctx.legend.glossary?.[key];
}

function nameOf(ctx, key, fallback) {
  return entry(ctx, key)?.name || fallback;
}

function tip(ctx, key) {
  const g = entry(ctx, key);
  return g ? `${g.name}: ${g.text}` : key;
}

/** Make ``node`` play one of ``notations`` (the legal ones) and keep its glossary tooltip. */
function offer(ctx, node, notations, key) {
  ctx.offer(node, notations);
  if (key) node.title = tip(ctx, key); // the client's offer() put the notations there
  return node;
}

function pawn(ctx, seat, extra = "") {
  return el("span", { class: `aq-pawn seat-bg-${seat} ${extra}`, title: seatName(ctx.seats, seat), "data-seat": seat });
}

function house(ctx, seat) {
  return el("span", { class: `aq-house seat-bg-${seat}`, title: `${nameOf(ctx, "piece.house", "house")}: ${seatName(ctx.seats, seat)}` });
}

function coin(ctx, metal, n, attrs = {}) {
  return el("span", { class: `aq-coin aq-${metal}`, title: tip(ctx, `coin.${metal}`), "data-metal": metal, ...attrs }, String(n));
}

function coins(ctx, values) {
  const parts = METALS.filter((m) => values[m]).map((m) => coin(ctx, m, values[m]));
  return parts.length ? el("span", { class: "aq-coins" }, parts) : el("span", { class: "muted" }, "–");
}

function cardFace(ctx, key, extra = "") {
  const info = ctx.legend.cards?.[key] || {};
  const kind = info.kind || "slave";
  let label = SYMBOLS[kind] || "?";
  if (info.symbols) label = `${label}${info.symbols}`;
  if (kind === "vp") label = `${label}${info.vp}`;
  const colours = (info.colours || []).map((c) => `aq-c-${c}`).join(" ");
  return el("span", {
    class: `aq-card aq-card-${kind} ${info.metal ? `aq-${info.metal}` : ""} ${colours} ${extra}`,
    title: tip(ctx, `card.${key}`), "data-card": key,
  }, label);
}

function cardBack(ctx, cls, count) {
  return el("span", { class: `aq-card back aq-back-${cls}`, title: tip(ctx, `deck.${cls}`), "data-back": cls }, String(count));
}

// -- fields ----------------------------------------------------------------------------------
function fieldsOf(ctx, district) {
  return (ctx.legend.fields || []).map((f, i) => ({ ...f, i })).filter((f) => f.district === district);
}

function spot(o, ctx, f, label) {
  const owner = o.fields[f.i];
  const node = el("div", { class: `aq-field aq-kind-${f.kind}${owner === -1 ? " free" : ""}`, "data-field": f.name },
    el("span", { class: "aq-field-label" }, label ?? (f.value ? String(f.value) : nameOf(ctx, `field.${f.name}`, f.name))),
    owner === -1 ? el("span", { class: "aq-empty" }) : pawn(ctx, owner));
  return offer(ctx, node, [`place ${f.name}`], `field.${f.name}`);
}

function pending(o, kind) {
  return o.pending && o.pending.kind === kind ? o.pending : null;
}

function district(ctx, name, index, ...children) {
  return el("section", { class: `aq-district aq-${name}`, "data-district": name, title: tip(ctx, `district.${name}`) },
    el("h4", {}, `${ROMAN[index]} ${nameOf(ctx, `district.${name}`, name)}`), children);
}

// -- I Mercatus ------------------------------------------------------------------------------
function drawMercatus(o, ctx) {
  const fields = fieldsOf(ctx, "mercatus");
  const byKind = (kind) => fields.filter((f) => f.kind === kind);
  const exchanges = (ctx.legend.exchanges || []).map((_x, k) => offer(ctx,
    el("span", { class: "aq-exchange", "data-exchange": k + 1 }, `⇄${k + 1}`), [`exchange ${k + 1}`], `exchange.${k + 1}`));
  const arma = byKind("arma").map((f) => {
    const key = o.display[f.param];
    const card = key ? cardFace(ctx, key) : el("span", { class: "aq-card empty" }, "–");
    const buying = pending(o, "arma");
    if (buying && buying.slot === f.param) offer(ctx, card, ["buy"], key ? `card.${key}` : null);
    return el("div", { class: "aq-arma" }, card, spot(o, ctx, f, String(f.param + 1)));
  });
  const servi = byKind("servi").map((f) => {
    const row = ctx.legend.servi?.[f.param] || {};
    const node = spot(o, ctx, f, `♟≤${row.max ?? "?"}`);
    node.append(coin(ctx, row.metal || "bronze", 1));
    if (pending(o, "servi")?.row === f.param) {
      offer(ctx, node, [1, 2, 3].map((n) => `slaves ${n}`), `field.${f.name}`);
    }
    return node;
  });
  const blue = el("div", { class: "aq-blue-dice", title: tip(ctx, "die.blue") },
    o.blue.holder === -1 ? Array.from({ length: ctx.legend.blue_dice || 4 }, () => el("span", { class: "aq-die aq-die-blue" })) : pawn(ctx, o.blue.holder));
  return district(ctx, "mercatus", 0,
    el("div", { class: "aq-row" }, spot(o, ctx, byKind("dolus")[0]),
      el("div", { class: "aq-pecunia" }, spot(o, ctx, byKind("pecunia")[0]), el("span", { class: "aq-exchanges" }, exchanges))),
    el("div", { class: "aq-row aq-armas", title: tip(ctx, "deck.hw") }, arma,
      cardBack(ctx, "hw", o.decks.hw)),
    el("div", { class: "aq-row" }, servi, cardBack(ctx, "slave", o.decks.slave)),
    el("div", { class: "aq-row" }, spot(o, ctx, byKind("potentia")[0]), blue));
}

// -- II Arena and III Stadium ------------------------------------------------------------------
function strengths(o, ctx, kind) {
  if (o.contest.kind !== kind) return null;
  const entries = o.contest.strength.map((n, seat) => (n ? el("span", { class: "aq-strength", title: tip(ctx, "track.strength") }, pawn(ctx, seat), String(n)) : null));
  return el("div", { class: "aq-row aq-strengths" }, entries);
}

function drawArena(o, ctx) {
  const fields = fieldsOf(ctx, "arena");
  const blueDecision = pending(o, "blue");
  const dice = el("div", { class: "aq-row aq-red", title: tip(ctx, "die.red") },
    Array.from({ length: 3 }, () => el("span", { class: "aq-die aq-die-red" })));
  let blue = null;
  if (o.blue.holder !== -1 && o.blue.left) {
    blue = el("div", { class: "aq-row aq-blue-left", "data-blue": o.blue.left },
      Array.from({ length: o.blue.left }, () => el("span", { class: "aq-die aq-die-blue", title: tip(ctx, "die.blue") })));
    if (blueDecision) offer(ctx, blue, ["roll"], "die.blue");
  }
  let prize = null;
  if (pending(o, "prize")) {
    const winner = o.pending.seat;
    const vp = (ctx.legend.vp_per_strength || 2) * o.contest.strength[winner];
    prize = el("div", { class: "aq-row aq-prize" },
      offer(ctx, el("span", { class: "aq-token aq-vp" }, `${vp} VP`), ["prize vp"], "track.score"),
      offer(ctx, cardBack(ctx, "slave", "♟"), ["prize slave"], "deck.slave"));
  }
  return district(ctx, "arena", 1, el("div", { class: "aq-row" }, fields.map((f) => spot(o, ctx, f)), dice),
    strengths(o, ctx, "arena"), blue, prize);
}

function drawStadium(o, ctx) {
  const fields = fieldsOf(ctx, "stadium");
  const side = (metal) => el("div", { class: `aq-side aq-${metal}` },
    el("span", { class: "aq-side-label" }, coin(ctx, metal, "")),
    fields.filter((f) => METALS[f.param] === metal).map((f) => spot(o, ctx, f)));
  const choosing = pending(o, "laurel");
  const up = o.stadium_card ? cardFace(ctx, o.stadium_card, "aq-up") : el("span", { class: "aq-card empty" }, "–");
  const deck = cardBack(ctx, "stadium", o.decks.stadium);
  if (choosing) {
    offer(ctx, up, ["laurel open"], o.stadium_card ? `card.${o.stadium_card}` : null);
    offer(ctx, deck, ["laurel hidden"], "deck.stadium");
  }
  const peek = o.peek ? el("span", { class: "aq-peek", title: tip(ctx, "peek") }, nameOf(ctx, "peek", ""), cardFace(ctx, o.peek)) : null;
  return district(ctx, "stadium", 2, el("div", { class: "aq-row" }, side("gold"), side("silver")),
    el("div", { class: "aq-row" }, up, deck, peek), strengths(o, ctx, "stadium"));
}

// -- IV Theatrum -------------------------------------------------------------------------------
function drawTheatrum(o, ctx) {
  const field = fieldsOf(ctx, "theatrum")[0];
  const parts = [spot(o, ctx, field), cardBack(ctx, "theatre", o.decks.theatre)];
  if (o.theatre_card) parts.push(cardFace(ctx, o.theatre_card, "aq-auctioned"));
  let auction = null;
  if (o.auction) {
    const bidding = pending(o, "auction");
    auction = el("div", { class: "aq-row aq-auction" },
      el("span", { class: "aq-bid" }, coins(ctx, o.auction.bid), o.auction.high !== -1 ? pawn(ctx, o.auction.high) : null),
      o.auction.out.map((s) => pawn(ctx, s, "out")),
      bidding ? METALS.map((m) => offer(ctx, coin(ctx, m, "+1", { "data-bid": m }), [`bid ${LETTER[m]}`], `coin.${m}`)) : null);
  }
  return district(ctx, "theatrum", 3, el("div", { class: "aq-row" }, parts), auction);
}

// -- V Forum -----------------------------------------------------------------------------------
function plotNode(o, ctx, plot, p) {
  const owner = o.plots[p];
  const cost = el("span", { class: "aq-cost" }, coins(ctx, plot.cost), plot.slaves ? el("span", { class: "aq-slaves" }, `♟${plot.slaves}`) : null);
  let effect;
  if (plot.kind === "villa") effect = el("span", { class: `aq-villa aq-c-${plot.colour}` }, String(plot.vp));
  else if (plot.kind === "workshop") effect = el("span", { class: "aq-yield" }, `+${plot.yield_vp} VP`);
  else effect = el("span", { class: "aq-income" }, "+", coins(ctx, plot.income));
  const node = el("div", { class: `aq-plot aq-plot-${plot.kind}${owner === -1 ? "" : " built"}`, "data-plot": p + 1 },
    el("span", { class: "aq-plot-n" }, String(p + 1)), effect, cost, owner === -1 ? null : house(ctx, owner));
  const builds = [`build ${p + 1}`, ...[1, 2, 3, 4, 5].map((t) => `build ${p + 1} ${t}`)];
  return offer(ctx, node, builds, `plot.${p + 1}`);
}

function drawForum(o, ctx) {
  const fields = fieldsOf(ctx, "forum");
  const plots = (ctx.legend.plots || []).map((plot, p) => ({ plot, p }));
  const left = plots.filter(({ plot }) => plot.kind !== "villa").map(({ plot, p }) => plotNode(o, ctx, plot, p));
  const right = plots.filter(({ plot }) => plot.kind === "villa").map(({ plot, p }) => plotNode(o, ctx, plot, p));
  return district(ctx, "forum", 4, el("div", { class: "aq-row" }, fields.map((f) => spot(o, ctx, f))),
    el("div", { class: "aq-plots" }, el("div", { class: "aq-plots-left" }, left), el("div", { class: "aq-plots-right" }, right)));
}

// -- VI Portus ---------------------------------------------------------------------------------
function drawPortus(o, ctx) {
  const fields = fieldsOf(ctx, "portus");
  const latro = fields.find((f) => f.kind === "latro");
  const ports = fields.filter((f) => f.kind === "portus").map((f, k) => {
    const node = spot(o, ctx, f, "");
    node.prepend(coin(ctx, METALS[f.param], o.port_coins[k] ? "●" : "○"));
    return node;
  });
  return district(ctx, "portus", 5, el("div", { class: "aq-row" }, spot(o, ctx, latro), ports));
}

// -- tracks, bank, players -----------------------------------------------------------------------
function drawTracks(o, ctx) {
  const players = o.players.length;
  const next = o.tiebreaker.findIndex((s) => s === -1);
  const spaces = o.tiebreaker.slice(0, players).map((seat, k) => {
    const node = el("span", { class: "aq-tb-space", "data-space": k + 1 }, String(k + 1), seat === -1 ? null : pawn(ctx, seat));
    if (k === next) offer(ctx, node, ["tiebreaker"], "track.tiebreaker");
    else node.title = tip(ctx, "track.tiebreaker");
    return node;
  });
  const discards = Object.entries(o.discards).map(([cls, list]) => (list.length
    ? el("span", { class: "aq-discard", title: list.join(", ") }, cardBack(ctx, cls, list.length)) : null));
  return el("section", { class: "panel aq-tracks" },
    el("div", { class: "aq-row" }, el("span", { class: "aq-track", id: "aq-tiebreaker" }, spaces),
      el("span", { class: "aq-bank", title: tip(ctx, "bank") }, nameOf(ctx, "bank", "bank"), coins(ctx, o.bank)),
      el("span", { class: "aq-discards", title: tip(ctx, "discards") }, nameOf(ctx, "discards", "discards"), discards)));
}

function drawPlayer(o, ctx, seat) {
  const p = o.players[seat];
  const mine = ctx.seat === seat;
  const cards = p.cards.map((key) => {
    const node = cardFace(ctx, key);
    if (mine) offer(ctx, node, [`play ${key}`], `card.${key}`);
    return node;
  });
  const hidden = Object.entries(p.hidden).filter(([, n]) => n).map(([cls, n]) => cardBack(ctx, CLASS_BACKS[cls] || cls, n));
  const henchmen = Array.from({ length: p.henchmen }, () => pawn(ctx, seat, "small"));
  const buildings = o.plots.map((owner, k) => (owner === seat ? el("span", { class: "aq-owned", title: tip(ctx, `plot.${k + 1}`) }, String(k + 1)) : null));
  return el("section", {
    class: `panel aq-player seat-${seat}${o.to_move === seat ? " turn" : ""}`, "data-player": seat,
  },
  el("h3", {}, el("span", { class: "dot" }), seatName(ctx.seats, seat), mine ? el("span", { class: "muted" }, " ★") : null,
    el("span", { class: "score", title: tip(ctx, "track.score") }, ` ${p.vp} VP`),
    o.start === seat ? el("span", { class: "aq-start", title: tip(ctx, "piece.start") }, " ⚑") : null),
  el("div", { class: "aq-row" }, coins(ctx, p.coins),
    el("span", { class: "aq-henchmen", title: tip(ctx, "piece.henchman") }, henchmen),
    el("span", { class: "aq-houses", title: tip(ctx, "piece.house") }, `⌂${p.houses}`),
    el("span", { class: "aq-buildings" }, buildings)),
  el("div", { class: `aq-row aq-hand${mine ? " own-hand" : ""}`, "data-hand-size": p.hand_size }, cards, hidden));
}

const STEP_DISTRICT = {
  dolus: "mercatus", pecunia: "mercatus", arma: "mercatus", servi: "mercatus", potentia: "mercatus",
  arena: "arena", stadium: "stadium", theatrum: "theatrum", forum: "forum", latro: "portus", portus: "portus",
};

function drawStatus(o, ctx) {
  const where = STEP_DISTRICT[o.step];
  const step = where ? nameOf(ctx, `district.${where}`, where) : "";
  return el("div", { class: "aq-status", "data-phase": o.phase, "data-step": o.step || "" },
    el("strong", {}, t("board.round_of", { n: o.round, of: o.rounds })), " · ",
    el("span", { title: tip(ctx, `phase.${o.phase}`) }, nameOf(ctx, `phase.${o.phase}`, o.phase)),
    step ? ` · ${step}` : "",
    " · ", el("span", { title: tip(ctx, "piece.start") }, "⚑ ", seatName(ctx.seats, o.start)));
}

export function renderAquileia(o, ctx) {
  ensureStyle();
  return el("div", { class: "aq-board" },
    drawStatus(o, ctx),
    el("div", { class: "aq-city" },
      drawMercatus(o, ctx), drawArena(o, ctx), drawStadium(o, ctx),
      drawTheatrum(o, ctx), drawForum(o, ctx), drawPortus(o, ctx)),
    drawTracks(o, ctx),
    el("div", { class: "aq-players" }, o.players.map((_, seat) => drawPlayer(o, ctx, seat))));
}
