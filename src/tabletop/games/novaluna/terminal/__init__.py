"""Terminal play: ``novaluna play`` and ``novaluna solo`` (rich rendering, typed moves)."""

from .app import play_from_args

__all__ = ["play_from_args"]
