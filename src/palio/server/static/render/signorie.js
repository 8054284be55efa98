// Signorie drawn from observe(seat) and the legend, laid out like the table: the main board
// (dice areas with their assignment tiles, the seven reward tiles, the cities of Italy with
// their city slots and alliance tiles, the three career tracks, the initiative and turn order
// tracks) and one player board per family (five action slots with their helpers, the bride
// slots, the plan of shields). Every component carries its glossary name and text as a
// tooltip; every element that stands for a legal choice is offered for clicking.
// Everything in Signorie's observation is public: every seat sees the same board.

import { el, seatName, t } from "/static/common.js";

// a rank as the board prints it: one Roman numeral (a single character, in any language)
const RANK_NUMERALS = ["", "\u2160", "\u2161", "\u2162", "\u2163", "\u2164", "\u2165"];

const DIE_LETTERS = "yrpgb";
const TRACK_CODES = ["pol", "cle", "mil"];
const ROW_CODES = ["pol", "cle", "mil", "mar"];
const EFFECT_SIGNS = {
  florins: "ƒ", vp: "VP", initiative: "⇧", advance: "▲", alliance: "◆", threshold: "Σ",
  marriage: "♥", mission: "✉", offspring: "⚀", family: "☺",
};
const KIND_LETTERS = ["♀", "P", "C", "M"]; // a woman, then a diplomat by career
const CRITERION_SIGNS = { sons: "♀", helpers: "●", cities: "⌂", alliances: "◆", careers: "♂" };

function gloss(ctx, key) {
  return ctx.legend.glossary?.[key] || null;
}

function tip(ctx, key, extra = "") {
  const entry = gloss(ctx, key);
  const text = entry ? `${entry.name}: ${entry.text}` : key;
  return extra ? `${text} (${extra})` : text;
}

function nameOf(ctx, key, fallback) {
  return gloss(ctx, key)?.name || fallback;
}

function effectText(effect, amount) {
  const sign = EFFECT_SIGNS[effect] || effect;
  return ["florins", "vp", "initiative", "advance", "threshold"].includes(effect)
    ? `${amount}${sign}` : sign;
}

function shield(ctx, tile, attrs = {}) {
  if (tile === -1 || tile === null || tile === undefined) {
    return el("span", { class: "sg-shield empty", title: tip(ctx, "alliance_tile"), ...attrs }, "·");
  }
  const info = ctx.legend.tiles[tile];
  return el("span", {
    class: `sg-shield fam-${info.family}`, "data-tile": tile,
    title: tip(ctx, `family.${info.family}`, `${info.vp} VP`), ...attrs,
  }, String(info.vp));
}

function die(ctx, colour, value, attrs = {}) {
  return el("span", {
    class: `sg-die die-${colour}`, title: tip(ctx, `die.${colour}`), ...attrs,
  }, String(value));
}

function meeples(ctx, seat, count, kind) {
  const letter = KIND_LETTERS[kind] ?? "●";
  return el("span", {
    class: `sg-meeple sg-p${seat}`, title: `${seatName(ctx.seats, seat)}: ${nameOf(ctx, kind ? "man" : "woman", "")}`,
  }, count > 1 ? `${letter}${count}` : letter);
}

function pendingTop(o) {
  return o.pending.length ? o.pending[o.pending.length - 1] : null;
}

// -- the main board -------------------------------------------------------------------------
function drawStatus(o, ctx) {
  const order = o.order.map((seat, i) => el("span", {
    class: `sg-order sg-p${seat}${o.turn_player === seat ? " turn" : ""}`, title: tip(ctx, "turn_order"),
  }, `${i + 1}. ${seatName(ctx.seats, seat)}`));
  return el("section", { class: "panel sg-status", id: "sg-status" },
    el("strong", { "data-round": o.round }, t("board.round_of", { n: o.round, of: o.rounds })),
    el("span", { class: "sg-order-track", title: tip(ctx, "turn_order") }, order),
    el("span", { class: "sg-stack", title: tip(ctx, "alliance_stack") }, `◆ ${o.alliance_stack}`));
}

function drawAreas(o, ctx) {
  const areas = ctx.legend.dice.map((colour, col) => {
    const letter = DIE_LETTERS[col];
    const tiles = o.assignments[col].map((tile, sex) => {
      const info = ctx.legend.assignments[tile];
      const code = sex ? "w" : "m";
      const node = el("div", {
        class: `sg-assign ${sex ? "woman" : "man"}`, "data-assign": `${letter}${code}`,
        title: tip(ctx, `assignment.${tile}`),
      }, el("span", { class: "sg-slot-sex" }, sex ? "♀" : "♂"),
      ` ${effectText(info.effect, info.amount)} `,
      el("span", { class: "sg-cost" }, info.repeat ? `..${info.meeples}` : `×${info.meeples}`));
      ctx.offer(node, [1, 2, 3].map((n) => `assign ${code} ${n}`));
      return node;
    });
    const dice = [];
    o.pool[col].forEach((count, v) => {
      for (let k = 0; k < count; k += 1) {
        const node = die(ctx, colour, v + 1, { "data-die": `${letter}${v + 1}` });
        ctx.offer(node, [`die ${letter}${v + 1}`]);
        dice.push(node);
      }
    });
    return el("div", { class: `sg-area area-${colour}`, "data-area": colour, title: tip(ctx, "dice_area") },
      el("div", { class: "sg-assigns", title: tip(ctx, "assignment_area") }, tiles),
      el("div", { class: "sg-dice" }, dice.length ? dice : el("span", { class: "muted" }, "–")));
  });
  return el("div", { class: "sg-areas", id: "sg-dice" }, areas);
}

function drawRewards(o, ctx) {
  const legend = ctx.legend;
  const top = pendingTop(o);
  const tiles = o.rewards.map((tile, i) => {
    const round = i + 1;
    const bonus = round <= legend.bonus_rounds;
    const key = bonus ? `bonus.${tile}` : `vptile.${tile}`;
    const info = bonus ? legend.bonus_tiles[tile] : legend.vp_tiles[tile];
    const face = bonus ? effectText(info.effect, info.amount)
      : `${info.per}VP/${CRITERION_SIGNS[info.criterion] || info.criterion}`;
    const node = el("div", {
      class: `sg-reward${round < o.round ? " spent" : ""}${round === o.round ? " now" : ""}`,
      "data-reward": round, title: tip(ctx, key),
    }, el("span", { class: "sg-round" }, String(round)), face);
    if (round === o.round && top && (top[0] === "reward" || top[0] === "buy")) {
      ctx.offer(node, ["reward bonus", "reward florins", "buy", "done"]);
    }
    return node;
  });
  return el("div", { class: "sg-rewards", id: "sg-rewards", title: tip(ctx, "reward_row") }, tiles);
}

function cityOffers(ctx, name) {
  const out = [];
  for (let d = 1; d <= 4; d += 1) out.push(`marry ${name} ${d}`);
  ctx.legend.tracks.forEach((track, t) => {
    for (let s = 1; s <= track.vp.length; s += 1) out.push(`mission ${TRACK_CODES[t]} ${s} ${name}`);
  });
  return out;
}

function drawCities(o, ctx) {
  const cities = ctx.legend.cities.map((city, i) => {
    const seen = o.cities[i];
    const slots = city.slots.map((value, k) => {
      const taken = seen.slots[k];
      return el("span", {
        class: `sg-cslot${taken ? " taken" : ""}`, "data-value": value, title: tip(ctx, "city_slot", String(value)),
      }, el("b", {}, String(value)), taken ? meeples(ctx, taken.seat, 1, taken.kind) : null);
    });
    const node = el("div", {
      class: `sg-city${seen.used ? "" : " unused"}`, "data-city": city.name, title: tip(ctx, `city.${i}`),
    },
    el("div", { class: "sg-city-name" }, nameOf(ctx, `city.${i}`, city.name)),
    el("div", { class: "sg-city-tiles" },
      el("span", { class: "sg-tile-slot", title: tip(ctx, "marriage_slot") }, "♥", shield(ctx, seen.marriage_tile)),
      el("span", { class: "sg-tile-slot", title: tip(ctx, "mission_slot") }, "✉", shield(ctx, seen.mission_tile))),
    el("div", { class: "sg-cslots" }, slots));
    if (seen.used) ctx.offer(node, cityOffers(ctx, city.name));
    return node;
  });
  return el("div", { class: "sg-map", id: "sg-map" }, cities);
}

function drawTracks(o, ctx) {
  const legend = ctx.legend;
  const tracks = legend.tracks.map((track, t) => {
    const code = TRACK_CODES[t];
    const slots = track.vp.map((vp, s) => {
      const men = o.players.map((p, seat) => [seat, p.tracks[t][s] || 0]).filter(([, n]) => n);
      const bonus = s === legend.bonus_florins_slot ? "ƒ" : s === legend.bonus_initiative_slot ? "⇧" : "";
      const node = el("div", {
        class: "sg-tslot", "data-track": code, "data-slot": s + 1,
        title: tip(ctx, `track.${track.name}`, `${vp} VP, rank ${track.rank[s]}`),
      }, el("span", { class: "sg-vp" }, String(vp)), el("span", { class: "sg-rank" }, `${RANK_NUMERALS[track.rank[s]] ?? track.rank[s]}${bonus}`),
      el("span", { class: "sg-men" }, men.map(([seat, n]) => meeples(ctx, seat, n, t + 1))));
      const mine = [`up ${code} ${s + 1}`];
      legend.cities.forEach((city) => mine.push(`mission ${code} ${s + 1} ${city.name}`));
      ctx.offer(node, mine);
      return node;
    });
    const head = el("div", { class: "sg-track-name", title: tip(ctx, `track.${track.name}`) },
      nameOf(ctx, `track.${track.name}`, track.name));
    ctx.offer(head, [`new ${code}`]);
    return el("div", { class: "sg-track", "data-track": code }, head, el("div", { class: "sg-tslots" }, slots));
  });
  const discs = (slot) => o.players.map((p, seat) => [seat, p])
    .filter(([, p]) => p.initiative === slot)
    .sort((a, b) => b[1].initiative_stamp - a[1].initiative_stamp)
    .map(([seat]) => el("span", { class: `sg-disc sg-p${seat}`, title: seatName(ctx.seats, seat) }));
  const initiative = el("div", { class: "sg-track sg-initiative", id: "sg-initiative", title: tip(ctx, "initiative") },
    el("div", { class: "sg-track-name" }, nameOf(ctx, "initiative", "initiative")),
    el("div", { class: "sg-tslots" }, legend.initiative_vp.map((vp, s) => el("div", {
      class: "sg-tslot", "data-slot": s + 1, title: tip(ctx, "initiative", `${vp} VP`),
    }, el("span", { class: "sg-vp" }, vp ? String(vp) : "·"), el("span", { class: "sg-men" }, discs(s))))));
  ctx.offer(initiative, ["init"]);
  return el("div", { class: "sg-tracks", id: "sg-tracks" }, tracks, initiative);
}

// -- player boards --------------------------------------------------------------------------
function drawColumns(o, seat, ctx) {
  const p = o.players[seat];
  const legend = ctx.legend;
  const top = pendingTop(o);
  const acting = top && top[0] === "action" && top[1] === seat && ctx.seat === seat ? top[2] : null;
  const target = acting === null ? null : legend.dice.indexOf(legend.columns[acting].hire_to);
  return el("div", { class: "sg-columns" }, legend.columns.map((col, c) => {
    const value = p.dice[c];
    const head = el("div", { class: `sg-col-head area-${col.colour}`, title: tip(ctx, `column.${col.colour}`) },
      el("span", { class: "sg-cost" }, String(col.cost)), " ", nameOf(ctx, `signoria.${col.action}`, col.action));
    if (acting === c) ctx.offer(head, ["florins", "offspring", "advance"]);
    const slot = el("div", { class: "sg-die-slot", title: tip(ctx, `column.${col.colour}`) },
      value ? die(ctx, col.colour, value) : el("span", { class: "muted" }, "□"));
    const helpers = col.helpers.map((h, i) => {
      const hired = p.helpers[c].includes(i);
      const node = el("span", {
        class: `sg-helper${hired ? " hired" : ""}`, "data-helper": `${col.colour}.${i + 1}`,
        title: tip(ctx, `helper.${col.colour}.${i}`),
      }, hired ? "●" : `${h.cost}`, el("small", {}, effectText(h.effect, h.amount)));
      if (target === c && !hired) ctx.offer(node, [`hire ${i + 1}`]);
      return node;
    });
    return el("div", { class: `sg-col${acting === c ? " acting" : ""}`, "data-column": col.colour },
      head, slot, el("div", { class: "sg-helpers" }, helpers));
  }));
}

function drawPlan(o, seat, ctx) {
  const p = o.players[seat];
  const legend = ctx.legend;
  const plan = legend.plans[seat];
  return el("div", { class: "sg-plan", title: tip(ctx, "plan") }, ROW_CODES.map((code, r) => {
    const row = p.rows[r];
    const families = r < 3 ? plan[r] : [0, 1, 2, 3, 4, 5];
    const left = [...row.up];
    const shields = families.map((fam) => {
      const at = left.findIndex((tile) => legend.tiles[tile].family === fam);
      const tile = at === -1 ? null : left.splice(at, 1)[0];
      return tile === null
        ? el("span", { class: `sg-shield printed fam-${fam}`, title: tip(ctx, `family.${fam}`) }, "")
        : shield(ctx, tile);
    });
    const down = row.down ? el("span", { class: "sg-shield down", title: tip(ctx, "face_down") }, `${row.down}×1`) : null;
    const node = el("div", { class: "sg-plan-row", "data-row": code },
      el("span", { class: "sg-row-name", title: tip(ctx, `row.${legend.rows[r]}`) },
        nameOf(ctx, `row.${legend.rows[r]}`, code)), shields, down);
    if (ctx.seat === seat) ctx.offer(node, [`row ${code}`]);
    return node;
  }));
}

function drawBoard(o, seat, ctx) {
  const p = o.players[seat];
  const legend = ctx.legend;
  const brides = [el("span", { class: "sg-bride printed", title: tip(ctx, "bride") }, "♀")].concat(
    legend.son_vp.map((vp, i) => el("span", {
      class: `sg-bride${i < p.brides ? " married" : ""}`, title: tip(ctx, `son.${i}`),
    }, i < p.brides ? "♀" : (vp ? `${vp}` : "·"))));
  const over = p.dice_sum > p.threshold;
  return el("section", {
    class: `panel sg-player sg-border-${seat}${o.to_move === seat ? " turn" : ""}`, "data-player": seat,
  },
  el("h3", {}, el("span", { class: `sg-disc sg-p${seat}` }), seatName(ctx.seats, seat),
    ctx.seat === seat ? el("span", { class: "muted" }, " ★") : null,
    el("span", { class: "score", title: tip(ctx, "vp") }, ` ${p.vp} VP`),
    p.passed && o.phase === "play" ? el("span", { class: "badge" }, t("board.passed")) : null),
  el("div", { class: "row sg-stocks" },
    el("span", { title: tip(ctx, "florin") }, `ƒ ${p.florins}`),
    el("span", { title: tip(ctx, "supply") }, `♂${p.men} ♀${p.women}`),
    el("span", { class: "muted", title: tip(ctx, "stock") }, `(♂${p.stock_men} ♀${p.stock_women})`),
    el("span", { class: over ? "sg-over" : "", title: tip(ctx, "threshold") }, `Σ ${p.dice_sum}/${p.threshold}`),
    p.parked_men + p.parked_women ? el("span", { title: tip(ctx, "threshold") }, `▣ ${p.parked_men + p.parked_women}`) : null,
    el("span", { class: "sg-brides", title: tip(ctx, "bride") }, brides)),
  drawColumns(o, seat, ctx),
  drawPlan(o, seat, ctx));
}

export function renderSignorie(o, ctx) {
  return el("div", { class: "sg-table" },
    drawStatus(o, ctx),
    el("section", { class: "panel sg-main", id: "sg-main", title: nameOf(ctx, "main_board", "") },
      drawAreas(o, ctx),
      drawRewards(o, ctx),
      el("div", { class: "sg-middle" }, drawCities(o, ctx), drawTracks(o, ctx))),
    el("div", { class: "sg-players" }, o.players.map((_, seat) => drawBoard(o, seat, ctx))));
}
