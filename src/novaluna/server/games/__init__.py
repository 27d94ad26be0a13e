"""The games this server hosts, each behind ``gametype.GameType``."""

from __future__ import annotations


def load_builtin() -> None:
    from ..gametype import register
    from .nova_luna import NovaLuna

    register(NovaLuna())
