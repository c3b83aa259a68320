"""A small user board for the user-edition tests of several folders (rules, cli, web)."""

from __future__ import annotations

from typing import Any


def small_document() -> dict[str, Any]:
    """A 10 x 8 board on the Classic rules: three rooms, three suspects, a passage."""
    return {
        "id": "our_board", "name": "Our Board", "base": "classic", "players": {"min": 3, "max": 3},
        "cards": {"suspects": ["Ada", "Bo", "Cy"], "weapons": ["Rope", "Pan"], "rooms": ["Attic", "Barn", "Cellar"]},
        "colours": {"Ada": "#aa3300"}, "labels": {"Ada": "ADA"},
        "map": {"rows": ["AAAA##BBBB", "AAAa..bBBB", "..........", "1...##...2",
                         "..........", "CCc....3..", "CCC.......", "CCC#######"],
                "hallway": ".", "void": "#", "rooms": {"A": "Attic", "B": "Barn", "C": "Cellar"},
                "starts": {"1": "Ada", "2": "Bo", "3": "Cy"}, "passages": [["Attic", "Cellar"]], "joins": []},
    }
