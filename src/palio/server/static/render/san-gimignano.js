// San Gimignano (the tower game) drawn from observe(seat): market, decks, hands, towers.
//
// Only what the observation holds is drawn: the viewer's own hand ("hand"), and for anyone
// else the hand size and the cards of it that are public ("known_hand"). Every card, deck and
// the tallest-tower token carries the glossary's tooltip; what the latest move changed is
// marked "recent".
//
// Glossary keys (palio/games/san_gimignano/words.py lists them): card:<code> (tower cards 5-10,
// noble cards L P J O F W), deck, noble_deck, market, hand, token, tower:same, tower:multi,
// tower:completed, donation:<number>.

import { el, seatName, t } from "/static/common.js";

/** The glossary key of a card code: "9" -> card:9, "L9" (a luxury stone as 9) -> card:L. */
function cardKey(code) {
  return `card:${/^L\d/.test(code) ? "L" : code}`;
}

function card(code, ctx, attrs = {}) {
  const noble = /^[A-Z]/.test(code);
  const face = /^L\d/.test(code) ? `L${code.slice(1)}` : code;
  const node = el("span", {
    class: `card ${noble ? "noble" : `v${code}`} ${attrs.class || ""}`, "data-card": code, ...attrs.data,
  }, face);
  return ctx.tip(node, cardKey(code));
}

function deckPile(label, size, key, ctx, extra) {
  const pile = el("div", { class: "pile" }, el("span", { class: "card back" }, String(size)),
    el("span", { class: "pile-label" }, label), extra);
  return ctx.tip(pile, key);
}

function drawCommon(o, ctx) {
  const market = el("div", { class: "cards market" }, o.market.map((code, i) => {
    const node = ctx.recent(card(code, ctx, { class: "market-card" }), `market.${i}`);
    ctx.offer(node, [`take ${code}`]);
    return node;
  }));
  const deck = deckPile(t("ui.sg.tower_deck"), o.deck_size, "deck", ctx,
    o.deck_face_up.length ? el("span", { class: "face-up" }, t("ui.sg.face_up"), " ",
      o.deck_face_up.map((code) => card(code, ctx, { class: "mini" }))) : null);
  ctx.recent(deck, "deck_size");
  ctx.offer(deck, ["draw"]);
  const piles = [deck];
  if (o.nobles) {
    const nobles = ctx.recent(deckPile(t("ui.sg.noble_deck"), o.noble_deck_size, "noble_deck", ctx), "noble_deck_size");
    ctx.offer(nobles, ["noble"]);
    piles.push(nobles);
  }
  const notes = [];
  if (o.end_phase) {
    const declared = o.declared_by === null || o.declared_by === undefined ? null : o.declared_by;
    notes.push(el("span", { class: "badge warn" }, declared === null ? t("ui.sg.end_phase")
      : t("ui.sg.end_phase_declared", { player: seatName(ctx.seats, declared) })));
  }
  if (o.passes) notes.push(el("span", { class: "badge" }, t("ui.sg.passes", { n: o.passes })));
  if (o.removed.length) {
    notes.push(el("span", { class: "muted" }, t("ui.sg.removed"), " ", o.removed.map((code) => card(code, ctx, { class: "mini" }))));
  }
  return el("section", { class: "sg-common panel" },
    el("div", { class: "row" }, piles,
      ctx.tip(el("div", { class: "market-box" }, el("h4", {}, t("ui.sg.market")), market), "market")),
    notes.length ? el("div", { class: "row notes" }, notes) : null);
}

function drawHand(o, seat, ctx) {
  const player = o.players[seat];
  if (player.hand) { // only the viewer's own seat carries "hand"
    return ctx.recent(el("div", { class: "cards hand own-hand", "data-hand": seat }, player.hand.map((code) => {
      const node = card(code, ctx, { class: "hand-card" });
      ctx.offer(node, [`put ${code}`, `give ${code}`, `return ${code}`]);
      return node;
    })), `players.${seat}.hand`);
  }
  const hidden = player.hand_size - player.known_hand.length;
  return ctx.recent(el("div", { class: "cards hand", "data-hand-size": player.hand_size },
    player.known_hand.map((code) => card(code, ctx, { class: "known" })),
    Array.from({ length: Math.max(hidden, 0) }, () => el("span", { class: "card back" })),
    el("span", { class: "muted" }, " ", t("ui.sg.hand_count", { n: player.hand_size }),
      player.known_hand.length ? ` · ${t("ui.sg.known", { n: player.known_hand.length })}` : "")),
  `players.${seat}.hand_size`);
}

function drawTower(tower, index, seat, ctx) {
  const place = index + 1;
  const stack = el("div", { class: "stack" }, tower.cards.map((code) => card(code, ctx, { class: "tower-card" })));
  // a same-number tower shows its number's donation; a run, what a run scores
  const number = tower.cards.find((code) => /^\d+$/.test(code));
  const kind = tower.kind === "same" && number ? `donation:${number}` : `tower:${tower.kind === "same" ? "same" : "multi"}`;
  const node = el("div", {
    class: `tower ${tower.completed ? "completed" : ""} ${tower.kind}`, "data-tower": place,
  }, stack, ctx.tip(el("div", { class: "tower-label" },
    t(tower.kind === "same" ? "ui.sg.tower_same" : "ui.sg.tower_run", { n: tower.height }),
    tower.completed ? ctx.tip(el("span", { class: "done-mark" }, ` ✓ ${t("ui.sg.completed")}`), "tower:completed") : null), kind));
  ctx.recent(node, `players.${seat}.towers.${index}`);
  ctx.offer(node, [`complete ${place}`]);
  return node;
}

function drawPlayer(o, seat, ctx) {
  const player = o.players[seat];
  const towers = player.towers.map((tower, i) => drawTower(tower, i, seat, ctx));
  return el("section", {
    class: `panel sg-player seat-${seat}${o.to_move === seat ? " turn" : ""}`, "data-player": seat,
  },
  el("h3", {}, el("span", { class: "dot" }), seatName(ctx.seats, seat),
    ctx.seat === seat ? el("span", { class: "muted" }, ` (${t("ui.you")})`) : null,
    o.token === seat ? ctx.recent(ctx.tip(el("span", { class: "badge token" }, t("ui.sg.token")), "token"), "token") : null,
    o.scores ? el("span", { class: "score" }, ` ${t("ui.points", { n: o.scores[seat] })}`) : null),
  el("div", { class: "row" }, ctx.tip(el("h4", {}, t("ui.sg.hand")), "hand"), drawHand(o, seat, ctx),
    el("span", { class: "muted" }, t("ui.sg.limit", { n: player.hand_limit }))),
  o.nobles ? el("div", { class: "row muted" },
    t("ui.sg.nobles", { hand: player.nobles_in_hand, used: player.nobles_used }),
    player.front.length ? el("span", {}, ` · ${t("ui.sg.in_front")} `, player.front.map((c) => card(c, ctx, { class: "mini" }))) : null) : null,
  el("div", { class: "towers" }, towers.length ? towers : el("span", { class: "muted" }, t("ui.sg.no_towers"))));
}

export function renderSanGimignano(o, ctx) {
  const order = ctx.seat === 0 ? [1, 0] : [0, 1]; // the viewer's own seat at the bottom
  return el("div", { class: "sg-board" },
    drawPlayer(o, order[0], ctx), drawCommon(o, ctx), drawPlayer(o, order[1], ctx));
}
