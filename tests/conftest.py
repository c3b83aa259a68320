"""Shared fixtures: the Classic edition and small helpers for writing games."""

from __future__ import annotations

import pytest

from companion import load_edition
from companion.edition import Edition


@pytest.fixture(scope="session")
def classic() -> Edition:
    return load_edition("classic")
