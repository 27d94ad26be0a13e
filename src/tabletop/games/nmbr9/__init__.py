"""NMBR 9 (Peter Wichmann, 2017): the rules engine (``rules``), bots (``bots``),
records (``records``), terminal play (``terminal``) and the ``GameType``
(``gametype``) the platform uses."""
