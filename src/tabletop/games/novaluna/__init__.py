"""Nova Luna (Uwe Rosenberg, 2019): the rules engine (``rules``), bots (``bots``),
records (``records``), terminal play (``terminal``), the browser side (``webgame``
and the page in ``web/``) and the ``GameType`` (``gametype``) the platform uses."""
