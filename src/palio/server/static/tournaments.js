// A tournament's page (/tournaments/{id}, drawn by palio/server/tournaments/routes.py): the
// button that enters or withdraws the signed-in account, then the page is drawn again.

import { $, api, errorMessage, loadWords, say } from "/static/common.js";

const button = $("tournament-action");
if (button) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    await loadWords();
    const reply = await api("POST", `/api/tournaments/${button.dataset.id}/${button.dataset.action}`, {});
    if (reply.ok) {
      window.location.reload();
    } else {
      say(errorMessage(reply));
      button.disabled = false;
    }
  });
}
