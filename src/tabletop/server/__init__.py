"""The web server: games in the browser, online and local, stored in SQLite.

It knows games only through ``core.web`` (``WebGame``, ``Match``); ``store`` is
the database; ``hub`` wires the parts that keep live games (``room``), change
them (``authority``), run their bots and time limits (``scheduling``) and push
updates (``encoding``); ``botpool`` runs bots in worker processes; ``app`` is the
ASGI application (routes in ``*_api`` and ``pages``) and ``main`` starts it.
"""
