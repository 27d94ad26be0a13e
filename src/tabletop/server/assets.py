"""The page and its files, cacheable without ever going stale.

Every asset URL carries a hash of all the web files (``/static/<version>/shell/main.js``),
so browsers keep assets for a year without asking again, and any change to any file
(an upgrade) gives every URL a new version. The page itself is small and always
revalidated: it names the current version, and a revalidation costs a 304. ES modules
import each other by relative paths, so they inherit the version of the page's URLs.
Only the current version is served: a page left open across an upgrade gets 404s for
code it has not loaded yet, never files of another version.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Mapping
from importlib.resources.abc import Traversable

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

from ..i18n import N_, negotiate, translate

#: The page's one text for a browser without JavaScript (index.html's <noscript>).
NOSCRIPT = N_("This page needs JavaScript.")

#: Versioned URLs never change content: keep them a year without revalidating.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The page and unversioned URLs: keep, but ask the server (ETag) before each use.
REVALIDATE = "no-cache"


def content_version(trees: Mapping[str, Traversable]) -> str:
    """A short hash of the names and bytes of every file in ``trees`` (URL prefix →
    folder): editing, adding, removing or moving any file changes it."""
    digest = hashlib.sha256()
    for prefix, tree in sorted(trees.items()):
        for name, data in _files(tree, prefix):
            digest.update(f"{name}\0{len(data)}\0".encode())
            digest.update(data)
    return digest.hexdigest()[:16]


def _files(tree: Traversable, prefix: str) -> Iterator[tuple[str, bytes]]:
    """``(path, bytes)`` of every file under ``tree``, in a fixed order."""
    for entry in sorted(tree.iterdir(), key=lambda e: e.name):
        name = f"{prefix}/{entry.name}"
        if entry.is_dir():
            yield from _files(entry, name)
        elif entry.is_file():
            yield name, entry.read_bytes()


class CachedFiles(StaticFiles):
    """Static files with a ``Cache-Control`` of their own (StaticFiles adds the ETag)."""

    def __init__(self, directory: Traversable, cache_control: str) -> None:
        super().__init__(directory=str(directory))
        self.cache_control = cache_control

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = self.cache_control  # on 304s too
        return response


class Assets:
    """The shell's web files, each game's at ``games/<name>/``, and the page naming them."""

    def __init__(self, shell: Traversable, games: Mapping[str, Traversable]) -> None:
        self.shell = shell
        self.games = dict(games)
        self.version = content_version(
            {"web": shell, **{f"games/{name}": tree for name, tree in self.games.items()}}
        )
        self.prefix = f"/static/{self.version}"
        html = shell.joinpath("index.html").read_text(encoding="utf-8")
        self.page = html.replace('"/static/', f'"{self.prefix}/')
        # Weak: the gzip and plain bodies differ in bytes but not in meaning.
        self.etag = f'W/"{self.version}"'

    def routes(self) -> list[BaseRoute]:
        """The versioned files (immutable), then the unversioned (revalidated) ones."""
        return [
            Mount(self.prefix, routes=self._mounts(IMMUTABLE)),
            Mount("/static", routes=self._mounts(REVALIDATE)),
        ]

    def _mounts(self, cache_control: str) -> list[BaseRoute]:
        games = [
            Mount(f"/games/{name}", CachedFiles(tree, cache_control))
            for name, tree in self.games.items()
        ]
        return [*games, Mount("", CachedFiles(self.shell, cache_control))]

    def page_response(self, request: Request) -> Response:
        """The page, or 304 when the browser's copy (``If-None-Match``) is current.

        The page is in the language the browser's ``Accept-Language`` asks for
        (``<html lang>``; the page itself may choose another, remembered, one): a
        first visit is drawn in it at once."""
        lang = negotiate(request.headers.get("accept-language"))
        etag = self.etag if lang is None else f'{self.etag[:-1]}-{lang}"'
        headers = {"Cache-Control": REVALIDATE, "ETag": etag, "Vary": "Accept-Language"}
        if self._matches(request.headers.get("if-none-match", ""), etag):
            return Response(status_code=304, headers=headers)
        page = self.page
        if lang is not None:
            page = page.replace('<html lang="en">', f'<html lang="{lang}" data-asked="{lang}">', 1)
            page = page.replace(NOSCRIPT, translate(lang, NOSCRIPT), 1)  # all it says unscripted
        return HTMLResponse(page, headers=headers)

    @staticmethod
    def _matches(if_none_match: str, etag: str) -> bool:
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return "*" in tags or etag.removeprefix("W/") in tags
