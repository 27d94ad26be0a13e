"""Lean and cacheable: compressed answers, versioned immutable assets, a revalidated page."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import httpx

from tabletop.server.assets import IMMUTABLE, content_version

from server_support import Api

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def raw_get(api: Api, path: str, headers: dict[str, str]) -> httpx.Response:
    """The response with its body exactly as sent (``.raw``), not decoded by httpx."""
    with api.http.stream("GET", path, headers=headers) as response:
        response.raw = b"".join(response.iter_raw())  # type: ignore[attr-defined]
    return response


def page_asset_urls(api: Api) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', api.request("GET", "/").text)


def finished_game(api: Api) -> str:
    created = api.create([{"kind": "human", "name": "Ann"}, GREEDY], seed=3)
    game_id, token = created["id"], created["seats"][0]["token"]
    while True:
        state = api.wait(game_id, token, lambda s: s["over"] or s["acting"] == 0)
        if state["over"]:
            return game_id
        action = next(c["action"] for c in state["choices"] if "space" in c)
        assert api.act(game_id, token, action, state["ply"]).status_code == 200


def test_pages_code_styles_and_json_are_gzipped_only_when_asked(api: Api) -> None:
    urls = page_asset_urls(api)
    script = next(u for u in urls if u.endswith("/shell/main.js"))
    style = next(u for u in urls if u.endswith("/shell/shell.css"))
    replay = f"/api/games/{finished_game(api)}/replay"
    for path in ["/", "/g/abc", script, style, "/api/types", replay]:
        plain = raw_get(api, path, PLAIN)
        packed = raw_get(api, path, GZIP)
        assert plain.status_code == packed.status_code == 200, path
        assert "content-encoding" not in plain.headers, path
        assert packed.headers["content-encoding"] == "gzip", path
        assert gzip.decompress(packed.raw) == plain.raw, path  # type: ignore[attr-defined]
        assert len(packed.raw) < len(plain.raw) / 2, path  # type: ignore[attr-defined]
        for response in (plain, packed):  # a shared cache must keep the two apart
            assert "accept-encoding" in response.headers["vary"].lower(), path
            assert "script-src 'self'" in response.headers["content-security-policy"], path


def test_the_page_names_versioned_assets_that_never_need_revalidating(api: Api) -> None:
    urls = page_asset_urls(api)
    versions = {url.split("/")[2] for url in urls}
    assert len(versions) == 1 and re.fullmatch(r"[0-9a-f]{16}", versions.pop())
    assert any(u.endswith("/shell/main.js") for u in urls)
    for url in urls:
        response = api.request("GET", url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == IMMUTABLE, url


def test_game_files_are_versioned_too_and_old_versions_are_not_served(api: Api) -> None:
    prefix = "/".join(page_asset_urls(api)[0].split("/")[:3])
    game_code = api.request("GET", f"{prefix}/games/nova-luna/index.js")
    assert game_code.status_code == 200
    assert game_code.headers["cache-control"] == IMMUTABLE
    # An old page must fail loudly rather than mix in files of another version.
    assert api.request("GET", "/static/0123456789abcdef/shell/main.js").status_code == 404
    # Unversioned addresses still work, but are checked with the server before each use.
    plain = api.request("GET", "/static/shell/main.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"


def test_the_page_is_revalidated_and_unchanged_costs_a_304(api: Api) -> None:
    page = api.request("GET", "/replay")
    assert page.headers["cache-control"] == "no-cache"
    etag = page.headers["etag"]
    again = api.request("GET", "/g/xyz", headers={"If-None-Match": f'"other", {etag}'})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    stale = api.request("GET", "/", headers={"If-None-Match": '"other"'})
    assert stale.status_code == 200 and stale.text == page.text


def test_api_answers_are_never_stored(api: Api) -> None:
    created = api.create([{"kind": "human", "name": "Ann"}, GREEDY])
    token = created["seats"][0]["token"]
    for path in ["/api/types", f"/api/games/{created['id']}", "/api/games/nope"]:
        assert api.request("GET", path, token).headers["cache-control"] == "no-store", path


def test_any_change_to_any_web_file_changes_the_version(tmp_path: Path) -> None:
    shell, game = tmp_path / "web", tmp_path / "game"
    (shell / "shell").mkdir(parents=True)
    game.mkdir()
    (shell / "index.html").write_text("<!doctype html>")
    (shell / "shell" / "main.js").write_text("export {};")
    (game / "index.js").write_text("export default {};")
    trees = {"web": shell, "games/x": game}
    seen = {content_version(trees)}
    assert content_version(trees) in seen  # the same files, the same version

    (game / "index.js").write_text("export default { x: 1 };")
    seen.add(content_version(trees))
    (shell / "shell" / "new.js").write_text("")
    seen.add(content_version(trees))
    (shell / "shell" / "new.js").rename(shell / "shell" / "old.js")
    seen.add(content_version(trees))
    seen.add(content_version({"web": shell, "games/y": game}))
    assert len(seen) == 5
