// The tournaments' pages (drawn by palio/server/tournaments/routes.py): on /tournaments the
// organiser's form (the fields of the chosen format), which creates a tournament and opens its
// page; on /tournaments/{id} the button that enters or withdraws the signed-in account, then the
// page is drawn again.

import { $, api, errorMessage, loadWords, say } from "/static/common.js";

// (found at each click: a redrawn page has a new button)
document.addEventListener("click", async (event) => {
  const button = event.target.closest?.("#tournament-action");
  if (button) {
    button.disabled = true;
    await loadWords();
    const reply = await api("POST", `/api/tournaments/${button.dataset.id}/${button.dataset.action}`, {});
    if (reply.ok) {
      window.location.reload();
    } else {
      say(errorMessage(reply));
      button.disabled = false;
    }
  }
});

// a table seating the reader was just made (the header's /ws/me, account.js): this tournament's
// standings and rounds are drawn again from the page, with no reload
const shown = $("tournament");
if (shown) {
  window.addEventListener("palio:seated", async () => {
    const reply = await fetch(window.location.href, { headers: { Accept: "text/html" } });
    if (!reply.ok) return;
    const page = new DOMParser().parseFromString(await reply.text(), "text/html");
    const fresh = page.getElementById("tournament");
    if (fresh) shown.replaceChildren(...fresh.childNodes);
  });
}

const form = $("tournament-form");
if (form) {
  // an arena has hours, not rounds: only the fields of the chosen format are shown
  const showFormat = () => {
    const arena = form.elements.format.value === "arena";
    for (const [name, shown] of [["rounds", !arena], ["round_days", !arena], ["arena_hours", arena]]) {
      form.elements[name].closest("label").hidden = !shown;
    }
  };
  form.elements.format.addEventListener("change", showFormat);
  showFormat();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await loadWords();
    const data = new FormData(form);
    const starts = new Date(data.get("starts_at")); // the reader's own time zone
    const body = {
      name: data.get("name"), game: data.get("game"), players: Number(data.get("players")),
      format: data.get("format"), scoring: data.get("scoring"),
      bots: data.get("bots") === "on", bot_level: data.get("bot_level") || "medium",
      rated: data.get("rated") === "on",
      round_days: Number(data.get("round_days")),
      starts_at: Number.isNaN(starts.getTime()) ? "" : starts.toISOString(),
    };
    if (body.format === "arena") { // an arena runs for its hours; the others play rounds
      body.arena_hours = Number(data.get("arena_hours"));
    } else {
      body.rounds = Number(data.get("rounds"));
    }
    const days = Number(data.get("per_move_days"));
    if (days > 0) body.timing = { kind: "turn", per_move_s: days * 86400 };
    const reply = await api("POST", "/api/tournaments", body);
    if (reply.ok) {
      window.location.href = `/tournaments/${reply.data.id}`;
    } else {
      say(errorMessage(reply));
    }
  });
}
