"""``python -m companion.language update|check [AREA ...]``: keep the catalogues in step with the code.

``update`` adds new messages (untranslated) to every language's ``.po`` and
drops the ones the code no longer has; ``check`` lists what is untranslated,
fuzzy or has different ``{placeholders}`` from its English, and exits 1 if anything is.
"""

from __future__ import annotations

import argparse
import sys

from .areas import AREAS, area, problems, update
from .catalogues import LANGUAGES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.language", description=__doc__)
    parser.add_argument("command", choices=("update", "check"))
    parser.add_argument("areas", nargs="*", help=f"areas (default: all): {', '.join(a.name for a in AREAS)}")
    args = parser.parse_args(argv)
    chosen = [area(name) for name in args.areas] if args.areas else list(AREAS)
    if args.command == "update":
        for which in chosen:
            counts = update(which)
            print(f"{which.name}: " + ", ".join(f"{lang} {n} untranslated" for lang, n in counts.items()))
        return 0
    found = [line for which in chosen for lang in LANGUAGES if lang != "en" for line in problems(which, lang)]
    for line in found:
        print(line)
    print(f"{len(found)} problems" if found else "every catalogue is complete")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
