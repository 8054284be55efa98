"""``palio serve``: the web server (REST API, WebSocket push, static pages, bots).

One package per concern above a small bottom layer (``base``); ``app`` is the composition
root that builds and wires them. See each package's first docstring and docs/architecture.md.
"""
