"""Player names from strangers: what the server stores and shows to others.

A name is trimmed and its runs of white space become one space; it must be
valid Unicode (no lone surrogates, which no database or page can store), and
printable: no control, format (zero-width, bidirectional overrides), private-use
or unassigned characters, since those can hide or disguise a name on others'
screens.

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> clean_name("Ann\\u200bLee")
Traceback (most recent call last):
...
tabletop.server.names.BadName: contains an invisible formatting character (U+200B)
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 40  # the page's input allows as many

_REFUSED = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a lone surrogate (not valid Unicode)",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
}


class BadName(ValueError):
    """A name the server will not store, with the reason."""


def clean_name(raw: str) -> str:
    """``raw`` trimmed, with single spaces; ``BadName`` saying why it is refused."""
    for char in raw:  # white space of any kind is collapsed below, never refused
        category = unicodedata.category(char)
        if category in _REFUSED and not char.isspace():
            raise BadName(f"contains {_REFUSED[category]} (U+{ord(char):04X})")
    name = " ".join(raw.split())
    if len(name) > MAX_NAME:
        raise BadName(f"is {len(name)} characters long; at most {MAX_NAME}")
    return name
