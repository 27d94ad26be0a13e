"""Nova Luna: rules engine, bots, game records and terminal play."""

__version__ = "0.1.0"
