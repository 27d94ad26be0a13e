"""The web server: games in the browser, online and local, stored in SQLite.

It knows games only through ``core.web`` (``WebGame``, ``Match``); ``store`` is
the database; ``rooms`` keeps live games and pushes updates; ``botpool`` runs
bots in worker processes; ``app`` is the ASGI application and ``main`` starts it.
"""
