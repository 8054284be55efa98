"""``palio serve``: the web server (REST API, WebSocket push, static pages, bots)."""
