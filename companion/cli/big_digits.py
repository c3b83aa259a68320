"""An address in large digits for a TV across the table: a 3x5 pixel font drawn with half blocks.

Only what an IPv4 address and port are made of (digits, "." and ":"): anything else is
not drawn large (None), and the plain line below it is read instead.

>>> print("\\n".join(big_text("10.4:8", scale=1)))
▄█  █▀█   █ █ ▄ █▀█
 █  █ █   ▀▀█ ▄ █▀█
▀▀▀ ▀▀▀ ▀   ▀   ▀▀▀
"""

from __future__ import annotations

GLYPHS = {
    "0": ("###", "#.#", "#.#", "#.#", "###"), "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"), "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"), "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"), "7": ("###", "..#", "..#", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"), "9": ("###", "#.#", "###", "..#", "###"),
    ".": (".", ".", ".", ".", "#"), ":": (".", "#", ".", "#", "."),
}
HALVES = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584", (False, False): " "}


def big_text(text: str, scale: int = 1) -> list[str] | None:
    """``text`` in large digits, ``scale`` blocks a pixel; None if it has a character the font lacks."""
    if not text or any(char not in GLYPHS for char in text):
        return None
    rows = ["" for _ in range(5)]
    for number, char in enumerate(text):
        for row, pixels in enumerate(GLYPHS[char]):
            rows[row] += ("." if number else "") + pixels  # a pixel's gap between characters
    bitmap = [[pixel == "#" for pixel in row for _ in range(scale)] for row in rows for _ in range(scale)]
    if len(bitmap) % 2:
        bitmap.append([False] * len(bitmap[0]))
    return [("".join(HALVES[pair] for pair in zip(top, bottom))).rstrip()
            for top, bottom in zip(bitmap[::2], bitmap[1::2])]


def largest(text: str, width: int, most: int = 3) -> list[str] | None:
    """``text`` as large as fits in ``width`` columns (up to ``most`` blocks a pixel), or None."""
    for scale in range(most, 0, -1):
        drawn = big_text(text, scale)
        if drawn is not None and max(map(len, drawn)) <= width:
            return drawn
    return None
