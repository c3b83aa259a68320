"""The editor's JSON API: editions as documents, checks pointing at squares, save, export, import, and a game on a saved edition."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from user_boards import small_document
from web_fixtures import Browser, error_of, host_browser, make_app, running

from companion.rules.edition import EDITIONS_VARIABLE, bundled_ids, load_edition


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    found = tmp_path / "editions"
    monkeypatch.setenv(EDITIONS_VARIABLE, str(found))
    return found


@pytest.fixture
def app(tmp_path: Path, folder: Path) -> Iterator[Flask]:
    with running(tmp_path) as session:
        yield make_app(session, EDITIONS_DIR=str(folder))


@pytest.fixture
def host(app: Flask) -> Browser:
    return host_browser(app)


def test_every_route_needs_the_host_login(app: Flask) -> None:
    stranger = Browser(app)
    for url in ("/api/host/editor/editions", "/api/host/editor/edition/classic", "/api/host/editor/blank?width=5&height=5",
                "/api/host/editor/export/classic"):
        assert error_of(stranger.get(url)) == "host_login", url
    for url in ("/api/host/editor/check", "/api/host/editor/save", "/api/host/editor/import"):
        assert error_of(stranger.post(url, {"document": small_document()})) == "host_login", url


def test_posts_need_the_csrf_token(host: Browser) -> None:
    assert error_of(host.post("/api/host/editor/save", {"document": small_document()}, csrf="wrong")) == "csrf"


def test_the_list_has_every_bundled_edition_with_its_source(host: Browser) -> None:
    listed = host.json("/api/host/editor/editions")["editions"]
    assert [(e["id"], e["source"]) for e in listed] == [(i, "bundled") for i in bundled_ids()]


def test_any_edition_opens_as_a_document(host: Browser) -> None:
    document = host.json("/api/host/editor/edition/doctor_who")
    assert document["id"] == "doctor_who" and document["base"] == "doctor_who"
    assert len(document["map"]["rows"]) == load_edition("doctor_who").require_board().height
    assert error_of(host.get("/api/host/editor/edition/nonesuch")) == "unknown_edition"
    assert error_of(host.get("/api/host/editor/edition/..%2Fsecrets")) in ("unknown_edition", "not_found")


def test_a_blank_grid_has_the_size_asked(host: Browser) -> None:
    blank = host.json("/api/host/editor/blank?width=12&height=7&base=big_bang_theory")
    assert blank["map"]["rows"] == ["#" * 12] * 7 and blank["base"] == "big_bang_theory"
    for query in ("width=0&height=5", "width=41&height=5", "width=x&height=5", "height=5"):
        assert error_of(host.get(f"/api/host/editor/blank?{query}")) == "bad_field", query


def test_check_lists_problems_with_their_squares(host: Browser) -> None:
    document = small_document()
    assert host.post("/api/host/editor/check", {"document": document}).get_json() == {"problems": []}
    document["map"]["rows"][5] = "CCc....4.."
    problems = host.post("/api/host/editor/check", {"document": document}).get_json()["problems"]
    assert problems[0]["row"] == 5 and problems[0]["column"] == 7 and problems[0]["square"] == "h6"
    assert "unknown character '4'" in problems[0]["message"]


@pytest.mark.parametrize("document", [{"players": None}, {"id": 1}, {"map": {"rows": [None]}}, {"cards": "x", "players": []}])
def test_check_never_fails_on_bad_input(host: Browser, document: dict[str, Any]) -> None:
    answer = host.post("/api/host/editor/check", {"document": {**small_document(), **document}})
    assert answer.status_code == 200 and answer.get_json()["problems"]


def test_check_refuses_what_is_not_a_document(host: Browser) -> None:
    assert error_of(host.post("/api/host/editor/check", {"document": [1]})) == "bad_field"
    assert error_of(host.post("/api/host/editor/check", {"other": 1})) == "bad_field"
    too_big = {"document": {**small_document(), "name": "x" * (300 * 1024)}}
    assert error_of(host.post("/api/host/editor/check", too_big)) == "too_large"


def test_a_saved_edition_is_listed_and_offered_for_a_new_game(host: Browser, folder: Path) -> None:
    saved = host.post("/api/host/editor/save", {"document": small_document()})
    assert saved.status_code == 200, saved.get_json()
    assert saved.get_json() == {"ok": True, "id": "our_board", "path": str(folder / "our_board.toml"),
                                "source": "yours"}
    listed = {e["id"]: e for e in host.json("/api/host/editor/editions")["editions"]}
    assert (listed["our_board"]["source"], listed["our_board"]["base"]) == ("yours", "classic")
    offered = {e["id"]: e for e in host.json("/api/host")["editions"]}
    assert offered["our_board"]["source"] == "yours" and offered["our_board"]["suspects"] == ["Ada", "Bo", "Cy"]
    assert offered["classic"]["source"] == "bundled"
    opened = host.post("/api/host/new", {"edition": "our_board", "seats": ["Ada", "Bo", "Cy"], "seed": 3})
    assert opened.status_code == 200, opened.get_json()
    assert host.json("/api/host")["edition"] == "our_board"
    board = host.json("/api/board?edition=our_board")  # the pages draw it like a bundled board
    assert board["edition"] == "our_board" and board["svg"].startswith("<svg") and "Attic" in board["rooms"]


def test_a_saved_correction_is_what_the_pages_draw(host: Browser) -> None:
    before = host.json("/api/board?edition=classic")
    assert "a8" in before["squares"]
    document = host.json("/api/host/editor/edition/classic")
    document["map"]["rows"][7] = "#" + document["map"]["rows"][7][1:]
    assert host.post("/api/host/editor/save", {"document": document}).status_code == 200
    assert "a8" not in host.json("/api/board?edition=classic")["squares"]


def test_a_bad_document_is_not_saved_and_says_why(host: Browser, folder: Path) -> None:
    document = small_document()
    document["map"]["rows"][5] = "CCc....4.."
    answer = host.post("/api/host/editor/save", {"document": document})
    body = answer.get_json()
    assert answer.status_code == 400 and body["ok"] is False and body["error"]["code"] == "bad_document"
    assert body["problems"][0]["square"] == "h6"
    assert not folder.exists()


def test_saving_a_bundled_id_saves_a_correction(host: Browser) -> None:
    document = host.json("/api/host/editor/edition/classic")
    document["map"]["rows"][7] = "#" + document["map"]["rows"][7][1:]
    saved = host.post("/api/host/editor/save", {"document": document}).get_json()
    assert saved["source"] == "correction"
    assert "a8" not in load_edition("classic").require_board().squares
    listed = {e["id"]: e["source"] for e in host.json("/api/host/editor/editions")["editions"]}
    assert listed["classic"] == "correction"


def test_export_downloads_one_file_that_imports_back(host: Browser, folder: Path) -> None:
    assert host.post("/api/host/editor/save", {"document": small_document()}).status_code == 200
    exported = host.get("/api/host/editor/export/our_board")
    assert exported.status_code == 200 and exported.mimetype == "application/toml"
    assert 'attachment; filename="our_board.edition.toml"' == exported.headers["Content-Disposition"]
    text = exported.get_data(as_text=True)
    assert tomllib.loads(text)["board"]["rows"] == small_document()["map"]["rows"]
    renamed = text.replace('id = "our_board"', 'id = "shared_board"')
    imported = host.post("/api/host/editor/import", data=renamed.encode(), content_type="text/plain")
    assert imported.status_code == 200, imported.get_json()
    assert imported.get_json()["id"] == "shared_board" and (folder / "shared_board.txt").is_file()
    as_json = host.post("/api/host/editor/import", {"text": text.replace('"our_board"', '"third"')})
    assert as_json.get_json()["id"] == "third"


@pytest.mark.parametrize("text", [b"not toml [", b'id = "x"\n', b"\xff\xfe", b'id = "../x"\n[board]\nrows=["."]'])
def test_a_bad_import_is_refused_with_a_plain_message(host: Browser, folder: Path, text: bytes) -> None:
    answer = host.post("/api/host/editor/import", data=text, content_type="text/plain")
    assert answer.status_code == 400
    message = answer.get_json()["error"]["message"]
    assert message and "\n" not in message and "Traceback" not in message
    assert not folder.exists()


def test_an_import_too_large_is_refused(host: Browser) -> None:
    answer = host.post("/api/host/editor/import", data=b"#" * (300 * 1024), content_type="text/plain")
    assert error_of(answer) == "too_large"


def test_without_an_editions_folder_saving_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(EDITIONS_VARIABLE, raising=False)
    with running(tmp_path) as session:
        browser = host_browser(make_app(session))
        assert error_of(browser.post("/api/host/editor/save", {"document": small_document()})) == "no_editions_folder"
