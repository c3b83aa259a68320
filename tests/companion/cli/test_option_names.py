"""One name for one thing across the commands, and every option explained in ``--help``.

``--port`` is the web page's port wherever it exists; ``--serial`` is the board's serial device. An
old ``--port /dev/ttyACM0`` on a board command is refused with a message naming ``--serial``.
"""

from __future__ import annotations

import argparse

import pytest

from companion.cli.main import _parser, main


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every sub-command's parser, by name (aliases once)."""
    parser = _parser()
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                if all(command is not seen for seen in found.values()):
                    found[name] = command
    return found


def test_every_option_of_every_command_has_help_text() -> None:
    missing = [f"{name} {' / '.join(action.option_strings)}"
               for name, command in commands().items() for action in command._actions
               if action.option_strings and not (action.help or "").strip()]
    assert not missing, f"options without help text: {missing}"


def test_the_commands_are_all_walked() -> None:
    assert {"run", "doctor", "enroll", "board-monitor", "destinations", "replay"} <= commands().keys()


def test_port_is_the_web_port_and_serial_the_board_wherever_they_exist() -> None:
    for name, command in commands().items():
        options = {option: action for action in command._actions for option in action.option_strings}
        if "--port" in options and options["--port"].help != argparse.SUPPRESS:
            assert "web page" in (options["--port"].help or ""), f"{name} --port: {options['--port'].help}"
        if "--serial" in options:
            assert "serial device" in (options["--serial"].help or ""), name
    shown = commands()
    assert all("--serial" in {o for a in shown[name]._actions for o in a.option_strings}
               for name in ("doctor", "enroll", "board-monitor"))


@pytest.mark.parametrize("command", [["enroll", "--list"], ["board-monitor", "--duration", "0"], ["doctor"],
                                     ["run", "--mock", "--no-web"]])
def test_an_old_port_naming_a_device_is_refused_naming_serial(command: list[str], capsys, tmp_path,
                                                              monkeypatch) -> None:
    for name, folder in (("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(name, str(tmp_path / folder))
    monkeypatch.setenv("CLUE_COMPANION_DB", str(tmp_path / "games.db"))
    with pytest.raises(SystemExit) as exited:
        main([*command, "--port", "/dev/ttyACM0"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "the board's serial device is --serial /dev/ttyACM0" in err, err
    assert not (tmp_path / "games.db").exists()  # refused before anything was opened


def test_a_number_for_port_on_a_command_without_a_web_page_says_where_it_belongs(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["enroll", "--port", "8000"])
    assert "this command serves no web page: --port is for run and doctor" in capsys.readouterr().err
