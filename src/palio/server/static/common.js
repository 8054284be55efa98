// Shared helpers of the Palio pages: DOM building, the JSON API, seats kept in localStorage.

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

/** A fetch of the JSON API: {ok, status, data}; a server error's message lands in data.error. */
export async function api(method, path, body = undefined, token = null) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (exc) {
    return { ok: false, status: 0, data: { error: { code: "network", message: "the server cannot be reached" } } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (exc) {
    data = { error: { code: "bad_reply", message: `the server answered ${response.status}` } };
  }
  return { ok: response.ok, status: response.status, data };
}

export function errorMessage(reply) {
  return reply.data?.error?.message || `request failed (${reply.status})`;
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

// -- names -------------------------------------------------------------------------------
export function seatName(seats, seat) {
  const info = seats?.[seat];
  if (!info) return `Seat ${seat}`;
  if (info.kind === "bot") return info.name || `${info.level} bot`;
  return info.name || `Seat ${seat}`;
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

export function gameTitle(catalog, gameId) {
  return catalog[gameId]?.name || gameId;
}

// The element with this id.
export const $ = (id) => document.getElementById(id);

// Show a message in the page's message box (an empty text hides it).
export function say(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}
