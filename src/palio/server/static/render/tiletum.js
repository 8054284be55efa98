// Tiletum drawn from observe(seat) and the legend (tile names, map spots and links):
// status, dice wheel, King track, displays, the map as a schematic, and the player boards.
// Everything in Tiletum's observation is public, so every seat sees the same board.

import { el, seatName } from "/static/common.js";

const COLOURS = "gfwsi"; // die colour = resource letter, in the observation's order
const RESOURCE_NAMES = { g: "gold", f: "food", w: "wool", s: "stone", i: "iron" };
const SVG_NS = "http://www.w3.org/2000/svg";

// Rough longitude/latitude of each town: the map is a schematic, not the printed board.
// Tiletum itself is fictional; it sits between Brugge, Paris, Troyes and Koeln.
const TOWN_PLACES = {
  London: [-0.4, 51.8], Brugge: [2.4, 51.7], Antwerpen: [5.0, 52.2], Hamburg: [10.0, 53.6],
  Tiletum: [4.5, 50.0], Koeln: [7.3, 51.0], Leipzig: [12.4, 51.5], Paris: [2.2, 48.9],
  Troyes: [4.5, 48.2], Strasbourg: [7.6, 48.4], Frankfurt: [9.0, 50.0], Nuernberg: [11.2, 49.3],
  Praha: [14.5, 50.2], Bordeaux: [-0.6, 45.0], Wien: [16.4, 48.2], Lyon: [4.8, 45.9],
  Milano: [8.7, 45.6], Verona: [11.0, 45.7], Venezia: [13.4, 45.8], Toulouse: [1.4, 43.7],
  Arles: [4.7, 43.6], Genova: [8.6, 44.2], Firenze: [11.3, 43.6],
};

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function tileName(legend, tile) {
  if (tile === -1 || tile === null || tile === undefined) return "—";
  return legend.tiles?.[tile] ?? `tile ${tile}`;
}

function mod(a, n) {
  return ((a % n) + n) % n;
}

// -- status, wheel, king track ------------------------------------------------------------
function drawStatus(o, ctx) {
  const parts = [`Round ${o.round}/4`, `turn ${o.turn}/3`, `phase: ${o.phase.replace("_", " ")}`];
  return el("section", { class: "panel tt-status" },
    el("strong", {}, parts.join(" · ")),
    el("span", { class: "muted" }, " · order: ", o.order.map((s) => seatName(ctx.seats, s)).join(", ")),
    el("span", { class: "muted" }, ` · decks: ${o.decks.bonus} bonus, ${o.decks.contract} contracts, ${o.decks.character} characters`),
    el("span", { class: "muted" }, " · corruption: ",
      [...o.corruption.revealed.map(String), ...Array(o.corruption.hidden).fill("?")].join(" ")));
}

function drawWheel(o, ctx) {
  const areas = o.wheel.areas.map((action, area) => {
    const value = mod(area - o.wheel.rotation, 6) + 1;
    const dice = [];
    for (let c = 0; c < 5; c += 1) {
      const count = o.wheel.dice[(value - 1) * 5 + c];
      for (let k = 0; k < count; k += 1) {
        const colour = COLOURS[c];
        const die = el("span", {
          class: `die die-${colour}`, title: `${RESOURCE_NAMES[colour]} die showing ${value}`,
          "data-die": `${value}${colour}`,
        }, String(value));
        const plain = `die ${value}${colour}`;
        ctx.offer(die, [plain, ...[1, 2, 3, 4, 5, 6].map((to) => `${plain}>${to}`)]);
        dice.push(die);
      }
    }
    return el("div", { class: `wheel-area area-${action}`, "data-area": action },
      el("div", { class: "area-head" }, el("strong", {}, action), el("span", { class: "muted" }, ` ${7 - value} AP`)),
      el("div", { class: "area-dice" }, dice.length ? dice : el("span", { class: "muted" }, "no dice")),
      el("div", { class: "area-bonus muted" }, tileName(ctx.legend, o.wheel.bonus[area])));
  });
  return el("section", { class: "panel tt-wheel", id: "wheel" }, el("h4", {}, "Dice wheel"),
    el("div", { class: "wheel" }, areas));
}

function drawKingTrack(o, ctx) {
  const values = ctx.legend.king_vp || [];
  const cells = values.map((vp, step) => el("div", { class: "king-cell" },
    el("span", { class: "king-vp" }, vp > 0 ? `+${vp}` : String(vp)),
    o.players.map((p, seat) => (p.king_step === step ? el("span", { class: `pawn seat-bg-${seat}`, title: seatName(ctx.seats, seat) }) : null))));
  return el("section", { class: "panel tt-king" },
    el("h4", {}, "King track ", el("span", { class: "muted" }, `· King bonus tile: ${tileName(ctx.legend, o.king_bonus)}`)),
    el("div", { class: "king-track" }, cells));
}

// -- displays ----------------------------------------------------------------------------
function drawDisplays(o, ctx) {
  const contracts = o.contracts.map((tile, i) => {
    const node = el("div", { class: "tile contract", "data-slot": i + 1 },
      el("span", { class: "ap" }, `${ctx.legend.contract_slot_ap?.[i] ?? "?"} AP`), tileName(ctx.legend, tile));
    ctx.offer(node, [`contract take ${i + 1}`]);
    return node;
  });
  const characters = o.characters.map((tile, i) => {
    const node = el("div", { class: "tile character", "data-slot": i + 1 }, tileName(ctx.legend, tile));
    ctx.offer(node, [`char take ${i + 1}`]);
    return node;
  });
  const fairs = o.fairs.towns.map((town, i) => {
    const tile = ctx.legend.fair_tiles?.[o.fairs.tiles[i]];
    const what = tile ? `${ctx.legend.fair_conditions[tile[0]].replaceAll("_", " ")} (${tile[1]})` : "?";
    return el("div", { class: `tile fair${i < o.fairs.scored ? " done" : ""}` }, el("strong", {}, town), ` ${what}`);
  });
  return el("section", { class: "panel tt-displays" },
    el("h4", {}, "Contracts"), el("div", { class: "tiles" }, contracts),
    el("h4", {}, "Characters"), el("div", { class: "tiles" }, characters),
    el("h4", {}, "Fairs"), el("div", { class: "tiles" }, fairs));
}

// -- the map -----------------------------------------------------------------------------
function spotPlaces(legend) {
  const spots = legend.spots || [];
  const places = spots.slice(0, legend.towns).map((name, i) => TOWN_PLACES[name]
    || [2 + 12 * Math.cos(i), 48 + 4 * Math.sin(i)]); // an unknown town still gets a place
  for (let i = legend.towns; i < spots.length; i += 1) {
    const ends = (legend.links || []).filter((l) => l.includes(i)).map((l) => (l[0] === i ? l[1] : l[0]));
    const xs = ends.map((e) => places[e][0]);
    const ys = ends.map((e) => places[e][1]);
    places.push([xs.reduce((a, b) => a + b, 0) / xs.length, ys.reduce((a, b) => a + b, 0) / ys.length]);
  }
  return places.map(([lon, lat]) => [40 + (lon + 1.5) * 52, 30 + (54.2 - lat) * 62]);
}

function drawTown(o, ctx, spot, [x, y]) {
  const legend = ctx.legend;
  const name = legend.spots[spot];
  const group = svg("g", { class: "spot town", "data-spot": name });
  group.append(svg("circle", { cx: x, cy: y, r: 11, class: "town-dot" }));
  group.append(svg("text", { x, y: y - 15, class: "town-name", "text-anchor": "middle" }, name));
  const spaces = legend.house_spaces.map((s, i) => ({ ...s, i }))
    .filter((s) => s.town === spot && s.min_players <= o.players.length);
  spaces.forEach((s, k) => {
    const owner = o.map.houses[s.i];
    const square = svg("rect", {
      x: x - spaces.length * 6 + k * 12 + 1, y: y + 13, width: 10, height: 10,
      class: owner === -1 ? "house free" : `house seat-fill-${owner}`, "data-house": s.label,
    });
    ctx.offer(square, [`house ${s.label}`]);
    group.append(square);
  });
  const cathedral = legend.cathedral_towns.indexOf(spot);
  if (cathedral !== -1) {
    const cost = legend.cost_tiles[o.map.cost_tiles[cathedral]];
    const pillars = o.map.pillars[cathedral] || [];
    const label = cost ? `▲ ${cost[0]}s/${cost[1]}vp` : "▲ closed";
    group.append(svg("text", { x: x + 14, y: y + 4, class: "cathedral" }, label));
    pillars.forEach((owner, k) => group.append(svg("rect", {
      x: x + 14 + k * 7, y: y + 8, width: 5, height: 9, class: `pillar seat-fill-${owner}`,
    })));
  }
  const bonus = o.map.bonus[name];
  if (bonus !== undefined) {
    group.append(svg("text", { x: x - 14, y: y + 4, class: "map-bonus", "text-anchor": "end" }, "★"));
  }
  return group;
}

function drawPieces(o, places, legend) {
  const pieces = [];
  o.players.forEach((p, seat) => {
    for (const [kind, letter, dx] of [["architect", "A", -1], ["merchant", "M", 1]]) {
      const spot = legend.spots.indexOf(p[kind]);
      if (spot === -1) continue;
      const [x, y] = places[spot];
      const px = x + dx * (18 + seat * 11);
      pieces.push(svg("g", { class: `piece seat-${seat}`, "data-piece": `${letter}${seat}` },
        svg("circle", { cx: px, cy: y - 3, r: 5.5, class: `seat-fill-${seat}` }),
        svg("text", { x: px, y: y, "text-anchor": "middle", class: "piece-letter" }, letter)));
    }
  });
  return pieces;
}

function drawMap(o, ctx) {
  const legend = ctx.legend;
  if (!legend.spots) return el("section", { class: "panel" }, "map legend unavailable");
  const places = spotPlaces(legend);
  const lines = legend.links.map(([a, b]) => svg("line", {
    x1: places[a][0], y1: places[a][1], x2: places[b][0], y2: places[b][1], class: "road",
  }));
  const spots = legend.spots.map((name, spot) => {
    if (spot < legend.towns) return drawTown(o, ctx, spot, places[spot]);
    const [x, y] = places[spot];
    return svg("g", { class: "spot road-spot", "data-spot": name },
      svg("rect", { x: x - 6, y: y - 6, width: 12, height: 12, transform: `rotate(45 ${x} ${y})`, class: "road-dot" }));
  });
  spots.forEach((node, spot) => {
    const name = legend.spots[spot];
    const mine = [`move arch ${name}`, `move merch ${name}`, `pillar ${name}`, `cathedral ${name}`];
    ctx.offer(node.firstChild, mine); // the dot itself: house squares offer their own space
  });
  const width = Math.max(...places.map((p) => p[0])) + 90;
  const height = Math.max(...places.map((p) => p[1])) + 40;
  const bonuses = Object.entries(o.map.bonus).map(([town, tile]) => `${town}: ${tileName(legend, tile)}`);
  return el("section", { class: "panel tt-map", id: "map" }, el("h4", {}, "Map"),
    svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "map-svg" }, lines, spots, drawPieces(o, places, legend)),
    el("p", { class: "muted small" }, "A = architect, M = merchant, squares = house spaces, ▲ = cathedral (stone cost / VP), ★ = bonus tile: ",
      bonuses.join(" · ") || "none"));
}

// -- player boards -----------------------------------------------------------------------
function drawBoard(o, seat, ctx) {
  const p = o.players[seat];
  const legend = ctx.legend;
  const resources = Object.entries(p.resources).map(([r, n]) => el("span", {
    class: `res res-${r}`, title: RESOURCE_NAMES[r],
  }, `${RESOURCE_NAMES[r]} ${n}`));
  const store = p.storehouse.map((tile, i) => {
    const node = el("span", { class: "tile small" }, `${i + 1}: ${tileName(legend, tile)}`);
    if (ctx.seat === seat) ctx.offer(node, [`helper ${i + 1}`]);
    return node;
  });
  const buildings = (legend.rooms || []).map((floors, b) => el("div", { class: "building" },
    el("div", { class: "building-head" }, `b${b + 1}`,
      p.crests[b] !== -1 ? el("span", { class: "crest" }, ` ${legend.crest_names[p.crests[b]]}`) : null),
    floors.length ? floors.map((room, f) => {
      const node = el("div", { class: `room${p.rooms[room] === -1 ? " empty" : ""}` }, tileName(legend, p.rooms[room]));
      if (ctx.seat === seat) ctx.offer(node, [1, 2, 3, 4].map((slot) => `room ${slot} b${b + 1} f${f + 1}`));
      return node;
    }) : el("div", { class: "room printed" }, "printed")));
  const king = legend.king_vp?.[p.king_step];
  const bonusAp = Object.entries(p.bonus_ap).map(([a, n]) => `${a} +${n}`).join(", ");
  return el("section", {
    class: `panel tt-player seat-${seat}${o.to_move === seat ? " turn" : ""}`, "data-player": seat,
  },
  el("h3", {}, el("span", { class: "dot" }), seatName(ctx.seats, seat),
    ctx.seat === seat ? el("span", { class: "muted" }, " (you)") : null,
    el("span", { class: "score" }, ` ${p.vp} VP`)),
  el("div", { class: "row" }, resources),
  el("div", { class: "row muted" },
    `supply: ${p.houses_supply} houses, ${p.pillars_supply} pillars · King track ${king === undefined ? "?" : king}`
    + ` · contracts done ${p.contracts_done.length} · cathedral ${p.contributed} · completed ${p.completed}`
    + (bonusAp ? ` · bonus AP: ${bonusAp}` : "")),
  el("div", { class: "row" }, el("span", { class: "muted" }, "storehouse: "), store.length ? store : "empty"),
  el("div", { class: "buildings" }, buildings));
}

export function renderTiletum(o, ctx) {
  return el("div", { class: "tt-board" },
    drawStatus(o, ctx),
    el("div", { class: "tt-top" }, drawWheel(o, ctx), drawDisplays(o, ctx)),
    drawKingTrack(o, ctx),
    drawMap(o, ctx),
    el("div", { class: "tt-players" }, o.players.map((_, seat) => drawBoard(o, seat, ctx))));
}
