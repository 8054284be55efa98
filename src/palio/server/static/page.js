// Pages the server writes itself (rules, errors): their words are already in the page's
// language; this adds the language chooser and the tooltips every page has.

import { loadWords } from "/static/common.js";

loadWords(document.documentElement.lang).then(() => { document.body.dataset.ready = "1"; });
