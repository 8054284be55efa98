// The Hint button of the game page, at practice tables only: the bot's three best choices for
// the seat to move, searched from that seat's view, best first, with their chances in percent,
// the reason (what each leads to) and the line of play the bot expects. Empty reasons are hidden.
// Asking is recorded: the table's log says that hints were used.

import { $, api, el, errorMessage, t } from "/static/common.js";

/** Show or hide the Hint button for this view; ``token`` is the seat's. */
export function hintView(view, gameId, token) {
  const button = $("hint");
  if (!button) return;
  const yours = view.seat !== null && view.seat === view.to_move && view.status === "running";
  button.hidden = !(yours && view.hints?.allowed);
  // a table with hints is a practice table, never rated: say so beside the button
  let note = $("practice-note");
  if (!note && view.hints?.allowed) {
    note = el("span", { id: "practice-note", class: "badge practice-note" }, t("review.lobby.practice"));
    button.after(note);
  }
  if (note) note.hidden = !view.hints?.allowed;
  const box = $("hint-box");
  if (box && box.dataset.move !== String(view.move_number)) box.hidden = true;
  button.onclick = async () => {
    button.disabled = true;
    box.hidden = false;
    box.dataset.move = String(view.move_number);
    box.replaceChildren(el("span", { class: "muted" }, t("review.hint.thinking")));
    const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/hint`,
      { move_number: view.move_number }, token);
    button.disabled = false;
    if (!reply.ok) {
      const code = reply.data?.error?.code;
      box.replaceChildren(t(`review.error.${code}`, {}, "") || errorMessage(reply));
      return;
    }
    // the server's order (best expected chances first) is kept; chances in percent
    box.replaceChildren(el("strong", {}, t("review.hint.title")), el("ol", { id: "hint-choices" },
      reply.data.choices.map((c) => el("li", { "data-notation": c.notation },
        el("span", { class: "hint-label" }, c.label), " ",
        el("span", { class: "hint-percent" }, c.percent === null || c.percent === undefined
          ? "" : t("review.hint.percent", { n: c.percent })),
        c.reason ? el("div", { class: "hint-reason" }, c.reason) : "",
        c.line ? el("div", { class: "muted hint-line" }, c.line) : ""))),
    el("p", { class: "muted small" }, t("review.hint.note")));
  };
}
