"""JSON as the server sends it, safe for JavaScript: every integer beyond
``Number.MAX_SAFE_INTEGER`` (2^53 - 1) goes out as its decimal string.

Seeds are 62-bit (``daily.daily_seed``, a random game's ``secrets.randbits(62)``): read
as a JavaScript number, 921618756291718491 becomes 921618756291718500, which deals
another pile. So every response, socket message and stream line is written here
(``dumps``, ``JSONResponse``), and a big number arrives as a string whatever route it
takes. Small integers stay numbers. Input takes both (``records.whole_number``).

>>> dumps({"seed": 921618756291718491, "ply": 3, "scores": [2**53 - 1, -(2**53)]})
'{"seed":"921618756291718491","ply":3,"scores":[9007199254740991,"-9007199254740992"]}'
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from starlette.responses import JSONResponse as StarletteJSONResponse

#: The largest integer a JavaScript number holds exactly (``Number.MAX_SAFE_INTEGER``).
MAX_SAFE_INTEGER = 2**53 - 1


def js_safe(value: Any) -> Any:
    """``value`` with every integer beyond ±``MAX_SAFE_INTEGER`` turned into its
    decimal string (``bool`` is no integer here)."""
    if type(value) is int:
        return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else str(value)
    if isinstance(value, dict):
        return {key: js_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [js_safe(item) for item in value]
    return value


def dumps_bytes(value: Any) -> bytes:
    """Compact JSON (UTF-8) with big integers as strings. orjson checks the 53-bit
    limit as it encodes (``OPT_STRICT_INTEGER``), so the common message, with none,
    costs no extra walk; one with a big integer is walked and encoded again."""
    options = orjson.OPT_NON_STR_KEYS
    try:
        return orjson.dumps(value, option=options | orjson.OPT_STRICT_INTEGER)
    except orjson.JSONEncodeError:
        safe = js_safe(value)
        try:
            return orjson.dumps(safe, option=options)
        except orjson.JSONEncodeError:  # more than 254 levels deep: orjson's limit
            return json.dumps(safe, separators=(",", ":"), ensure_ascii=False).encode()


def dumps(value: Any) -> str:
    """``dumps_bytes`` as text (socket messages, stream lines)."""
    return dumps_bytes(value).decode()


class JSONResponse(StarletteJSONResponse):
    """Starlette's ``JSONResponse``, written by ``dumps_bytes``: every route's JSON."""

    def render(self, content: Any) -> bytes:
        return dumps_bytes(content)
