#!/usr/bin/env python3
"""TEST ONLY (tools/test-image-qemu.sh): after a power cut, the store's record against the actions
the phones had acknowledged (HTTP 200).

  compare_record.py STORE.json ACKS INFLIGHT N    one summary line; exit 1 unless the store passes
                                                  integrity_check and holds every acknowledged action
                                                  in order, none twice (plus at most the one in flight)
  compare_record.py --adopt STORE.json ACKS INFLIGHT
                                                  the action in flight joins ACKS if the store kept it

STORE.json: {"integrity": [...], "game": id, "lines": [action JSON lines]}; ACKS: one acknowledged
action a line, {"seat", "type", ...} as phones.py sent it."""
import json
import os
import sys


def key(action: dict) -> str:
    return json.dumps({k: v for k, v in action.items() if v is not None}, sort_keys=True)


def load(store_path: str, acks_path: str, inflight_path: str) -> tuple[dict, list[str], list[str], str | None]:
    text = open(store_path, encoding="utf-8").read()
    store = json.loads(text[text.index("{"):])
    stored = [key(json.loads(line)) for line in store["lines"]]
    with open(acks_path, encoding="utf-8") as acks:
        acked = [key(json.loads(line)) for line in acks if line.strip()]
    inflight = None
    if os.path.exists(inflight_path) and os.path.getsize(inflight_path):
        inflight = key(json.loads(open(inflight_path, encoding="utf-8").read()))
    return store, stored, acked, inflight


def main(argv: list[str]) -> int:
    if argv[1:2] == ["--adopt"]:
        store, stored, acked, inflight = load(*argv[2:5])
        if inflight is not None and len(stored) == len(acked) + 1 and stored[-1] == inflight:
            with open(argv[3], "a", encoding="utf-8") as acks:
                acks.write(open(argv[4], encoding="utf-8").read())
        if os.path.exists(argv[4]):
            os.unlink(argv[4])
        return 0
    store, stored, acked, inflight = load(*argv[1:4])
    n = argv[4]
    problems = []
    if store["integrity"] != ["ok"]:
        problems.append(f"integrity_check: {store['integrity'][:3]}")
    if stored[:len(acked)] != acked:
        first = next((i for i, (a, b) in enumerate(zip(stored, acked)) if a != b), min(len(stored), len(acked)))
        problems.append(f"acknowledged action {first + 1} missing or changed")
    extra = stored[len(acked):]
    if len(extra) > 1 or (extra and extra[0] != inflight):
        problems.append(f"{len(extra)} action(s) stored beyond the acknowledged ones: {extra[:2]}")
    kept = "the one in flight kept" if extra else ("the one in flight lost" if inflight else "none in flight")
    verdict = "ok" if not problems else "FAILED: " + "; ".join(problems)
    print(f"cut {n}: integrity_check {','.join(store['integrity'][:1])}; {len(acked)} acknowledged, "
          f"{len(stored)} stored in game {store['game']}; {kept}: {verdict}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
