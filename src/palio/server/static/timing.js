// Timed tables in the page (palio/server/timing.py): each seat's clock ticking on every page,
// leaving the table, and telling the player it is their turn (the tab's title and icon, an
// optional sound, the browser's notification when the player allowed it), plus the lobby's
// fields for creating a timed table.
//
// The server's clock is the truth: each view carries every seat's time as of the start of the
// current decision ("started") and the server's "now" when it was sent, so a page counts down
// from the server's time whatever its own clock says.

import { api, el, errorMessage, levelName, say, t } from "/static/common.js";

const SOUND_KEY = "palio.turn_sound";
let clockView = null; // the latest view with a clock
let offsetMs = 0; // the server's clock minus this page's
let ticker = null;
let wasYourTurn = null; // null until the first view: nothing is announced on load
let plainIcon = null;

// -- durations -------------------------------------------------------------------------------
/** Seconds as a clock shows them: 1:05:09, 4:07, 0:09; days beyond a day. */
export function clockText(seconds) {
  const total = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days > 0) return `${t("timing.unit.days", { n: days })} ${hours}:${two(minutes)}`;
  return hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

/** A length of time in words: the largest unit that divides it ("3 d", "10 min", "20 s"). */
export function durationText(seconds) {
  for (const [unit, size] of [["days", 86400], ["hours", 3600], ["minutes", 60]]) {
    if (seconds >= size && seconds % size === 0) return t(`timing.unit.${unit}`, { n: seconds / size });
  }
  return t("timing.unit.seconds", { n: seconds });
}

/** "10 min + 20 s a decision", "1 d a move", or nothing for an untimed table. */
export function timingText(timing) {
  if (!timing) return "";
  if (timing.kind === "realtime") {
    return t("timing.summary.realtime", { base: durationText(timing.base_s), increment: durationText(timing.increment_s || 0) });
  }
  if (timing.kind === "turn") return t("timing.summary.turn", { limit: durationText(timing.per_move_s) });
  return "";
}

// -- clocks ----------------------------------------------------------------------------------
function serverNow() {
  return Date.now() + offsetMs;
}

/** Seconds left to ``seat`` now: its time at the decision's start, less what has passed if it
 *  is the seat to move (for a limit per move: the limit, then the bank). */
function secondsLeft(view, seat) {
  const clock = view.table.clock;
  const remaining = clock.remaining?.[seat];
  if (remaining === null || remaining === undefined) return null;
  const moving = view.status === "running" && view.to_move === seat && clock.started;
  const passed = moving ? (serverNow() - Date.parse(clock.started)) / 1000 : 0;
  if (clock.kind === "turn") {
    const limit = clock.per_move_s;
    return moving ? limit + remaining - passed : remaining;
  }
  return remaining - passed;
}

function tick() {
  const view = clockView;
  if (!view) return;
  for (const chip of document.querySelectorAll("#seats [data-seat]")) {
    const seat = Number(chip.dataset.seat);
    let clock = chip.querySelector(".clock");
    const left = secondsLeft(view, seat);
    if (left === null) {
      clock?.remove();
      continue;
    }
    if (!clock) {
      clock = el("span", { class: "clock", "data-clock": seat });
      chip.append(clock);
    }
    const moving = view.status === "running" && view.to_move === seat;
    let text;
    if (view.table.clock.kind === "turn" && !moving) text = t("timing.clock.bank", { time: clockText(left) });
    else text = left <= 0 ? t("timing.clock.out") : clockText(left);
    if (clock.textContent !== ` ${text}`) clock.textContent = ` ${text}`;
    clock.classList.toggle("running", moving);
    clock.classList.toggle("low", moving && left < 30);
  }
}

/** After the seats are drawn: put each seat's clock in its chip and keep them ticking. */
export function drawClocks(view) {
  if (view.now) offsetMs = Date.parse(view.now) - Date.now();
  const timed = view.table && view.table.clock && view.table.clock.kind !== "none";
  clockView = timed ? view : null;
  document.body.dataset.timing = view.table?.timing?.kind || "none";
  if (!timed) return;
  tick();
  if (ticker === null) ticker = setInterval(tick, 250);
}

// -- leaving ---------------------------------------------------------------------------------
/** The table's controls: leave (a seat's player, while the game runs), the turn sound and
 *  the notification permission (asked only on a click). */
export function drawTableControls(view, { gameId, token, onChange }) {
  let box = document.getElementById("table-controls");
  if (!box) return;
  const parts = [];
  const mine = view.seat !== null && view.seat !== undefined ? view.seats[view.seat] : null;
  if (mine && mine.kind === "human" && view.status === "running" && !view.is_over) {
    parts.push(el("button", { class: "small", id: "leave", onclick: async () => {
      if (!window.confirm(t("timing.leave.confirm"))) return;
      const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/seats/${view.seat}/leave`, {}, token);
      if (reply.ok) say(t("timing.leave.done"), "info");
      else say(errorMessage(reply));
      onChange(reply.ok ? reply.data : null);
    } }, t("timing.leave.button")));
  }
  if (mine && mine.kind === "human") {
    const sound = el("input", { type: "checkbox", id: "turn-sound", checked: localStorage.getItem(SOUND_KEY) === "1" });
    sound.addEventListener("change", () => {
      localStorage.setItem(SOUND_KEY, sound.checked ? "1" : "0");
      if (sound.checked) beep(); // the click lets the page start its audio
    });
    parts.push(el("label", { class: "small-label" }, sound, ` ${t("timing.sound.label")}`));
    if ("Notification" in window) {
      if (Notification.permission === "default") {
        parts.push(el("button", { class: "small", id: "turn-notify", onclick: async () => {
          await Notification.requestPermission();
          onChange(null);
        } }, t("timing.notify.ask")));
      } else {
        parts.push(el("span", { class: "muted" }, t(Notification.permission === "granted" ? "timing.notify.on" : "timing.notify.denied")));
      }
    }
  }
  const timing = timingText(view.table?.timing);
  if (timing) parts.unshift(el("span", { class: "badge", id: "timing-badge" }, timing));
  box.replaceChildren(...parts);
  box.hidden = !parts.length;
}

// -- forfeited seats (issue 35: every page tells the truth) -------------------------------------
const reasonWord = (reason) => (reason === "left" ? "left" : "timeout");

/** The forfeit of ``seat`` (from a view's table, or a lobby summary's "forfeited"), or null;
 *  the latest when a seat forfeited more than once. */
export function forfeitOf(list, seat) {
  const found = (list || []).filter((f) => Number(f.seat) === Number(seat));
  return found.length ? found[found.length - 1] : null;
}

/** A seat chip's mark: "timed out · a bot plays", "left · ranked last"... */
export function seatForfeitMark(view, seat) {
  const f = forfeitOf(view.table?.forfeits, seat);
  if (!f) return null;
  return el("span", { class: "forfeit-mark", "data-forfeit": f.reason },
    ` ${t(`timing.seat.${reasonWord(f.reason)}_${f.rule === "last" ? "last" : "bot"}`)}`);
}

/** A lobby or "My games" status word for a forfeited seat ("timed out"), or null. */
export function forfeitStatus(summary, seat) {
  const f = forfeitOf(summary.forfeited, seat);
  if (!f) return null;
  return t(f.reason === "left" ? "timing.status.left" : "timing.status.timed_out");
}

/** A seat's status in words: "timed out" rather than "playing" for a seat that forfeited. */
export function statusWords(status, forfeited) {
  const word = t(status === "expired" ? "timing.status.expired" : `ui.status.${status}`);
  if (!forfeited) return word;
  return status === "running" ? forfeited : `${word} · ${forfeited}`;
}

/** A moment in the reader's words and time zone: "28 Nov 2026, 09:14". */
export function momentText(iso) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return "";
  return new Intl.DateTimeFormat(document.documentElement.lang || "en",
    { dateStyle: "medium", timeStyle: "short" }).format(moment);
}

/** The player whose seat forfeited sees what happened and when, above the board. */
export function drawAwayBanner(view) {
  const box = document.getElementById("away-banner");
  if (!box) return;
  const f = view.seat === null || view.seat === undefined ? null : forfeitOf(view.table?.forfeits, view.seat);
  box.hidden = !f;
  if (!f) return;
  const when = f.at ? momentText(f.at) : "";
  box.textContent = t("timing.banner.yours", { what: f.text, when, move: Number(f.move) + 1 }); // the decision it happened at
  box.dataset.forfeit = f.reason;
}

/** The result table's note beside a forfeited seat: "ranked last for the rating: ran out of
 *  time" at a rated table (the ratings rate every forfeit last, whatever the board said). */
export function resultNote(view, seat) {
  const f = forfeitOf(view.table?.forfeits, seat);
  if (!f) return null;
  const how = view.table?.rated ? "rating" : (f.rule === "last" ? "last" : "bot");
  return el("span", { class: "forfeit-note", "data-forfeit": f.reason },
    t(`timing.result.${how}_${reasonWord(f.reason)}`));
}

/** Who left or ran out of time, in the result. */
export function forfeitNotes(view) {
  const forfeits = view.table?.forfeits || [];
  if (!forfeits.length) return null;
  return el("ul", { class: "forfeits", id: "forfeits" }, forfeits.map((f) => el("li", { "data-seat": f.seat }, f.text)));
}

// -- "it is your turn" -------------------------------------------------------------------------
function iconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = el("link", { rel: "icon", type: "image/svg+xml", href: "/static/favicon.svg" });
    document.head.append(link);
  }
  if (plainIcon === null) plainIcon = link.getAttribute("href");
  return link;
}

// the usual icon with a red dot: drawn here, nothing is fetched
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1f2937"/>'
  + '<path d="M14 54V22l6-6 6 6v32zM28 54V12l6-6 6 6v42zM42 54V28l5-5 5 5v26z" fill="#f59e0b"/>'
  + '<circle cx="50" cy="14" r="13" fill="#dc2626" stroke="#fff" stroke-width="3"/></svg>')}`;

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    const audio = new Context();
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.value = 0.08;
    [660, 880].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(audio.currentTime + i * 0.18);
      tone.stop(audio.currentTime + i * 0.18 + 0.15);
    });
    setTimeout(() => audio.close(), 1000);
  } catch (exc) { /* no sound is no harm */ }
}

/** The title and icon while it is the viewer's turn; on becoming so, the sound and the
 *  notification (never for the position found on load). */
export function signalTurn(view, title, gameTitle) {
  const yours = view.seat !== null && view.seat !== undefined && view.legal.length > 0
    && view.status === "running";
  document.title = yours ? t("timing.turn.title", { title }) : title;
  iconLink().setAttribute("href", yours ? TURN_ICON : plainIcon);
  document.body.dataset.turnSignal = yours ? "1" : "0";
  if (yours && wasYourTurn === false) {
    if (localStorage.getItem(SOUND_KEY) === "1") beep();
    if ("Notification" in window && Notification.permission === "granted" && document.visibilityState !== "visible") {
      try {
        const notice = new Notification(t("timing.turn.notice_title"), { body: t("timing.turn.notice_body", { game: gameTitle }), tag: `palio-${view.id}` });
        notice.onclick = () => { window.focus(); notice.close(); };
      } catch (exc) { /* some browsers allow notifications only from a service worker */ }
    }
  }
  wasYourTurn = yours;
}

// -- the lobby's create form -----------------------------------------------------------------------
const PER_MOVE = [3600, 43200, 86400, 259200, 604800]; // 1 h, 12 h, 1, 3, 7 days

/** The timing fields of the create form, in ``box``. */
export function fillTimingFields(box, levels) {
  const kind = el("select", { id: "create-timing" },
    ["none", "realtime", "turn"].map((k) => el("option", { value: k }, t(`timing.kind.${k}`))));
  const base = el("input", { id: "create-base", type: "number", min: 1, max: 1440, value: 10 });
  const increment = el("input", { id: "create-increment", type: "number", min: 0, max: 3600, value: 20 });
  const perMove = el("select", { id: "create-per-move" },
    PER_MOVE.map((s) => el("option", { value: s, selected: s === 86400 }, durationText(s))));
  const realtime = el("span", { class: "timing-realtime" },
    el("label", {}, `${t("timing.create.base")} `, base), " ",
    el("label", {}, `${t("timing.create.increment")} `, increment));
  const turn = el("span", { class: "timing-turn" }, el("label", {}, `${t("timing.create.per_move")} `, perMove));
  const rule = el("select", { id: "create-on-timeout" },
    el("option", { value: "bot" }, t("timing.create.rule_bot")),
    el("option", { value: "last" }, t("timing.create.rule_last")));
  const level = el("select", { id: "create-timeout-level" },
    levels.map((l) => el("option", { value: l, selected: l === "medium" }, levelName(l))));
  const rated = el("input", { type: "checkbox", id: "create-rated" });
  const practice = el("input", { type: "checkbox", id: "create-practice" });
  const update = () => {
    realtime.hidden = kind.value !== "realtime";
    turn.hidden = kind.value !== "turn";
    level.hidden = rule.value !== "bot";
    if (practice.checked && kind.value === "realtime") kind.value = "none";
    if (practice.checked) rated.checked = false;
  };
  for (const input of [kind, rule, rated, practice]) input.addEventListener("change", update);
  rated.addEventListener("change", () => { if (rated.checked) practice.checked = false; update(); });
  box.replaceChildren(
    el("label", {}, `${t("timing.create.timing")} `, kind), realtime, turn,
    el("label", {}, `${t("timing.create.on_timeout")} `, rule, " ", level),
    el("label", {}, rated, ` ${t("timing.create.rated")}`),
    el("label", {}, practice, ` ${t("timing.create.practice")}`));
  update();
}

/** What the timing fields add to a create body. */
export function timingBody() {
  const kind = document.getElementById("create-timing")?.value || "none";
  const body = {};
  if (kind === "realtime") {
    body.timing = { kind, base_s: Math.round(Number(document.getElementById("create-base").value) * 60),
      increment_s: Math.round(Number(document.getElementById("create-increment").value)) };
  } else if (kind === "turn") {
    body.timing = { kind, per_move_s: Number(document.getElementById("create-per-move").value) };
  } else {
    body.timing = { kind: "none" };
  }
  const rule = document.getElementById("create-on-timeout")?.value || "bot";
  body.on_timeout = rule === "bot" ? { kind: "bot", level: document.getElementById("create-timeout-level").value } : { kind: "last" };
  body.rated = Boolean(document.getElementById("create-rated")?.checked);
  body.practice = Boolean(document.getElementById("create-practice")?.checked);
  return body;
}

/** A lobby row's words on timing: "10 min + 20 s a decision", rated, practice. */
export function timingBadges(summary) {
  const words = [timingText(summary.timing)];
  if (summary.rated) words.push(t("timing.lobby.rated"));
  if (summary.practice) words.push(t("timing.lobby.practice"));
  const text = words.filter(Boolean).join(" · ");
  return text ? el("span", { class: "badge timing" }, text) : null;
}
