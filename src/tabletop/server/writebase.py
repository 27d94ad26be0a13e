"""The base of every write the server stores (``writes``): a change that runs itself
against a ``Sql`` inside the batch's transaction and returns its own result."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from .sql import Sql

T_co = TypeVar("T_co", covariant=True)


class Write(ABC, Generic[T_co]):
    """A change waiting to be stored; ``run`` applies it and returns its result."""

    @abstractmethod
    def run(self, sql: Sql) -> T_co: ...
