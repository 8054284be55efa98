// Shared helpers of the Palio pages: DOM building, the JSON API, the reader's language and
// its words, tooltips, and seats kept in localStorage.
//
// Every word a page shows comes from the server: the clients' own words (the "ui" catalog,
// GET /api/i18n/{lang}) and the games' words inside each view. No text is written here.

/** el("div", {class: "x", onclick: f}, child, "text", ...) -> a new element. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The element with this id.
export const $ = (id) => document.getElementById(id);

/** Replace a node's children, skipping null/undefined/false (replaceChildren would write
 *  them as the text "null"). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// -- language ---------------------------------------------------------------------------------
const LANG_KEY = "palio.lang";
const LANG_COOKIE = "palio_lang";
let lang = null; // the language the server answered in
let messages = {};
let languages = {};

/** The language this page uses ("en", "ja"). */
export function language() {
  return lang || "en";
}

/** The language asked for: ?lang= in the address (then remembered), else the remembered
 *  choice, else null (the server then reads the browser's Accept-Language). */
function wantedLanguage() {
  const given = new URLSearchParams(window.location.search).get("lang");
  if (given) {
    remember(given);
    return given;
  }
  try {
    return localStorage.getItem(LANG_KEY);
  } catch (exc) {
    return null;
  }
}

function remember(code) {
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch (exc) { /* private mode: the cookie still carries it */ }
  document.cookie = `${LANG_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

/** Fetch the page's words (once, before anything is drawn) and translate the static page.
 *  `given`: the language of a page the server wrote in one already. */
export async function loadWords(given = null) {
  const wanted = given || wantedLanguage();
  let data = null;
  for (const path of [wanted ? `/api/i18n/${encodeURIComponent(wanted)}` : "/api/i18n", "/api/i18n"]) {
    try {
      const response = await fetch(path);
      if (response.ok) {
        data = await response.json();
        break;
      }
    } catch (exc) { /* the server cannot be reached: the page says so below */ }
  }
  if (data) {
    lang = data.lang;
    messages = data.messages;
    languages = data.languages;
  }
  document.documentElement.lang = language();
  document.body.dataset.lang = language();
  translate(document);
  installChooser();
  installTips();
  // sign up / in / out in the header (imported here: account.js itself uses this module)
  await import("/static/account.js").then((module) => module.installAccount()).catch(() => {});
  return data !== null;
}

/** The text of a ui message; {name} placeholders filled from params. A plural message takes
 *  params.n. A missing message shows `fallback` (or its id, which the tests catch). */
export function t(key, params = {}, fallback = undefined) {
  let text = messages[key];
  if (Array.isArray(text)) {
    const one = new Intl.PluralRules(language()).select(Number(params.n ?? 0)) === "one";
    text = text.length > 1 && !one ? text[1] : text[0];
  }
  if (text === undefined || text === null || text === "") return fallback ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Fill elements marked data-i18n (text), data-i18n-title, data-i18n-placeholder. */
export function translate(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
}

/** This page's address in another language. */
function addressIn(code) {
  const url = new URL(window.location.href);
  url.searchParams.set("lang", code);
  return url.toString();
}

function installChooser() {
  const place = document.querySelector("header.top");
  if (!place || $("lang-chooser") || !Object.keys(languages).length) return;
  const select = el("select", { id: "lang-chooser", "aria-label": t("ui.language"), title: t("ui.language") },
    Object.entries(languages).map(([code, name]) => el("option", { value: code, selected: code === language() }, name)));
  select.addEventListener("change", () => {
    remember(select.value);
    window.location.assign(addressIn(select.value));
  });
  place.append(el("label", { class: "lang" }, select));
}

// -- the JSON API ------------------------------------------------------------------------------
/** The path with this page's language added (every request carries it). */
export function withLang(path) {
  if (!lang) return path;
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
}

/** A fetch of the JSON API: {ok, status, data}; a server error's message lands in data.error. */
export async function api(method, path, body = undefined, token = null) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(withLang(path), {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (exc) {
    return { ok: false, status: 0, data: { error: { code: "network", message: "" } } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (exc) {
    data = { error: { code: "bad_reply", message: "" } };
  }
  return { ok: response.ok, status: response.status, data };
}

/** A refused request in the reader's words: the error code's message where the catalog has
 *  one, else the server's own (English) message, for programs and the log. */
export function errorMessage(reply) {
  const error = reply.data?.error || {};
  const known = t(`ui.error.${error.code}`, {}, "") || t(`timing.error.${error.code}`, {}, "")
    || t(`board.error.${error.code}`, {}, "");
  return known || error.message || t("ui.error.failed", { status: reply.status });
}

// -- seats this browser holds ------------------------------------------------------------
const SEATS_KEY = "palio.seats";

export function heldSeats() {
  try {
    const list = JSON.parse(localStorage.getItem(SEATS_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (exc) {
    return [];
  }
}

export function holdSeat(entry) {
  const rest = heldSeats().filter((s) => !(s.id === entry.id && s.seat === entry.seat));
  rest.unshift({ ...entry, saved: new Date().toISOString() });
  localStorage.setItem(SEATS_KEY, JSON.stringify(rest.slice(0, 50)));
}

export function forgetSeat(id, seat) {
  const rest = heldSeats().filter((s) => !(s.id === id && s.seat === seat));
  localStorage.setItem(SEATS_KEY, JSON.stringify(rest));
}

// -- games this browser created ---------------------------------------------------------
// The creator's token (the create reply's creator_token) gives the game's empty seats to bots.
const CREATED_KEY = "palio.created";

function createdGames() {
  try {
    const kept = JSON.parse(localStorage.getItem(CREATED_KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch (exc) {
    return {};
  }
}

export function rememberCreated(gameId, token) {
  const kept = createdGames();
  kept[gameId] = token;
  const newest = Object.entries(kept).slice(-50); // insertion order: the oldest go first
  localStorage.setItem(CREATED_KEY, JSON.stringify(Object.fromEntries(newest)));
}

/** The creator's token of a game this browser created, or null. */
export function creatorToken(gameId) {
  return createdGames()[gameId] || null;
}

// -- names -------------------------------------------------------------------------------
/** A bot level in words ("easy" -> "Easy"); an unknown level keeps its own name. */
export function levelName(level) {
  const name = String(level || "").split(":")[0]; // a spec such as mcts:iterations=50: its bot
  return t(`ui.level.${name}`, {}, name);
}

// games created before bots were named in the reader's words stored "easy bot"
const unnamedBot = (info) => info?.kind === "bot" && (!info.name || info.name === `${info.level} bot`);

/** A seat's name as players read it: the name taken, a bot by its level (with its seat number
 *  when another bot has the same level), else "Player N"; as the server's seat_names. */
export function seatName(seats, seat) {
  const info = seats?.[seat];
  if (unnamedBot(info)) {
    const twins = seats.filter((s) => unnamedBot(s) && s.level === info.level).length;
    return twins > 1 ? t("ui.bot_named_n", { level: levelName(info.level), n: Number(seat) + 1 })
      : t("ui.bot_named", { level: levelName(info.level) });
  }
  return info?.name || t("ui.player_n", { n: Number(seat) + 1 });
}

let catalogCache = null;

/** The catalog as {id: entry}, fetched once per page. */
export async function catalogById() {
  if (catalogCache === null) {
    const reply = await api("GET", "/api/catalog");
    catalogCache = {};
    if (reply.ok) for (const entry of reply.data) catalogCache[entry.id] = entry;
  }
  return catalogCache;
}

/** A game's name in the reader's language. */
export function gameTitle(catalog, gameId) {
  return t(`ui.game_name.${String(gameId).replaceAll("-", "_")}`, {}, catalog[gameId]?.name || gameId);
}

// Show a message in the page's message box (an empty text hides it).
export function say(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

// -- tooltips -------------------------------------------------------------------------------
// Any element with data-tip (and optionally data-tip-title) shows a tooltip: on hover with a
// mouse, on focus with a keyboard, and on a tap for elements that do nothing else on a tap.

/** Give a drawn component its tooltip: a name and what it does. */
export function tip(node, title, text) {
  if (title) node.dataset.tipTitle = title;
  if (text) node.dataset.tip = text;
  return node;
}

let tipFor = null;

function showTip(node) {
  const box = $("tip") || document.body.appendChild(el("div", { id: "tip", class: "tip", role: "tooltip" }));
  fill(box,
    node.dataset.tipTitle ? el("strong", {}, node.dataset.tipTitle) : null,
    node.dataset.tip ? el("span", {}, node.dataset.tip) : null);
  box.hidden = false;
  const rect = node.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  box.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(rect.left, window.innerWidth - width - 8));
  box.style.left = `${window.scrollX + left}px`;
  box.style.top = `${window.scrollY + rect.bottom + 6}px`;
  tipFor = node;
}

export function hideTip() {
  const box = $("tip");
  if (box) box.hidden = true;
  tipFor = null;
}

let lastPointer = "mouse";

/** "touch" when the latest press came from a finger (a tap), else "mouse". */
export function pointerKind() {
  return lastPointer;
}

function installTips() {
  if (document.body.dataset.tips) return;
  document.body.dataset.tips = "1";
  document.addEventListener("pointerdown", (event) => { lastPointer = event.pointerType === "touch" ? "touch" : "mouse"; }, true);
  document.addEventListener("mouseover", (event) => {
    if (lastPointer === "touch") return;
    const node = event.target.closest?.("[data-tip], [data-tip-title]");
    if (node && node !== tipFor) showTip(node);
    else if (!node && tipFor) hideTip();
  });
  document.addEventListener("focusin", (event) => {
    if (lastPointer === "touch") return; // a tap focuses too: its click decides (a tooltip would cover the choices)
    const node = event.target.closest?.("[data-tip], [data-tip-title]");
    if (node) showTip(node);
  });
  document.addEventListener("click", (event) => {
    const node = event.target.closest?.("[data-tip], [data-tip-title]");
    if (!node || node.classList.contains("clickable") || node.closest("button")) {
      if (!event.target.closest?.("#tip")) hideTip();
      return;
    }
    if (tipFor === node) hideTip();
    else showTip(node);
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideTip(); });
}
