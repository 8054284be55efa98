// Renderers by game id; any other game gets the generic text view.
//
// A renderer is render(observation, ctx) -> an element, where ctx holds:
//   seat     the viewer's seat (null for a spectator or a replay)
//   seats    the seat summaries (names, kinds), or null
//   legend   the game's fixed component tables (GET /api/catalog/{game}/legend)
//   text     the server's text rendering for this seat, when there is one
//   offer(node, notations)  make a drawn element play one of these legal actions

import { renderGeneric } from "/static/render/generic.js";
import { renderSanGimignano } from "/static/render/san-gimignano.js";
import { renderTiletum } from "/static/render/tiletum.js";
import { renderTroyes } from "/static/render/troyes.js";

const RENDERERS = {
  "san-gimignano": renderSanGimignano,
  tiletum: renderTiletum,
  troyes: renderTroyes,
};

export function rendererFor(gameId) {
  return RENDERERS[gameId] || renderGeneric;
}
