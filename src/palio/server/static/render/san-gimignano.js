// San Gimignano (the tower game) drawn from observe(seat): market, decks, hands, towers.
//
// Only what the observation holds is drawn: the viewer's own hand ("hand"), and for anyone
// else the hand size and the cards of it that are public ("known_hand").

import { el, seatName } from "/static/common.js";

const NOBLE_NAMES = {
  L: "Luxury stone", P: "Pilgrimage", J: "Jousting", O: "Height ordinance",
  F: "Santa Fina", W: "City walls",
};

const STEP_WORDS = {
  draw: "drawing cards", put: "putting cards in the market", give: "giving cards back",
  return: "returning cards", build: "building", salvage: "salvaging", defend: "may cancel with a 5",
  window: "may joust", buy: "buying", exchange: "exchanging", complete: "completing towers",
  extend: "extending", collapse: "choosing a tower to collapse",
};

function card(code, attrs = {}) {
  const base = code.startsWith("L") && code.length > 1 ? "L" : code;
  const noble = NOBLE_NAMES[base];
  return el("span", {
    class: `card ${noble ? "noble" : `v${code}`} ${attrs.class || ""}`,
    title: noble ? `${noble}${code.length > 1 ? ` as ${code.slice(1)}` : ""}` : `tower card ${code}`,
    "data-card": code, ...attrs.data,
  }, code);
}

function deckPile(label, size, extra) {
  return el("div", { class: "pile" }, el("span", { class: "card back" }, String(size)),
    el("span", { class: "pile-label" }, label), extra);
}

function drawCommon(o, ctx) {
  const market = el("div", { class: "cards market" }, o.market.map((code) => {
    const node = card(code, { class: "market-card" });
    ctx.offer(node, [`take ${code}`]);
    return node;
  }));
  const deck = deckPile("tower deck", o.deck_size,
    o.deck_face_up.length ? el("span", { class: "face-up" }, "face up on top: ",
      o.deck_face_up.map((code) => card(code, { class: "mini" }))) : null);
  ctx.offer(deck, ["draw"]);
  const piles = [deck];
  if (o.nobles) {
    const nobles = deckPile("noble deck", o.noble_deck_size);
    ctx.offer(nobles, ["noble"]);
    piles.push(nobles);
  }
  const notes = [];
  if (o.end_phase) {
    notes.push(el("span", { class: "badge warn" },
      o.declared_by === null || o.declared_by === undefined ? "end phase" : `end phase (declared by seat ${o.declared_by})`));
  }
  if (o.passes) notes.push(el("span", { class: "badge" }, `${o.passes} pass${o.passes > 1 ? "es" : ""} in a row`));
  for (const frame of o.pending) {
    notes.push(el("span", { class: "badge" }, `${seatName(ctx.seats, frame.seat)}: ${STEP_WORDS[frame.step] || frame.step}`));
  }
  if (o.removed.length) notes.push(el("span", { class: "muted" }, `out of the game: ${o.removed.join(" ")}`));
  return el("section", { class: "sg-common panel" },
    el("div", { class: "row" }, piles, el("div", { class: "market-box" }, el("h4", {}, "Market"), market)),
    notes.length ? el("div", { class: "row notes" }, notes) : null);
}

function drawHand(o, seat, ctx) {
  const player = o.players[seat];
  if (player.hand) { // only the viewer's own seat carries "hand"
    return el("div", { class: "cards hand own-hand", "data-hand": seat }, player.hand.map((code) => {
      const node = card(code, { class: "hand-card" });
      ctx.offer(node, [`put ${code}`, `give ${code}`, `return ${code}`]);
      return node;
    }));
  }
  const hidden = player.hand_size - player.known_hand.length;
  return el("div", { class: "cards hand", "data-hand-size": player.hand_size },
    player.known_hand.map((code) => card(code, { class: "known" })),
    Array.from({ length: Math.max(hidden, 0) }, () => el("span", { class: "card back" })),
    el("span", { class: "muted" }, ` ${player.hand_size} card${player.hand_size === 1 ? "" : "s"} in hand`
      + (player.known_hand.length ? `, ${player.known_hand.length} known` : "")));
}

function drawTower(tower, number, ctx) {
  const stack = el("div", { class: "stack" }, tower.cards.map((code) => card(code, { class: "tower-card" })));
  const node = el("div", {
    class: `tower ${tower.completed ? "completed" : ""} ${tower.kind}`, "data-tower": number,
  }, stack, el("div", { class: "tower-label" }, `#${number} · ${tower.height} high · ${tower.kind === "same" ? "same" : "run"}`,
    tower.completed ? el("span", { class: "done-mark", title: "completed" }, " ✓ completed") : null));
  ctx.offer(node, [`complete ${number}`]);
  return node;
}

function drawPlayer(o, seat, ctx) {
  const player = o.players[seat];
  const towers = player.towers.map((tower, i) => drawTower(tower, i + 1, ctx));
  return el("section", {
    class: `panel sg-player seat-${seat}${o.to_move === seat ? " turn" : ""}`, "data-player": seat,
  },
  el("h3", {}, el("span", { class: "dot" }), seatName(ctx.seats, seat),
    ctx.seat === seat ? el("span", { class: "muted" }, " (you)") : null,
    o.token === seat ? el("span", { class: "badge token", title: "tallest-tower token, worth 10" }, "tallest tower (+10)") : null,
    o.scores ? el("span", { class: "score" }, ` ${o.scores[seat]} points`) : null),
  el("div", { class: "row" }, el("h4", {}, "Hand"), drawHand(o, seat, ctx),
    el("span", { class: "muted" }, `limit ${player.hand_limit}`)),
  o.nobles ? el("div", { class: "row muted" },
    `nobles in hand: ${player.nobles_in_hand} · nobles used: ${player.nobles_used}`,
    player.front.length ? el("span", {}, " · in front: ", player.front.map((c) => card(c, { class: "mini" }))) : null) : null,
  el("div", { class: "towers" }, towers.length ? towers : el("span", { class: "muted" }, "no towers yet")));
}

export function renderSanGimignano(o, ctx) {
  const order = ctx.seat === 0 ? [1, 0] : [0, 1]; // the viewer's own seat at the bottom
  return el("div", { class: "sg-board" },
    drawPlayer(o, order[0], ctx), drawCommon(o, ctx), drawPlayer(o, order[1], ctx));
}
