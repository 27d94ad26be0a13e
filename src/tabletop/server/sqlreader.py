"""What every read of a store's mixins stands on (``sqlstore``): ``_read``, which each
database does its own way."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TypeVar

from .sql import Sql

T = TypeVar("T")


class SqlReader(ABC):
    """Runs a read on the store's connection for reads (``store``, ``pgstore``)."""

    @abstractmethod
    def _read(self, query: Callable[[Sql], T]) -> T:
        """``query`` on the connection for reads (the event loop's)."""
