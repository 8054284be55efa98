// Renderers by game id; any other game gets the generic text view.
//
// A renderer is render(observation, ctx) -> an element, where ctx (made by boardContext) holds:
//   seat     the viewer's seat (null for a spectator or a replay)
//   seats    the seat summaries (names, kinds), or null
//   legend   the game's fixed component tables (GET /api/catalog/{game}/legend), with
//            `glossary`: {key: {name, text}} in the reader's language
//   text     the server's text rendering for this seat, when there is one
//   offer(node, notations)  make a drawn element play one of these legal actions
//   tip(node, key)          give a drawn component the glossary's tooltip for `key`
//   name(key, fallback)     a component's name from the glossary
//   recent(node, path)      mark the node when the latest move changed the observation there
//   changed(path)           whether the latest move changed the observation under `path`
// A renderer's own words (headings, counts) come from t() of common.js (the "ui" catalog).

import { tip } from "/static/common.js";
import { renderAquileia } from "/static/render/aquileia.js";
import { renderGeneric } from "/static/render/generic.js";
import { renderSanGimignano } from "/static/render/san-gimignano.js";
import { renderSignorie } from "/static/render/signorie.js";
import { renderTiletum } from "/static/render/tiletum.js";
import { renderTroyes } from "/static/render/troyes.js";

const RENDERERS = {
  "san-gimignano": renderSanGimignano,
  tiletum: renderTiletum,
  aquileia: renderAquileia,
  signorie: renderSignorie,
  troyes: renderTroyes,
};

export function rendererFor(gameId) {
  return RENDERERS[gameId] || renderGeneric;
}

/** Does any of `paths` (dotted, from the server or diffPaths) lie at or under `path`? */
function under(paths, path) {
  return paths.some((p) => p === path || p.startsWith(`${path}.`));
}

/** The ctx a renderer gets; `paths` are the observation paths the latest move changed. */
export function boardContext({ seat, seats, legend, text = null, offer = () => {}, paths = [] }) {
  const glossary = legend?.glossary || {};
  return {
    seat, seats, legend: legend || {}, text, offer,
    tip: (node, key) => {
      const entry = glossary[key];
      if (entry) tip(node, entry.name, entry.text);
      return node;
    },
    name: (key, fallback = "") => glossary[key]?.name ?? fallback,
    changed: (path) => under(paths, path),
    recent: (node, path) => {
      if (under(paths, path)) node.classList.add("recent");
      return node;
    },
  };
}

/** The paths where two observations differ (as the server's palio/server/recent.py does). */
export function diffPaths(before, after, path = "") {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const here = path ? [path] : [];
  const join = (key) => (path ? `${path}.${key}` : String(key));
  if (Array.isArray(before) && Array.isArray(after)) {
    const out = [...here];
    for (let i = 0; i < Math.max(before.length, after.length); i += 1) out.push(...diffPaths(before[i], after[i], join(i)));
    return out;
  }
  if (before && after && typeof before === "object" && typeof after === "object") {
    const out = [...here];
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) out.push(...diffPaths(before[key], after[key], join(key)));
    return out;
  }
  return here;
}
