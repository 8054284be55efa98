// The fallback view of a game without its own renderer: the server's text rendering.

import { el } from "/static/common.js";

export function renderGeneric(observation, ctx) {
  const text = ctx.text ?? JSON.stringify(observation, null, 1);
  return el("pre", { class: "generic-view" }, text);
}
