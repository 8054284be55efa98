// Tiletum drawn from observe(seat) and the legend (tiles, map spots and links, glossary):
// status, dice wheel, King track, displays, the map as a schematic, and the player boards.
// Everything in Tiletum's observation is public, so every seat sees the same board.
//
// Every tile, die, space, track step and piece carries the glossary's tooltip (its name and
// what it does); what the latest move changed is marked "recent". Glossary keys
// (palio/games/tiletum/words.py lists them): tile:<id>, spot:<name>, house:<label>,
// cathedral:<town>, cost:<n>, area:<action>, king:<step>, building:<n>, crest_space:<n>,
// contract_space:<n>, fair:<n>, res:<letter>, crest:<family>, corruption, storehouse, king_tile,
// wheel.

import { el, seatName, t } from "/static/common.js";

const COLOURS = "gfwsi"; // die colour = resource letter, in the observation's order
const SVG_NS = "http://www.w3.org/2000/svg";
const ZOOMS = [1, 1.6, 2.4];

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

// index into ZOOMS, kept while the page lives (views redraw the board); a phone starts zoomed
// in, the map panned inside its own box, since the whole map at 390 px has unreadable names
const PHONE = window.innerWidth < 700;
let mapZoom = PHONE ? 2 : 0;
// a clickable spot's target on a phone, in map units: 44 px across at the phone's zoom (about
// 0.8 px a unit at 390 px)
const FINGER_R = 28;
let mapScroll = null; // where the reader panned the zoomed map to

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

function mod(a, n) {
  return ((a % n) + n) % n;
}

function hasTile(tile) {
  return !(tile === -1 || tile === null || tile === undefined);
}

/** A tile's name (from the glossary), or a dash for an empty space. */
function tileName(ctx, tile) {
  if (!hasTile(tile)) return "—";
  return ctx.name(`tile:${tile}`, ctx.legend.tiles?.[tile] ?? "?");
}

/** A tile drawn as a small card with its tooltip. */
function tileNode(ctx, tile, cls, ...extra) {
  const node = el("div", { class: `tile ${cls}${hasTile(tile) ? "" : " empty"}`, "data-tile": hasTile(tile) ? tile : "" },
    ...extra, el("span", { class: "tile-name" }, tileName(ctx, tile)));
  return hasTile(tile) ? ctx.tip(node, `tile:${tile}`) : node;
}

function resourceName(ctx, letter) {
  return ctx.name(`res:${letter}`, letter);
}

function spotName(ctx, spot) {
  return ctx.name(`spot:${spot}`, spot);
}

// -- status, wheel, king track ------------------------------------------------------------
function drawStatus(o, ctx) {
  const phase = t(`ui.tt.phase.${o.phase}`, {}, o.phase);
  const corruption = ctx.tip(el("span", { class: "corruption" }, t("ui.tt.corruption"), " ",
    o.corruption.revealed.map((v) => el("span", { class: "token-face" }, String(v))),
    Array.from({ length: o.corruption.hidden }, () => el("span", { class: "token-face hidden" }, "?"))), "corruption");
  const decks = ["bonus", "contract", "character"].map((deck) => el("span", { class: "deck" }, t(`ui.tt.deck.${deck}`, { n: o.decks[deck] })));
  return el("section", { class: "panel tt-status" },
    el("strong", {}, t("board.round_of", { n: o.round, of: ctx.legend.rounds ?? 4 }), o.phase === "play" ? ` · ${t("ui.tt.turn", { n: o.turn })}` : "", " · ", phase),
    el("span", { class: "muted" }, " · ", t("ui.tt.order"), " ", o.order.map((s) => seatName(ctx.seats, s)).join(" → ")),
    el("span", { class: "muted decks" }, " · ", decks),
    el("span", { class: "muted" }, " · "), ctx.recent(corruption, "corruption"));
}

function drawWheel(o, ctx) {
  const areas = o.wheel.areas.map((action, area) => {
    const value = mod(area - o.wheel.rotation, 6) + 1;
    const dice = [];
    let changed = false;
    for (let c = 0; c < 5; c += 1) {
      const index = (value - 1) * 5 + c;
      changed = changed || ctx.changed(`wheel.dice.${index}`);
      const count = o.wheel.dice[index];
      for (let k = 0; k < count; k += 1) {
        const colour = COLOURS[c];
        const die = el("span", {
          class: `die die-${colour}`, "data-die": `${value}${colour}`,
          "data-tip-title": t("ui.tt.die", { resource: resourceName(ctx, colour), value }),
          "data-tip": t("ui.tt.die_gives", { n: value, resource: resourceName(ctx, colour), ap: 7 - value }),
        }, String(value));
        const plain = `die ${value}${colour}`;
        ctx.offer(die, [plain, ...[1, 2, 3, 4, 5, 6].map((to) => `${plain}>${to}`)]);
        dice.push(die);
      }
    }
    const node = el("div", { class: `wheel-area area-${action}${changed ? " recent" : ""}`, "data-area": action },
      ctx.tip(el("div", { class: "area-head" }, el("strong", {}, ctx.name(`area:${action}`, action)),
        el("span", { class: "muted" }, ` ${t("ui.tt.die_ap", { value, ap: 7 - value })}`)), `area:${action}`),
      el("div", { class: "area-dice" }, dice.length ? dice : el("span", { class: "muted" }, t("ui.tt.no_dice"))),
      ctx.recent(tileNode(ctx, o.wheel.bonus[area], "area-bonus"), `wheel.bonus.${area}`));
    return node;
  });
  return el("section", { class: "panel tt-wheel", id: "wheel" }, ctx.tip(el("h4", {}, t("ui.tt.wheel")), "wheel"),
    el("div", { class: "wheel" }, areas));
}

function drawKingTrack(o, ctx) {
  const values = ctx.legend.king_vp || [];
  const cells = values.map((vp, step) => {
    const here = o.players.map((p, seat) => ({ p, seat })).filter(({ p }) => p.king_step === step)
      .sort((a, b) => a.p.king_stamp - b.p.king_stamp); // the first to arrive lies at the bottom
    const cell = el("div", { class: `king-cell${vp < 0 ? " red" : vp > 0 ? " blue" : ""}`, "data-step": step },
      el("span", { class: "king-vp" }, vp > 0 ? `+${vp}` : String(vp)),
      el("span", { class: "pawns" }, here.map(({ seat }) => ctx.recent(el("span", {
        class: `pawn seat-bg-${seat}`, "data-tip-title": seatName(ctx.seats, seat),
      }), `players.${seat}.king_step`))));
    return ctx.tip(cell, `king:${step}`);
  });
  return el("section", { class: "panel tt-king" },
    el("h4", {}, t("ui.tt.king_track")),
    el("div", { class: "king-scroll" }, el("div", { class: "king-track" }, cells)),
    el("div", { class: "row small" }, ctx.tip(el("span", { class: "muted" }, t("ui.tt.king_bonus")), "king_tile"),
      ctx.recent(tileNode(ctx, o.king_bonus, "king-bonus"), "king_bonus")));
}

// -- displays ----------------------------------------------------------------------------
function drawDisplays(o, ctx) {
  const contracts = o.contracts.map((tile, i) => {
    const node = ctx.recent(tileNode(ctx, tile, "contract", el("span", { class: "ap" },
      t("ui.tt.ap", { n: ctx.legend.contract_slot_ap?.[i] ?? "?" }))), `contracts.${i}`);
    node.dataset.slot = i + 1;
    ctx.offer(node, [`contract take ${i + 1}`]);
    return node;
  });
  const characters = o.characters.map((tile, i) => {
    const node = ctx.recent(tileNode(ctx, tile, "character"), `characters.${i}`);
    node.dataset.slot = i + 1;
    ctx.offer(node, [`char take ${i + 1}`]);
    return node;
  });
  const fairs = o.fairs.towns.map((town, i) => {
    const fairTile = o.fairs.tiles[i];
    const node = el("div", { class: `tile fair${i < o.fairs.scored ? " done" : ""}`, "data-fair": i + 1 },
      el("strong", {}, `${i + 1}. ${spotName(ctx, town)}`), " ",
      el("span", {}, ctx.name(`fair:${fairTile}`, "")));
    return ctx.recent(ctx.tip(node, `fair:${fairTile}`), "fairs.scored");
  });
  return el("section", { class: "panel tt-displays" },
    el("h4", {}, t("ui.tt.contracts")), el("div", { class: "tiles" }, contracts),
    el("h4", {}, t("ui.tt.characters")), el("div", { class: "tiles" }, characters),
    el("h4", {}, t("ui.tt.fairs")), el("div", { class: "tiles" }, fairs));
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

/** The house spaces of town ``spot`` at this player count (with their index in the legend). */
function townSpaces(o, legend, spot) {
  return legend.house_spaces.map((s, i) => ({ ...s, i }))
    .filter((s) => s.town === spot && s.min_players <= o.players.length);
}

function drawTown(o, ctx, spot, [x, y]) {
  const legend = ctx.legend;
  const name = legend.spots[spot];
  const group = svg("g", { class: "spot town", "data-spot": name });
  const dot = ctx.tip(svg("circle", { cx: x, cy: y, r: 11, class: "town-dot" }), `spot:${name}`);
  if (ctx.changed(`map.bonus.${name}`)) dot.classList.add("recent");
  group.append(dot);
  group.append(svg("text", { x, y: y - 15, class: "town-name", "text-anchor": "middle" }, spotName(ctx, name)));
  const spaces = townSpaces(o, legend, spot);
  spaces.forEach((s, k) => {
    const owner = o.map.houses[s.i];
    const square = svg("rect", {
      x: x - spaces.length * 6 + k * 12 + 1, y: y + 13, width: 10, height: 10,
      class: owner === -1 ? "house free" : `house seat-fill-${owner}`, "data-house": s.label,
    });
    ctx.tip(square, `house:${s.label}`);
    ctx.recent(square, `map.houses.${s.i}`);
    if (!PHONE) ctx.offer(square, [`house ${s.label}`]); // a phone offers it on the town's target
    group.append(square);
  });
  const cathedral = legend.cathedral_towns.indexOf(spot);
  if (cathedral !== -1) {
    const cost = legend.cost_tiles[o.map.cost_tiles[cathedral]];
    const pillars = o.map.pillars[cathedral] || [];
    const label = cost ? `▲ ${cost[0]}/${cost[1]}` : "▲ ×";
    const site = ctx.tip(svg("g", { class: "cathedral-site", "data-cathedral": name },
      svg("text", { x: x + 14, y: y + 4, class: "cathedral" }, label),
      pillars.map((owner, k) => svg("rect", {
        x: x + 14 + k * 7, y: y + 8, width: 5, height: 9, class: `pillar seat-fill-${owner}`,
      }))), `cathedral:${name}`);
    ctx.recent(site, `map.pillars.${cathedral}`);
    group.append(site);
  }
  const bonus = o.map.bonus[name];
  if (bonus !== undefined) {
    group.append(ctx.tip(svg("text", { x: x - 14, y: y + 4, class: "map-bonus", "text-anchor": "end" }, "★"), `tile:${bonus}`));
  }
  return group;
}

function drawPieces(o, places, ctx) {
  const legend = ctx.legend;
  const pieces = [];
  o.players.forEach((p, seat) => {
    for (const [kind, dx] of [["architect", -1], ["merchant", 1]]) {
      const spot = legend.spots.indexOf(p[kind]);
      if (spot === -1) continue;
      const [x, y] = places[spot];
      const px = x + dx * (18 + seat * 11);
      const letter = t(`ui.tt.${kind}_letter`);
      const piece = svg("g", { class: `piece seat-${seat}`, "data-piece": `${kind}-${seat}` },
        svg("circle", { cx: px, cy: y - 3, r: 5.5, class: `seat-fill-${seat}` }),
        svg("text", { x: px, y, "text-anchor": "middle", class: "piece-letter" }, letter));
      piece.dataset.tipTitle = t("ui.tt.piece_of", { piece: t(`ui.tt.${kind}`), player: seatName(ctx.seats, seat) });
      piece.dataset.tip = t(`ui.tt.${kind}_text`);
      ctx.recent(piece, `players.${seat}.${kind}`);
      pieces.push(piece);
    }
  });
  return pieces;
}

function drawMap(o, ctx) {
  const legend = ctx.legend;
  if (!legend.spots) return el("section", { class: "panel" }, t("ui.tt.no_map"));
  const places = spotPlaces(legend);
  const lines = legend.links.map(([a, b]) => svg("line", {
    x1: places[a][0], y1: places[a][1], x2: places[b][0], y2: places[b][1], class: "road",
  }));
  const spots = legend.spots.map((name, spot) => {
    if (spot < legend.towns) return drawTown(o, ctx, spot, places[spot]);
    const [x, y] = places[spot];
    return svg("g", { class: "spot road-spot", "data-spot": name },
      ctx.tip(svg("rect", { x: x - 6, y: y - 6, width: 12, height: 12, transform: `rotate(45 ${x} ${y})`, class: "road-dot" }), `spot:${name}`));
  });
  spots.forEach((node, spot) => {
    const name = legend.spots[spot];
    const mine = [`move arch ${name}`, `move merch ${name}`, `pillar ${name}`, `cathedral ${name}`];
    if (!PHONE) {
      ctx.offer(node.firstChild, mine); // the dot itself: house squares offer their own space
      return;
    }
    // a finger needs 44 px, more than a dot (or a house square) at the phone's zoom: a clear
    // target that size over the whole spot offers its moves and its houses together (a tap
    // opens the chooser when there are several); the nearest two spots lie 73 units apart, so
    // no two targets overlap
    const [x, y] = places[spot];
    const houses = spot < legend.towns ? townSpaces(o, legend, spot).map((s) => `house ${s.label}`) : [];
    const target = ctx.tip(svg("circle", { cx: x, cy: y, r: FINGER_R, class: "spot-target" }), `spot:${name}`);
    ctx.offer(target, [...mine, ...houses]);
    if (target.classList.contains("clickable")) node.append(target);
  });
  const width = Math.max(...places.map((p) => p[0])) + 90;
  const height = Math.max(...places.map((p) => p[1])) + 40;
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "map-svg", role: "img", "aria-label": t("ui.tt.map") },
    lines, spots, drawPieces(o, places, ctx));
  picture.style.width = `${ZOOMS[mapZoom] * 100}%`;
  const scroller = el("div", { class: "map-scroll" }, picture);
  scroller.addEventListener("scroll", () => { mapScroll = [scroller.scrollLeft, scroller.scrollTop]; }, { passive: true });
  requestAnimationFrame(() => { // keep the reader's place, or start at Tiletum in the middle
    const [left, top] = mapScroll || [(scroller.scrollWidth - scroller.clientWidth) * 0.4, (scroller.scrollHeight - scroller.clientHeight) * 0.35];
    scroller.scrollTo(left, top);
  });
  const zoom = (step) => {
    mapZoom = Math.max(0, Math.min(ZOOMS.length - 1, mapZoom + step));
    picture.style.width = `${ZOOMS[mapZoom] * 100}%`;
  };
  const bonuses = Object.entries(o.map.bonus).map(([town, tile]) => ctx.tip(
    el("span", { class: "map-bonus-entry" }, `${spotName(ctx, town)}: ${tileName(ctx, tile)}`), `tile:${tile}`));
  return el("section", { class: "panel tt-map", id: "map" },
    el("div", { class: "map-head" }, el("h4", {}, t("ui.tt.map")),
      el("span", { class: "zoom" },
        el("button", { class: "small", id: "map-zoom-out", title: t("ui.tt.zoom_out"), onclick: () => zoom(-1) }, "−"),
        el("button", { class: "small", id: "map-zoom-in", title: t("ui.tt.zoom_in"), onclick: () => zoom(1) }, "+"))),
    scroller,
    el("p", { class: "muted small" }, t("ui.tt.map_key")),
    el("p", { class: "small map-bonuses" }, el("span", { class: "muted" }, t("ui.tt.map_bonuses")), " ",
      bonuses.length ? bonuses : t("ui.none")));
}

// -- player boards -----------------------------------------------------------------------
function drawPlayerBoard(o, seat, ctx) {
  const p = o.players[seat];
  const legend = ctx.legend;
  const resources = Object.entries(p.resources).map(([r, n]) => ctx.recent(ctx.tip(el("span", {
    class: `res res-${r}`, "data-resource": r,
  }, `${resourceName(ctx, r)} ${n}`), `res:${r}`), `players.${seat}.resources.${r}`));
  const store = p.storehouse.map((tile, i) => {
    const node = ctx.recent(tileNode(ctx, tile, "small store"), `players.${seat}.storehouse.${i}`);
    if (ctx.seat === seat) ctx.offer(node, [`helper ${i + 1}`]);
    return node;
  });
  const buildings = (legend.rooms || []).map((floors, b) => {
    const completed = Boolean(p.completed & (1 << b));
    const crest = p.crests[b];
    const roofed = floors.length > 0 && floors.some((room) => !hasTile(p.rooms[room]));
    const head = ctx.tip(el("div", { class: "building-head" }, t("ui.tt.building", { n: b + 1 }),
      completed ? el("span", { class: "done-mark" }, " ✓") : null), `building:${b + 1}`);
    if (roofed) head.append(ctx.tip(el("span", { class: `roof seat-text-${seat}` }, " ⌂"), "roof"));
    const crestNode = crest !== -1
      ? ctx.tip(el("div", { class: "crest" }, ctx.name(`crest:${crest}`, legend.crest_names?.[crest] ?? "")), `crest:${crest}`)
      : ctx.tip(el("div", { class: "crest empty muted" }, t("ui.tt.no_crest")), `crest_space:${b + 1}`);
    ctx.recent(crestNode, `players.${seat}.crests.${b}`);
    const rooms = floors.length ? [...floors].reverse().map((room) => {
      const f = floors.indexOf(room);
      const tile = p.rooms[room];
      const node = ctx.recent(el("div", { class: `room${hasTile(tile) ? "" : " empty"}`, "data-floor": f + 1 },
        el("span", { class: "floor" }, t("ui.tt.floor", { n: f + 1 })), " ", hasTile(tile) ? tileName(ctx, tile) : ""), `players.${seat}.rooms.${room}`);
      if (hasTile(tile)) ctx.tip(node, `tile:${tile}`);
      if (ctx.seat === seat) ctx.offer(node, [1, 2, 3, 4].map((slot) => `room ${slot} b${b + 1} f${f + 1}`));
      return node;
    }) : [el("div", { class: "room printed" }, t("ui.tt.printed"))];
    return el("div", { class: `building${completed ? " completed" : ""}`, "data-building": b + 1 }, head, rooms, crestNode);
  });
  // the contract spaces of the board, filled from the left: a fulfilled contract, or the space
  const contractSpaces = [];
  for (let k = 1; ctx.name(`contract_space:${k}`, null) !== null; k += 1) {
    const tile = p.contracts_done[k - 1];
    contractSpaces.push(ctx.recent(hasTile(tile) ? tileNode(ctx, tile, "small done-contract")
      : ctx.tip(el("div", { class: "tile small empty contract-space" }, String(k)), `contract_space:${k}`),
    `players.${seat}.contracts_done.${k - 1}`));
  }
  const king = legend.king_vp?.[p.king_step];
  const bonusAp = Object.entries(p.bonus_ap).map(([action, n]) => `${ctx.name(`area:${action}`, action)} +${n}`).join(", ");
  const completedCount = [...Array(6).keys()].filter((b) => p.completed & (1 << b)).length;
  const facts = [
    t("ui.tt.supply", { houses: p.houses_supply, pillars: p.pillars_supply }),
    t("ui.tt.king_at", { vp: king === undefined ? "?" : (king > 0 ? `+${king}` : String(king)) }),
    t("ui.tt.contracts_done", { n: p.contracts_done.length }),
    t("ui.tt.cathedral_tiles", { n: p.cathedral_tiles.length }),
    t("ui.tt.completed", { n: completedCount }),
  ];
  if (bonusAp) facts.push(t("ui.tt.bonus_ap", { list: bonusAp }));
  return el("section", {
    class: `panel tt-player seat-${seat}${o.to_move === seat ? " turn" : ""}`, "data-player": seat,
  },
  el("h3", {}, el("span", { class: "dot" }), seatName(ctx.seats, seat),
    ctx.seat === seat ? el("span", { class: "muted" }, ` (${t("ui.you")})`) : null,
    ctx.recent(el("span", { class: "score" }, ` ${t("ui.tt.vp", { n: p.vp })}`), `players.${seat}.vp`)),
  el("div", { class: "row resources" }, resources),
  ctx.recent(el("div", { class: "row muted facts" }, facts.join(" · ")), `players.${seat}.houses_supply`),
  el("div", { class: "row storehouse" }, ctx.tip(el("span", { class: "muted" }, t("ui.tt.storehouse")), "storehouse"),
    store.length ? store : el("span", { class: "muted" }, t("ui.tt.empty"))),
  el("div", { class: "row contract-spaces" }, el("span", { class: "muted" }, t("ui.tt.contract_spaces")), contractSpaces),
  el("div", { class: "buildings" }, buildings));
}

export function renderTiletum(o, ctx) {
  return el("div", { class: "tt-board" },
    drawStatus(o, ctx),
    el("div", { class: "tt-top" }, drawWheel(o, ctx), drawDisplays(o, ctx)),
    drawKingTrack(o, ctx),
    drawMap(o, ctx),
    el("div", { class: "tt-players" }, o.players.map((_, seat) => drawPlayerBoard(o, seat, ctx))));
}
