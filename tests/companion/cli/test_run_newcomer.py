"""``run`` as a newcomer meets it: options are never dropped unasked, a flag lasts one run unless
remembered, the terminal shows sentences (JSON lines only for a log or ``--log-json``), a normal
quit is no warning, and a web port in use says what to do."""

from __future__ import annotations

import json
import logging
import os
import pty
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.table.store import Store

WAIT = 60.0  # seconds: generous, for a busy two-core machine
RUN = [sys.executable, "-m", "companion.cli", "run", "--mock", "--no-web"]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Every path the companion resolves inside ``tmp_path``: never the real home."""
    return {**os.environ, "HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "CLUE_COMPANION_DB": str(tmp_path / "games.db"),
            "TERM": "xterm"}


def script(tmp_path: Path, text: str = "status\n") -> list[str]:
    (tmp_path / "script.txt").write_text(text)
    return ["--script", str(tmp_path / "script.txt"), "--exit-after-script"]


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``run --mock`` without a terminal (as a service or a pipe starts it)."""
    return subprocess.run([*RUN, *args], capture_output=True, text=True, timeout=WAIT, env=env,
                          stdin=subprocess.DEVNULL)


def on_terminal(env: dict[str, str], *args: str, answers: dict[str, str] | None = None) -> tuple[int, str]:
    """``run --mock`` on a pty (standard input, output and error): its exit code and everything it showed.

    ``answers``: when the screen shows a key, type its value (once each).
    """
    main, other = pty.openpty()
    process = subprocess.Popen([*RUN, *args], stdin=other, stdout=other, stderr=other, close_fds=True, env=env)
    os.close(other)
    seen, waiting = b"", dict(answers or {})
    deadline = time.monotonic() + WAIT
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(main, 4096)
                except OSError:  # the program ended and closed the pty
                    break
                if not chunk:
                    break
                seen += chunk
            for shown, typed in list(waiting.items()):
                if shown.encode() in seen:
                    os.write(main, typed.encode())
                    del waiting[shown]
            if not ready and process.poll() is not None:
                break
        code = process.wait(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    return code, seen.decode(errors="replace").replace("\r\n", "\n")


def unfinished_classic_game(env: dict[str, str], tmp_path: Path) -> None:
    first = run(env, "--new", *script(tmp_path, "press 1 ok\n"))
    assert first.returncode == 0, first.stderr
    with Store(tmp_path / "games.db") as store:
        assert [(game.id, game.edition) for game in store.unfinished()] == [(1, "classic")]


# ---- --edition with an unfinished game of another edition -------------------------------------


def test_without_a_terminal_the_edition_asked_for_wins_and_the_old_game_stays(env, tmp_path):
    unfinished_classic_game(env, tmp_path)
    done = run(env, "--edition", "doctor_who", *script(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "new doctor_who game, seed 1" in done.stdout and "resumed" not in done.stdout
    assert "game 1 (Classic CLUE, 1 actions) stays stored unfinished" in done.stdout
    with Store(tmp_path / "games.db") as store:
        assert sorted((game.id, game.edition) for game in store.unfinished()) == [(1, "classic"), (2, "doctor_who")]


def test_the_same_edition_without_a_terminal_still_resumes(env, tmp_path):
    unfinished_classic_game(env, tmp_path)
    done = run(env, "--edition", "classic", *script(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "resumed game 1 (classic, 1 actions)" in done.stdout and "not used" not in done.stdout


def test_on_a_terminal_it_asks_plainly_and_enter_starts_the_new_edition(env, tmp_path):
    unfinished_classic_game(env, tmp_path)
    question = ("Game 1 (Classic CLUE, 4 seats, 1 actions) is unfinished. "
                "Start a new CLUE Doctor Who game instead? [Y/n] ")
    code, shown = on_terminal(env, "--edition", "doctor_who", *script(tmp_path), answers={"[Y/n] ": "\n"})
    assert code == 0, shown
    assert question in shown and "new doctor_who game" in shown and "resumed" not in shown


def test_on_a_terminal_no_resumes_and_says_the_option_was_not_used(env, tmp_path):
    unfinished_classic_game(env, tmp_path)
    code, shown = on_terminal(env, "--edition", "doctor_who", *script(tmp_path), answers={"[Y/n] ": "n\n"})
    assert code == 0, shown
    assert "resumed game 1 (classic, 1 actions)" in shown
    assert "--edition not used for the resumed game (--new starts a new game)" in shown


# ---- a flag lasts one run unless remembered -----------------------------------------------------


def stored_locale(tmp_path: Path) -> str | None:
    with Store(tmp_path / "games.db") as store:
        text = store.setting("house")
    return json.loads(text)["locale"] if text else None


def test_locale_lasts_one_run_unless_remembered(env, tmp_path):
    once = run(env, "--new", "--locale", "de-DE", *script(tmp_path))
    assert once.returncode == 0, once.stderr
    configured = [json.loads(line) for line in once.stderr.splitlines() if '"table_configured"' in line]
    assert configured and configured[0]["locale"] == "de-DE"  # this run was German
    assert stored_locale(tmp_path) in (None, "en-US") and "kept for later starts" not in once.stdout

    kept = run(env, "--new", "--locale", "de-DE", "--remember", *script(tmp_path))
    assert kept.returncode == 0, kept.stderr
    assert "clue-companion: locale de-DE kept for later starts (--remember)" in kept.stdout
    assert stored_locale(tmp_path) == "de-DE"

    again = run(env, "--new", "--locale", "en-GB", *script(tmp_path))  # one British run: German stays kept
    assert again.returncode == 0, again.stderr
    assert stored_locale(tmp_path) == "de-DE"


def test_remember_without_a_locale_is_a_usage_error(env, tmp_path):
    done = run(env, "--new", "--remember", *script(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == ("clue-companion: --remember keeps this run's --locale: add --locale, "
                                   "e.g. --locale de-DE")


# ---- the log: sentences for people, JSON for a log --------------------------------------------


def test_a_terminal_shows_sentences_not_json_and_a_normal_quit_is_no_warning(env, tmp_path):
    code, shown = on_terminal(env, "--new", *script(tmp_path, "press 1 ok\nquit\n"))
    assert code == 0, shown
    assert '{"t"' not in shown and '"event"' not in shown, shown
    assert "virtual board on /dev/" in shown and "warning" not in shown.lower(), shown
    assert "clue-companion: the board is connected on /dev/" in shown  # the one routine line worth saying


def test_the_interactive_console_quits_without_a_warning(env, tmp_path):
    code, shown = on_terminal(env, "--new", answers={"> ": "quit\n"})
    assert code == 0, shown
    assert "warning" not in shown.lower() and '{"t"' not in shown, shown


def test_log_json_prints_json_lines_on_a_terminal_too(env, tmp_path):
    code, shown = on_terminal(env, "--new", "--log-json", *script(tmp_path, "press 1 ok\n"))
    assert code == 0, shown
    logs = [json.loads(line) for line in shown.splitlines() if line.startswith("{")]
    assert {"link_up", "game_started", "action"} <= {line["event"] for line in logs}, shown


def test_without_a_terminal_the_log_is_json_and_a_normal_end_logs_no_warning(env, tmp_path):
    done = run(env, "--new", *script(tmp_path, "press 1 ok\n"))
    assert done.returncode == 0, done.stderr
    logs = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    assert "action" in {line["event"] for line in logs}
    assert [line for line in logs if line["level"] != "INFO"] == []


def sentence(event: str, level: int = logging.INFO, **fields: object) -> str | None:
    from companion.cli.log_lines import PeopleLines

    record = logging.LogRecord("clue_companion", level, "", 0, event, None, None)
    record.fields = fields
    return PeopleLines().sentence(record)


def test_people_lines_say_what_needs_attention_and_skip_the_routine():
    assert sentence("action", game_id=1, type="roll") is None
    assert sentence("table_opened", edition="classic") is None
    assert sentence("link_down", logging.WARNING, reason="no board found") == (
        "clue-companion: warning: the board link is down: no board found")
    assert sentence("readers", logging.WARNING, working=[0, 1], failed=[2, 3]) == (
        "clue-companion: warning: board readers not answering: 2, 3")
    assert sentence("web_accept_paused: Too many open files", logging.WARNING) == (
        "clue-companion: warning: web_accept_paused: Too many open files")


# ---- the web port in use ----------------------------------------------------------------------


def test_a_web_port_in_use_says_which_and_how_to_choose_another(env, tmp_path):
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--port", str(port),
                               "--host", "127.0.0.1", *script(tmp_path)],
                              capture_output=True, text=True, timeout=WAIT, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"clue-companion: cannot serve the web page on 127.0.0.1:{port}: ")
    assert f"uses port {port}" in last and "--port N (make run PORT=N" in last and "Stop it" in last
    assert "Traceback" not in done.stderr
