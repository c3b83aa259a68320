"""``run`` takes the table's language and edition from the config's ``[table]``, which first-boot writes."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion.cli import run
from companion.cli.first_boot import Paths, first_boot
from companion.cli.main import _parser
from companion.cli.table_settings import TableSettings
from companion.rules.errors import ClueError

REPO = Path(__file__).resolve().parents[3]


def run_args(*typed: str) -> argparse.Namespace:
    return _parser().parse_args(["run", *typed])


def test_the_language_and_edition_chosen_on_the_card_are_the_tables(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUE_COMPANION_EDITIONS", str(tmp_path / "editions"))
    boot = tmp_path / "clue-companion.toml"
    boot.write_text('[companion]\nlanguage = "fr"\nedition = "classic"\n')
    config = tmp_path / "etc.toml"
    first_boot(Paths(boot, config, tmp_path / "network.json", tmp_path / "problems.json",
                     (REPO / "tools/pi/clue-companion.toml",), (tmp_path / "no-id",)))
    args = run_args()
    run._checked(args, TableSettings.load(config))
    assert (args.locale, args.edition) == ("fr-FR", "classic")


def test_options_typed_win_over_the_config() -> None:
    args = run_args("--locale", "de-DE", "--edition", "classic")
    run._checked(args, TableSettings(locale="fr-FR", edition="other"))
    assert (args.locale, args.edition) == ("de-DE", "classic")


def test_the_configs_edition_is_not_an_option_that_stops_a_resume() -> None:
    args = run_args()
    run._checked(args, TableSettings(edition="classic"))
    assert args.new_game_options == []  # a power cut mid-game resumes it, whatever the config says


def test_without_table_settings_run_keeps_its_defaults() -> None:
    args = run_args()
    run._checked(args, TableSettings.load(None))
    assert (args.locale, args.edition) == (None, run.DEFAULT_EDITION)


@pytest.mark.parametrize(("text", "said"), [
    ('[table]\nlocale = "Klingon"\n', "c.toml: table.locale: unknown locale 'Klingon'"),
    ('[table]\nedition = "monopoly"\n', "c.toml: table.edition: "),
    ('[table]\nlocale = 5\n', "c.toml: table.locale must be text in quotes, not 5"),
    ('[table]\nlanguage = "de"\n', "c.toml: unknown key table.language; expected one of locale, edition"),
])
def test_a_bad_table_setting_names_the_file_and_key(text: str, said: str) -> None:
    with pytest.raises(ClueError, match="^" + said.replace(".", r"\.")):
        TableSettings.read(text, "c.toml")
