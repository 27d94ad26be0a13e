"""The page's languages: English, German and Dutch.

Every text the page shows is an English *msgid* with ``{name}`` placeholders, gettext
style; the catalogues ``locale/<lang>/LC_MESSAGES/messages.po`` (managed with Babel,
see docs/web.md) translate them. English needs no catalogue: the msgid is the text.
The server never sends a sentence it made up in English alone: an error or a log entry
carries its msgid (``key``) and ``args``, and the page translates them; the English
text goes along for API users.

The page loads ``/i18n/<lang>.json`` (``catalogue``): ``{"lang", "plurals",
"messages"}``, where a message is its translation, or for a plural message the list
of its forms in the order of ``plurals`` (the ``Intl.PluralRules`` categories); a
message with a context (``tp`` on the page) is keyed ``context + "\x04" + msgid``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any, TypedDict

LANGUAGES = {"en": "English", "de": "Deutsch", "nl": "Nederlands"}
DEFAULT = "en"
LOCALES = resources.files("tabletop").joinpath("locale")
#: The gettext order of the plural forms of English, German and Dutch (Plural-Forms:
#: nplurals=2; plural=(n != 1)), as Intl.PluralRules names them.
PLURALS = ["one", "other"]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Part(TypedDict):
    """A piece of a sentence: a msgid and its placeholders' values (any JSON)."""

    key: str
    args: dict[str, Any]


class Catalogue(TypedDict):
    """``/i18n/<lang>.json`` (see the module)."""

    lang: str
    plurals: list[str]
    messages: dict[str, str | list[str]]  # a translation, or a plural's forms


def N_(msgid: str) -> str:  # noqa: N802 - the gettext name for "mark for extraction"
    """Mark ``msgid`` for ``pybabel extract``; the text itself is unchanged."""
    return msgid


def fill(msgid: str, args: dict[str, Any] | None = None) -> str:
    """``msgid`` with each ``{name}`` replaced by ``args[name]`` (unknown ones left as
    they are, so literal braces such as a JSON example survive)."""
    if not args:
        return msgid
    return _PLACEHOLDER.sub(lambda m: str(args[m[1]]) if m[1] in args else m[0], msgid)


class Reason(str):
    """Why a bot chose an action: the English line (the string itself: parts joined by
    ``"; "``) and its ``parts``, msgids with arguments that a page translates itself.

    >>> why = Reason.of(N_("cost {cost}"), cost=3) + Reason.of(N_("the only legal move"))
    >>> why, why.parts[0]
    ('cost 3; the only legal move', {'key': 'cost {cost}', 'args': {'cost': 3}})
    """

    parts: tuple[Part, ...]

    def __new__(cls, parts: Iterable[Part] = ()) -> Reason:
        parts = tuple(parts)
        text = super().__new__(cls, "; ".join(fill(p["key"], p["args"]) for p in parts))
        text.parts = parts
        return text

    @classmethod
    def of(cls, msgid: str, **args: Any) -> Reason:
        """A reason of one part."""
        return cls((part(msgid, **args),))

    def __add__(self, other: str) -> Reason:  # parts, not only the text
        if not isinstance(other, Reason):
            return NotImplemented
        return Reason(self.parts + other.parts)


def part(msgid: str, **args: Any) -> Part:
    """One piece of a sentence the server sends: ``{"key": msgid, "args": args}``."""
    return {"key": msgid, "args": args}


def parts_text(parts: Iterable[Part]) -> str:
    """The English of ``parts`` (see ``part``), joined with nothing between.

    >>> parts_text([part("placed their {card}", card=7), part("; the game is over")])
    'placed their 7; the game is over'
    """
    return "".join(fill(p["key"], p["args"]) for p in parts)


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def negotiate(accept_language: str | None) -> str | None:
    """The page language an ``Accept-Language`` header asks for first (``None``: no
    header, or none of ours)."""
    if not accept_language:
        return None
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if q > 0 and primary in LANGUAGES:
            wanted.append((-q, i, primary))
    return min(wanted)[2] if wanted else None


@cache
def translate(lang: str, msgid: str) -> str:
    """``msgid`` in ``lang`` (itself where the catalogue has none), for the few texts the
    server itself puts on the page."""
    found = catalogue(lang)["messages"].get(msgid)
    return found if isinstance(found, str) else msgid


@cache
def catalogue(lang: str) -> Catalogue:
    """The page's catalogue of ``lang`` (see the module); English has no messages."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    messages: dict[str, str | list[str]] = {}
    if lang != DEFAULT:
        from babel.messages.pofile import read_po

        path = LOCALES.joinpath(lang, "LC_MESSAGES", "messages.po")
        with path.open("rb") as po:
            for message in read_po(po, locale=lang):
                if not message.id or message.fuzzy:
                    continue
                # read_po gives a str, or a tuple of forms for a plural message
                msgid, string = message.id, message.string
                key = msgid if isinstance(msgid, str) else msgid[0]
                if message.context:  # gettext's key for a message in a context
                    key = f"{message.context}\x04{key}"
                if not isinstance(msgid, str):
                    forms = list(string or ())
                    if all(forms):
                        messages[key] = forms
                elif isinstance(string, str) and string:
                    messages[key] = string
    return {"lang": lang, "plurals": PLURALS, "messages": messages}
