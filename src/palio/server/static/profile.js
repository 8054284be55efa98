// /profile: the signed-in account's settings (e-mail, language of mails, mail on a turn,
// a new password) and its games; the public page is /players/{name}.

import { accountError, accountGameRows, currentAccount } from "/static/account.js";
import { $, api, catalogById, el, gameTitle, loadWords, say, t } from "/static/common.js";
import { finishedGames, provisionalMark, ratingGraph } from "/static/ratings.js";

function fill(me, languages) {
  $("profile-name").textContent = me.name;
  $("public-page").href = `/players/${encodeURIComponent(me.name)}`;
  $("settings-email").value = me.email || "";
  $("settings-lang").replaceChildren(...Object.entries(languages).map(([code, name]) =>
    el("option", { value: code, selected: code === me.lang }, name)));
  $("settings-mail").checked = me.mail_turns;
}

async function save(event) {
  event.preventDefault();
  const body = { email: $("settings-email").value.trim(), lang: $("settings-lang").value,
    mail_turns: $("settings-mail").checked };
  const password = $("settings-password").value;
  if (password) {
    body.password = password;
    body.current_password = $("settings-current").value;
  }
  const reply = await api("PATCH", "/api/me", body);
  if (!reply.ok) {
    say(t("accounts.settings.failed", { reason: accountError(reply) }));
    return;
  }
  $("settings-password").value = "";
  $("settings-current").value = "";
  say(t("accounts.settings.saved"), "info");
}

async function start() {
  await loadWords();
  const me = currentAccount();
  if (!me) {
    $("signed-out").hidden = false;
    document.body.dataset.ready = "1";
    return;
  }
  const words = await api("GET", "/api/languages");
  fill(me, words.ok ? words.data : { en: "English" });
  $("settings-panel").hidden = false;
  $("settings-form").addEventListener("submit", save);
  const games = await api("GET", "/api/me/games");
  const catalog = await catalogById();
  $("account-games").replaceChildren(...(games.ok ? accountGameRows(games.data.games, catalog) : []));
  $("games-panel").hidden = false;
  // finished games with date, place and rating change; a graph per game type's rating
  const profile = await api("GET", `/api/players/${encodeURIComponent(me.name)}`);
  if (games.ok && profile.ok) {
    const ratings = profile.data.ratings || {};
    const title = (id) => gameTitle(catalog, id);
    $("finished-games").replaceChildren(finishedGames(games.data.games, ratings, title));
    $("rating-graphs").replaceChildren(...Object.entries(ratings).map(([id, entry]) => el("div", {},
      el("p", { class: "rating-now", "data-game": id }, `${title(id)}: ${entry.rating} `, provisionalMark(entry)),
      ratingGraph(id, entry, title(id)))));
    $("history-panel").hidden = false;
  }
  document.body.dataset.ready = "1";
}

start();
