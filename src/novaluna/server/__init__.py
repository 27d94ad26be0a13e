"""The web server: games in the browser, online and local, stored in SQLite.

``gametype`` is the interface a game offers the server; ``games/`` holds the
games; ``store`` is the database; ``rooms`` keeps live games and pushes
updates; ``app`` is the ASGI application and ``main`` starts it.
"""
