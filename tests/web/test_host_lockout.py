"""The host always gets in (issue 27, finding 4), through the real server on a real port.

Eight loopback addresses guess the PIN without pause. The PIN's limits stay
strict for them (five tries a minute per address, twenty for everyone), which
also refuses the real host's PIN; but a host already logged in keeps working,
and ``clue-companion host-login`` gives the owner a link that logs a new
browser in during the attack.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from real_browser import RealBrowser, serving
from web_fixtures import PIN

from companion.table.store import Store

LINK_PATH = "/host/login/"  # what the command prints after the page's address (documented in docs/web.md)

ROOT = Path(__file__).resolve().parents[2]
GUESSERS = [f"127.0.0.{n}" for n in range(2, 10)]
ATTACK_MOST = 60.0  # seconds: the guessing stops by then whatever happens (the PIN limits' window)
LINK = re.compile(r"^(http://\S+)$", re.MULTILINE)


class Attack:
    """Threads that guess wrong PINs from several addresses until stopped; what the server answered them."""

    def __init__(self, port: int, sources: list[str]) -> None:
        self.port = port
        self.answers: Counter[int] = Counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._guess, args=(source,), daemon=True) for source in sources]

    def _guess(self, source: str) -> None:
        guesser = RealBrowser(self.port, source)
        deadline = time.monotonic() + ATTACK_MOST
        guess = 0
        while not self._stop.is_set() and time.monotonic() < deadline:
            status = guesser.login(f"{guess:06d}").status  # never the PIN: 246813 is not among the first tries
            guess += 1
            with self._lock:
                self.answers[status] += 1
            self._stop.wait(0.005)

    def refused_everyone(self) -> bool:
        """True once the guessing has used up the limit for everyone (the real host's PIN gets 429 too)."""
        with self._lock:
            return self.answers[429] >= 40

    def __enter__(self) -> Attack:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=15)


@contextmanager
def attack(port: int) -> Iterator[Attack]:
    with Attack(port, GUESSERS) as going:
        deadline = time.monotonic() + 20
        while not going.refused_everyone() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert going.refused_everyone(), f"the guessing never reached the limits: {going.answers}"
        yield going


def host_login(tmp_path: Path, port: int, *extra: str) -> subprocess.CompletedProcess[str]:
    """``clue-companion host-login`` as the owner runs it on the Pi, with the store and config of this test."""
    config = tmp_path / "clue-companion.toml"
    config.write_text("[web]\nport = 8000\n", encoding="utf-8")
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "PYTHONPATH": str(ROOT)}
    env.pop("CLUE_COMPANION_DB", None)
    env.pop("CLUE_COMPANION_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", "host-login", "--config", str(config),
                           "--db", str(tmp_path / "games.db"), "--host", "127.0.0.1", "--port", str(port), *extra],
                          capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)


def link_of(output: str) -> str:
    found = LINK.findall(output)
    assert len(found) == 1, output
    return found[0]


def test_a_guessing_attack_keeps_pins_out_but_not_the_logged_in_host_nor_the_owners_link(tmp_path: Path) -> None:
    with serving(tmp_path) as (_, port):
        host = RealBrowser(port)
        assert host.login(PIN).status == 200
        with attack(port) as going:
            # The attack is real: the right PIN, from an address that never guessed, is refused now.
            latecomer = RealBrowser(port, "127.0.0.10")
            assert latecomer.login(PIN).status == 429
            # (a) the host already logged in keeps working, every time.
            answers = [host.get("/api/host").status for _ in range(20)]
            assert answers == [200] * 20
            # (b) the owner's link logs a new browser in, during the attack.
            done = host_login(tmp_path, port)
            assert done.returncode == 0, done.stderr
            link = link_of(done.stdout)
            assert link.startswith(f"http://127.0.0.1:{port}{LINK_PATH}")
            secret = link.rsplit("/", 1)[1]
            assert len(secret) >= 22  # at least 128 random bits, base64: 22 characters
            assert "store " + str(tmp_path / "games.db") in done.stdout
            owner = RealBrowser(port, "127.0.0.11")
            assert owner.get("/api/host").status == 401
            opened = owner.get(link.removeprefix(f"http://127.0.0.1:{port}"), {"Accept": "text/html"})
            assert opened.status == 200, opened.text()
            assert 'href="/host"' in opened.text()
            assert owner.get("/api/host").status == 200
            assert host.get("/api/host").status == 200
            # The link is used up: a second browser (or the attacker who saw it later) is refused.
            again = RealBrowser(port, "127.0.0.12").get(link.removeprefix(f"http://127.0.0.1:{port}"))
            assert (again.status, again.code()) == (403, "bad_login_link")
        # The PIN's limits stayed strict: at most twenty wrong PINs compared in the minute, the rest refused.
        assert going.answers[403] <= 20, going.answers
        assert going.answers[429] > going.answers[403], going.answers
        assert set(going.answers) <= {403, 429}, going.answers


def test_the_command_prints_a_qr_code_and_the_store_keeps_only_the_links_hash(tmp_path: Path) -> None:
    with serving(tmp_path) as (_, port):
        done = host_login(tmp_path, port)
        assert done.returncode == 0, done.stderr
        assert "▀" in done.stdout or "█" in done.stdout  # segno's terminal QR code
        secret = link_of(done.stdout).rsplit("/", 1)[1]
        from web.host_sessions import LINK_SETTING

        with Store(tmp_path / "games.db", exclusive=False) as store:
            stored = store.setting(LINK_SETTING) or ""
        assert secret not in stored
        kept = json.loads(stored)
        assert set(kept) == {"sha256", "expires"}
        assert 0 < kept["expires"] - time.time() <= 300
        # A newer link replaces the last one.
        newer = host_login(tmp_path, port, "--no-qr")
        assert "▀" not in newer.stdout and "█" not in newer.stdout
        assert RealBrowser(port).get(f"{LINK_PATH}{secret}").status == 403
        assert RealBrowser(port).get(f"{LINK_PATH}{link_of(newer.stdout).rsplit('/', 1)[1]}").status == 200


def test_the_command_refuses_a_store_that_is_not_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli.main import main

    for variable in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / "home"))
    monkeypatch.delenv("CLUE_COMPANION_CONFIG", raising=False)
    config = tmp_path / "clue-companion.toml"
    config.write_text("", encoding="utf-8")
    assert main(["host-login", "--db", str(tmp_path / "nowhere.db"), "--config", str(config)]) == 2
    assert "there is no store at" in capsys.readouterr().err
    assert not (tmp_path / "nowhere.db").exists()


def test_two_browsers_racing_with_one_link_let_in_only_one(tmp_path: Path) -> None:
    from web.host_sessions import issue_link

    with serving(tmp_path) as (_, port):
        with Store(tmp_path / "games.db", exclusive=False) as store:
            secret = issue_link(store)
        racers = [RealBrowser(port, f"127.0.0.{n}") for n in (21, 22, 23, 24)]
        start = threading.Barrier(len(racers))
        statuses: list[int] = []

        def race(racer: RealBrowser) -> None:
            start.wait(timeout=10)
            statuses.append(racer.get(f"{LINK_PATH}{secret}").status)

        threads = [threading.Thread(target=race, args=(racer,)) for racer in racers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        assert sorted(statuses) == [200, 403, 403, 403]
        assert sorted(racer.get("/api/host").status for racer in racers) == [200, 401, 401, 401]


def test_an_expired_or_wrong_link_is_refused_and_counts_like_a_wrong_pin(tmp_path: Path) -> None:
    from web.host_sessions import issue_link

    with serving(tmp_path) as (_, port):
        with Store(tmp_path / "games.db", exclusive=False) as store:
            expired = issue_link(store, clock=lambda: time.time() - 301)
        browser = RealBrowser(port, "127.0.0.31")
        page = browser.get(f"{LINK_PATH}{expired}", {"Accept": "text/html"})
        assert page.status == 403 and "text/html" in page.headers["content-type"]
        assert "host-login" in page.text()
        assert browser.get("/api/host").status == 401
        for wrong in ("x" * 43, "short", "%C3%A9", "a" * 500):
            answer = browser.get(f"{LINK_PATH}{wrong}")
            assert (answer.status, answer.code()) == (403, "bad_login_link"), answer.text()
        # Five wrong secrets used up this address's PIN tries: the right PIN waits, as after five wrong PINs.
        answer = browser.login(PIN)
        assert (answer.status, answer.code()) == (429, "rate_limited")
        assert RealBrowser(port, "127.0.0.32").login(PIN).status == 200


@pytest.mark.parametrize("options", [["--port", "0"], ["--port", "70000"]])
def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path, options: list[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.cli.main import main

    for variable in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / "home"))

    assert main(["host-login", "--db", str(tmp_path / "games.db"), *options]) == 2
    assert not (tmp_path / "games.db").exists()
