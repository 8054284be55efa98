// Troyes drawn from observe(seat) and the legend (cards, events, buildings, glossary): the
// event queue, the nine activity cards in their three colour columns, the three buildings
// with their spaces, the cathedral's three levels, the city square with each district's dice,
// and the players' boards. Every component has a tooltip from the glossary (data-tip-title and
// data-tip, shown by the page); every element that stands for a legal choice plays it when
// clicked. The few words of the renderer's own come from the "ui" catalog (ui.ty.*).

import { el, seatName, t } from "/static/common.js";

const NEUTRAL = 4;
const COLOURS = ["red", "white", "yellow"];
const LETTERS = "rwy";
const BUILDING_LETTERS = ["P", "B", "C"];
const BUILDING_KEYS = ["palace", "bishopric", "city_hall"];

function ensureStyle() {
  if (document.getElementById("troyes-style")) return;
  document.head.append(el("link", { id: "troyes-style", rel: "stylesheet", href: "/static/render/troyes.css" }));
}

function gloss(ctx, key) {
  return ctx.legend?.glossary?.[key] || null;
}

function name(ctx, key, fallback) {
  return gloss(ctx, key)?.name || fallback;
}

/** A component's tooltip from the glossary (its name, what it does, and ``extra``: whose it
 *  is, where it lies), as the attributes the page's tooltips read. */
function tip(ctx, key, extra = "") {
  const g = gloss(ctx, key);
  if (!g) return extra ? { "data-tip-title": extra } : {};
  return { "data-tip-title": extra ? `${g.name} · ${extra}` : g.name, "data-tip": g.text };
}

/** Offer the legal notations on ``node``, and give it its tooltip. */
function offer(ctx, node, notations, attrs) {
  ctx.offer(node, notations);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

function ownerClass(owner) {
  if (owner === null || owner === undefined || owner < 0) return "ty-empty";
  return owner === NEUTRAL ? "ty-gray" : `seat-bg-${owner}`;
}

function ownerName(ctx, owner) {
  if (owner === NEUTRAL) return name(ctx, "citizen.neutral", "gray");
  if (owner === null || owner === undefined || owner < 0) return "—";
  return seatName(ctx.seats, owner);
}

function dieNode(ctx, face, extraClass = "") {
  const colour = COLOURS[Math.floor(face / 6)];
  return el("span", {
    class: `ty-die ty-die-${colour} ${extraClass}`, ...tip(ctx, `die.${colour}`),
    "data-face": `${LETTERS[Math.floor(face / 6)]}${(face % 6) + 1}`,
  }, String((face % 6) + 1));
}

// -- status and events ----------------------------------------------------------------------
function drawStatus(o, ctx) {
  const start = seatName(ctx.seats, o.start);
  return el("section", { class: "panel ty-status" },
    el("strong", {}, t("board.round_of", { n: o.round, of: o.rounds })),
    el("span", { class: "muted", ...tip(ctx, "start_player") }, ` · ${name(ctx, "start_player", "")}: ${start}`),
    el("span", { class: "muted", ...tip(ctx, "event_queue") }, ` · ${t("ui.ty.decks", o.decks)}`));
}

function drawEvents(o, ctx) {
  const legendEvents = ctx.legend?.events || [];
  const cards = o.events.map((ev, i) => {
    const info = legendEvents[ev.card] || {};
    const banners = [];
    for (let b = 0; b < (info.banners || 0); b += 1) {
      const owner = ev.cubes[b];
      banners.push(el("span", { class: `ty-banner ${ownerClass(owner)}`, ...tip(ctx, "banner", ownerName(ctx, owner)) }));
    }
    const black = Array.from({ length: info.black || 0 }, () => el("span", { class: "ty-die ty-die-black ty-mini", ...tip(ctx, "die.black") }, "●"));
    const node = el("div", { class: `ty-event ty-fight-${info.fight}`, "data-event": i + 1, "data-key": info.key },
      el("div", { class: "ty-event-name" }, name(ctx, `event.${info.key}`, info.key)),
      el("div", { class: "ty-event-cost" }, el("span", { class: `ty-pip ty-die-${info.fight}` }), ` ÷${info.divisor}`, black),
      el("div", { class: "ty-banners" }, banners),
      el("div", { class: "ty-event-vp" }, `${info.vp?.[0]} / ${info.vp?.[1]}`));
    return offer(ctx, node, [`event ${i + 1}`, `target ${i + 1}`], tip(ctx, `event.${info.key}`));
  });
  const black = o.black.map((v) => offer(ctx, el("span", { class: "ty-die ty-die-black", "data-black": v }, String(v)),
    [`also ${v}`], tip(ctx, "black_dice")));
  return el("section", { class: "panel ty-events", id: "events" },
    el("h4", { ...tip(ctx, "event_queue") }, name(ctx, "event_queue", "Events")),
    el("div", { class: "ty-event-row" }, cards),
    black.length ? el("div", { class: "ty-black", id: "black-dice" }, el("span", { class: "muted" }, name(ctx, "black_dice", "Black dice")), black) : null);
}

// -- activity cards -------------------------------------------------------------------------
function drawCards(o, ctx) {
  const legendCards = ctx.legend?.cards || [];
  const slots = ctx.legend?.slots || [];
  const columns = COLOURS.map((colour, c) => {
    const cells = [0, 1, 2].map((r) => {
      const k = c * 3 + r;
      const slot = slots[k] || `${"RWY"[c]}${r + 1}`;
      const id = o.cards[k];
      if (id === null || id === undefined) {
        return el("div", { class: `ty-card ty-back ty-card-${colour}`, "data-slot": slot, ...tip(ctx, "activity_card") }, String(r + 1));
      }
      const info = legendCards[id] || {};
      const spaces = (info.spaces || []).map((vp, i) => {
        const owner = o.tradesmen[k][i];
        return el("span", { class: `ty-space ${ownerClass(owner)}`, ...tip(ctx, "tradesman", ownerName(ctx, owner)) }, String(vp));
      });
      const art = o.illustration[k].map((owner) => el("span", { class: `ty-citizen ${ownerClass(owner)}`, ...tip(ctx, "tradesman", ownerName(ctx, owner)) }));
      const cubes = o.cubes[k].map((n, seat) => (n ? el("span", { class: `ty-cube seat-bg-${seat}`, ...tip(ctx, "cube", seatName(ctx.seats, seat)) }, String(n)) : null));
      const node = el("div", { class: `ty-card ty-card-${colour}${info.delayed ? " ty-delayed" : ""}`, "data-slot": slot, "data-key": info.key },
        el("div", { class: "ty-card-head" }, el("span", { class: "ty-hire" }, `${info.hire}d`),
          el("span", { class: "ty-card-name" }, name(ctx, `card.${info.key}`, info.key)),
          info.delayed ? el("span", { class: "ty-hourglass", ...tip(ctx, "delayed") }) : null),
        el("div", { class: "ty-card-body" }, el("span", { class: "ty-divisor" }, `÷${info.divisor}`), spaces, art, cubes));
      return offer(ctx, node, [`card ${slot}`, `cube ${slot}`, `from ${slot}`], tip(ctx, `card.${info.key}`));
    });
    return el("div", { class: `ty-card-column ty-col-${colour}` }, cells);
  });
  return el("section", { class: "panel ty-cards", id: "activity-cards" },
    el("h4", { ...tip(ctx, "activity_card") }, name(ctx, "activity_card", "Activity cards")),
    el("div", { class: "ty-card-grid" }, columns));
}

// -- buildings and cathedral ------------------------------------------------------------------
function drawBuildings(o, ctx) {
  const rows = ctx.legend?.rows || [];
  const labels = ctx.legend?.space_labels || [];
  const buildings = BUILDING_KEYS.map((key, b) => {
    const mine = rows.filter((r) => r.building === key);
    const drawn = mine.map((r) => {
      const cells = [];
      for (let i = r.first; i < r.first + r.slots; i += 1) {
        const owner = o.spaces[i];
        const label = labels[i];
        const cell = el("span", { class: `ty-citizen ${ownerClass(owner)}`, "data-space": label });
        cells.push(offer(ctx, cell, [`start ${label}`, `from ${label}`], tip(ctx, "citizen", `${label} · ${ownerName(ctx, owner)}`)));
      }
      const values = r.values.length > 1 ? `${r.values[0]}–${r.values[r.values.length - 1]}` : String(r.values[0]);
      return el("div", { class: "ty-row" }, el("span", { class: "ty-row-label" }, values), cells);
    });
    const lying = o.lying[b].map((owner) => el("span", { class: `ty-citizen ty-lying ${ownerClass(owner)}`, ...tip(ctx, "expelled", ownerName(ctx, owner)) }));
    const lyingBox = offer(ctx, el("div", { class: "ty-lying-box", "data-lying": BUILDING_LETTERS[b] }, lying), [`from ${BUILDING_LETTERS[b]}x`], tip(ctx, "expelled"));
    const node = el("div", { class: `ty-building ty-building-${key}`, "data-building": BUILDING_LETTERS[b] },
      el("div", { class: "ty-building-name" }, name(ctx, `building.${key}`, key)), drawn, lyingBox);
    return offer(ctx, node, [`place ${BUILDING_LETTERS[b]}`, `mill ${BUILDING_LETTERS[b]}`], tip(ctx, `building.${key}`));
  });
  return el("section", { class: "panel ty-buildings", id: "buildings" }, buildings);
}

function drawCathedral(o, ctx) {
  const columns = ctx.legend?.cathedral?.columns || 6;
  const levels = ctx.legend?.cathedral?.levels || 3;
  const influence = ctx.legend?.cathedral?.influence || [];
  const rows = [];
  for (let level = levels - 1; level >= 0; level -= 1) {
    const cells = [];
    for (let c = 0; c < columns; c += 1) {
      const owner = o.cathedral[level * columns + c];
      cells.push(el("span", { class: `ty-cath ${ownerClass(owner)}`, ...tip(ctx, "cathedral", `${level + 1} · ${c + 1} · ${ownerName(ctx, owner)}`) }, String(c + 1)));
    }
    rows.push(el("div", { class: "ty-cath-row" }, cells));
  }
  rows.push(el("div", { class: "ty-cath-row ty-cath-gain" }, influence.map((n) => el("span", { class: "ty-cath-note" }, `+${n}`))));
  const node = el("div", { class: "ty-cathedral", id: "cathedral" }, el("div", { class: "ty-building-name" }, name(ctx, "cathedral", "Cathedral")), rows);
  return offer(ctx, node, ["cathedral"], tip(ctx, "cathedral"));
}

// -- the city square --------------------------------------------------------------------------
function drawDistrict(o, ctx, d, pending) {
  const isNeutral = d === NEUTRAL;
  const district = isNeutral ? "n" : String(d + 1);
  const dice = [];
  const counts = o.dice[d];
  for (let f = 0; f < 18; f += 1) {
    for (let n = 0; n < counts[f]; n += 1) {
      const face = `${LETTERS[Math.floor(f / 6)]}${(f % 6) + 1}`;
      const node = dieNode(ctx, f);
      node.dataset.die = `${district}${face}`;
      const mine = !isNeutral && ctx.seat === d;
      // clicking a die never spends influence on a reroll (that stays a button); it takes the
      // die for a group, sets it against a black die, or turns it over after paying to flip
      dice.push(offer(ctx, node, [`die ${district}${face}`, ...(mine ? [`flip ${face}`, `def ${face}`] : [])],
        tip(ctx, `die.${COLOURS[Math.floor(f / 6)]}`)));
    }
  }
  const purse = !isNeutral && o.players[d].purse ? el("span", { class: "ty-purse", ...tip(ctx, "purse") }, `+${o.players[d].purse}d`) : null;
  const who = isNeutral ? name(ctx, "district.neutral", "neutral") : seatName(ctx.seats, d);
  return el("div", { class: `ty-district ${isNeutral ? "ty-gray-border" : `ty-district-${d}`}`, "data-district": district, ...tip(ctx, isNeutral ? "district.neutral" : "district") },
    el("div", { class: "ty-district-name" }, el("span", { class: `dot ${isNeutral ? "ty-gray" : `seat-bg-${d}`}` }), who, purse),
    el("div", { class: "ty-dice" }, dice.length ? dice : el("span", { class: "muted" }, "—")));
}

function drawSquare(o, ctx) {
  const pending = o.pending?.[o.pending.length - 1] || null;
  const districts = o.players.map((_, d) => drawDistrict(o, ctx, d, pending));
  districts.push(drawDistrict(o, ctx, NEUTRAL, pending));
  let group = null;
  if (pending && (pending.kind === "group" || pending.kind === "combat" || pending.kind === "flip")) {
    const faces = pending.kind === "group" ? pending.dice.map((dd) => dd % 18) : (pending.faces || pending.flipped || []);
    const extras = pending.extras || [];
    if (faces.length || extras.length) {
      group = el("div", { class: "ty-group", id: "group" }, faces.map((f) => dieNode(ctx, f, "ty-chosen")),
        extras.map((v) => el("span", { class: "ty-die ty-die-black ty-chosen", ...tip(ctx, "black_dice") }, String(v))));
    }
  }
  const farm = offer(ctx, el("div", { class: "ty-farm", id: "agriculture" }, name(ctx, "agriculture", "Agriculture")),
    ["farm"], tip(ctx, "agriculture"));
  return el("section", { class: "panel ty-square", id: "square" },
    el("h4", { ...tip(ctx, "district") }, name(ctx, "district", "City square")),
    el("div", { class: "ty-districts" }, districts, farm), group);
}

// -- players ----------------------------------------------------------------------------------
function drawInfluence(ctx, value) {
  const max = ctx.legend?.influence_max || 20;
  return el("div", { class: "ty-track", ...tip(ctx, "influence", String(value)) },
    el("div", { class: "ty-track-fill", style: `width:${(100 * value) / max}%` }), el("span", { class: "ty-track-value" }, `${name(ctx, "influence", "Influence")} ${value}`));
}

function drawPlayer(o, ctx, seat) {
  const p = o.players[seat];
  const chars = p.characters === null
    ? Array.from({ length: p.character_count }, () => el("span", { class: "ty-char ty-back", ...tip(ctx, "character") }, "?"))
    : p.characters.map((ch) => {
      const key = ctx.legend?.characters?.[ch]?.key;
      return el("span", { class: "ty-char", "data-character": key, ...tip(ctx, `char.${key}`) }, name(ctx, `char.${key}`, key));
    });
  return el("section", { class: `panel ty-player seat-${seat}${o.to_move === seat ? " turn" : ""}`, "data-player": seat },
    el("h3", {}, el("span", { class: "dot" }), seatName(ctx.seats, seat),
      ctx.seat === seat ? el("span", { class: "muted" }, " ★") : null,
      el("span", { class: "score", ...tip(ctx, "vp") }, ` ${t("ui.ty.vp", { n: p.vp })}`),
      p.passed ? el("span", { class: "badge" }, t("ui.ty.passed")) : null),
    el("div", { class: "row" },
      el("span", { class: "ty-money", ...tip(ctx, "denier") }, `${p.money}d`),
      el("span", { ...tip(ctx, "supply") }, `${name(ctx, "supply", "Supply")} ${p.supply}`),
      el("span", { ...tip(ctx, "reserve") }, `${name(ctx, "reserve", "Reserve")} ${p.reserve}`),
      el("span", { ...tip(ctx, "event_queue") }, `✓${p.events_won.length}`)),
    drawInfluence(ctx, p.influence),
    el("div", { class: "row" }, chars));
}

export function renderTroyes(o, ctx) {
  ensureStyle();
  return el("div", { class: "ty-board" },
    drawStatus(o, ctx),
    drawEvents(o, ctx),
    el("div", { class: "ty-middle" }, drawBuildings(o, ctx), el("section", { class: "panel" }, drawCathedral(o, ctx))),
    drawSquare(o, ctx),
    drawCards(o, ctx),
    el("div", { class: "ty-players" }, o.players.map((_, seat) => drawPlayer(o, ctx, seat))));
}
