"""The board twin (docs/board-twin.md): a package only so its conftest.py is not a second top-level ``conftest``."""
