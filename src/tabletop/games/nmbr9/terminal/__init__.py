"""Terminal play: ``nmbr9 play`` (rich rendering of the boards, typed placements)."""

from .app import play_from_args

__all__ = ["play_from_args"]
