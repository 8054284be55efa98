// The key beside the board: each symbol the board draws, as drawn, and what it means, from the
// legend's "key" (palio/server/boardkey.py), in the reader's language.

import { $, el, t } from "/static/common.js";

/** Fill the page's key panel (#board-key) from a game's legend. */
export function drawKey(legend) {
  const box = $("board-key");
  if (!box) return;
  const entries = legend?.key || [];
  box.hidden = !entries.length;
  box.replaceChildren(
    el("summary", { class: "key-toggle" }, t("board.key.title")),
    el("p", { class: "muted small" }, t("board.key.intro")),
    el("div", { class: "key-list" }, entries.map((entry) => el("div", { class: "key-entry" },
      el("span", { class: "key-sample" }, entry.sample), el("span", { class: "key-text" }, entry.text)))));
}
