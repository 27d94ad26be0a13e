"""The page's languages (tabletop.i18n, docs/web.md "Languages"): the catalogues hold
exactly the texts the code uses, each translated, with the same placeholders; the server
serves them as JSON and picks the first page's language from Accept-Language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from tabletop.i18n import LANGUAGES, catalogue, negotiate, placeholders

from server_support import Api

REPO = Path(__file__).resolve().parents[2]
LOCALES = REPO / "src" / "tabletop" / "locale"
#: The keywords of `make catalogues` (the Makefile's EXTRACT).
KEYWORDS = ["-k", "t", "-k", "tn:1,2", "-k", "tp:1c,2", "-k", "N_", "-k", "ApiError:2"]
KEYWORDS += ["-k", "IllegalActionError", "-k", "InvalidActionError"]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Every text the code holds, as `pybabel extract` finds it."""
    pot = tmp_path_factory.mktemp("i18n") / "messages.pot"
    args = ["pybabel", "-q", "extract", "-F", str(REPO / "babel.cfg"), "--no-default-keywords"]
    CommandLineInterface().run([*args, *KEYWORDS, "-o", str(pot), str(REPO / "src")])
    with pot.open("rb") as f:
        return read_po(f)


def _po(lang: str) -> Any:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def _keys(messages: Any) -> set[tuple[Any, Any]]:
    return {(m.id, m.context) for m in messages if m.id}


def test_extraction_finds_the_texts_of_python_and_javascript(template: Any) -> None:
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert "the game is over" in ids  # Python: ApiError
    assert "too many hints at once; wait {seconds} s and try again" in ids  # Python: N_
    assert "Create game" in ids  # JavaScript: t
    assert "Start · {n} turn" in ids  # JavaScript: tn


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalogue_has_exactly_the_texts_of_the_code(template: Any, lang: str) -> None:
    po = _po(lang)
    missing = _keys(template) - _keys(po)
    unused = _keys(po) - _keys(template)
    assert not missing, f"{lang}.po lacks {sorted(map(str, missing))[:20]} (run make catalogues)"
    assert not unused, (
        f"{lang}.po has texts the code no longer uses: {sorted(map(str, unused))[:20]}"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_is_translated_with_the_same_placeholders(lang: str) -> None:
    for m in _po(lang):
        if not m.id:
            continue
        assert not m.fuzzy, f"{lang}: fuzzy translation of {m.id!r}"
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        assert forms and all(f.strip() for f in forms), f"{lang}: {m.id!r} is not translated"
        wanted = set().union(*(placeholders(i) for i in ids))
        for form in forms:
            got = placeholders(form)
            # a singular may spell out its {n} ("ein Plättchen"); nothing else may go or come
            assert got <= wanted and wanted - got <= {"n"}, f"{lang}: {m.id!r} → {form!r}"


def test_the_page_catalogues_hold_plurals_as_lists() -> None:
    de = catalogue("de")
    assert de["lang"] == "de" and de["plurals"] == ["one", "other"]
    assert de["messages"]["Create game"] == "Spiel erstellen"
    assert isinstance(de["messages"]["Start · {n} turn"], list)
    assert catalogue("en")["messages"] == {}


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("nl-BE", "nl"),
        ("fr-FR,nl;q=0.5,de;q=0.7", "de"),
        ("en-GB,de;q=0.9", "en"),
        ("fr", None),
        ("de;q=0, nl;q=0.1", "nl"),
        ("", None),
        (None, None),
        ("de;q=abc", None),
    ],
)
def test_accept_language_is_negotiated(header: str | None, lang: str | None) -> None:
    assert negotiate(header) == lang


def test_the_server_serves_each_catalogue_and_refuses_others(api: Api) -> None:
    answer = api.request("GET", "/i18n/nl.json")
    assert answer.status_code == 200
    assert answer.json()["messages"]["Create game"] == "Spel aanmaken"
    again = api.request("GET", "/i18n/nl.json", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304
    missing = api.request("GET", "/i18n/fr.json")
    assert missing.status_code == 404
    body = missing.json()
    assert body["key"] == "there is no such language; the page speaks {languages}"
    assert body["error"] == "there is no such language; the page speaks en, de, nl"


def test_the_first_page_is_in_the_language_the_browser_asks_for(api: Api) -> None:
    german = api.request("GET", "/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="de" data-asked="de">' in german.text
    assert "<noscript>Diese Seite braucht JavaScript.</noscript>" in german.text
    assert "Accept-Language" in german.headers["vary"]
    plain = api.request("GET", "/")
    assert '<html lang="en">' in plain.text
    assert plain.headers["etag"] != german.headers["etag"]


def test_errors_carry_their_msgid_and_arguments(api: Api) -> None:
    answer = api.request("POST", "/api/games", content=b"[1,")
    assert answer.status_code == 400
    body = answer.json()
    assert body["key"] == "{what} is not valid JSON ({reason})"
    assert body["args"]["what"] == "the request body"
    assert body["error"].startswith("the request body is not valid JSON (")


def test_a_games_refusals_carry_their_msgid_too(api: Api) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    answer = api.request("POST", "/api/games", json={"seats": seats, "options": {"x": 1}})
    assert answer.status_code == 400
    body = answer.json()
    assert body == {
        "error": "unknown option(s): x",
        "key": "unknown option(s): {names}",
        "args": {"names": "x"},
    }
