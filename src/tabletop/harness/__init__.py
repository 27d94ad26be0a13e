"""Bots playing games for measurement, for any game: ``selfplay`` (and checking
record files), ``tournament`` (tables, seat rotations, Elo) and ``solobench``."""
