#!/usr/bin/env python3
"""TEST ONLY (tools/test-image-qemu.sh): the host laptop and the players' phones, over the companion's
real HTTP API through qemu's forwarded port. Python's standard library only, so it runs on the test
machine without the project's venv.

  CLUE_PIN=PIN phones.py URL setup   log in as host, open a classic game (physical dice), start it
  phones.py URL play COUNT LOG       phones play COUNT actions (roll, move, end_turn, turn after turn);
                                     every acknowledged action (HTTP 200) is appended to LOG as its
                                     JSON line, flushed and fsynced before the next is sent; the one in
                                     flight goes to LOG.inflight
  phones.py URL turn LOG             one phone joins and plays a whole turn (roll, move, end turn)

Exit 0 on success; a refusal or an unexpected answer prints why and exits 1. A connection that breaks
(the power cut) ends `play` with exit 3, after the log is written."""
from __future__ import annotations

import http.client
import json
import os
import re
import sys
from typing import Any
from urllib.parse import urlsplit

SEATS = ["Miss Scarlet", "Colonel Mustard", "Mrs. White"]
CSRF = re.compile(rb'<meta name="csrf-token" content="([^"]+)"')
TIMEOUT = 60.0  # one answer under emulation, at most


class Refused(Exception):
    pass


class Browser:
    """One browser: its cookies and its page's CSRF token."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers.update({"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            payload = answer.read()
        finally:
            connection.close()
        for line in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = line.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return answer.status, payload

    def load(self, path: str) -> bytes:
        status, page = self.request("GET", path)
        if status != 200:
            raise Refused(f"GET {path}: {status} {page[:200]!r}")
        found = CSRF.search(page)
        if found:
            self.csrf = found.group(1).decode()
        return page

    def json(self, path: str) -> Any:
        status, data = self.request("GET", path)
        if status != 200:
            raise Refused(f"GET {path}: {status} {data[:300]!r}")
        return json.loads(data)

    def post(self, path: str, body: Any) -> Any:
        status, data = self.request("POST", path, body)
        if status != 200:
            raise Refused(f"POST {path} {json.dumps(body)}: {status} {data[:300]!r}")
        return json.loads(data)


def host(url: str, pin: str) -> Browser:
    browser = Browser(url)
    browser.load("/host")
    browser.post("/host/login", {"pin": pin})
    return browser


def phones(url: str, pin: str) -> dict[str, Browser]:
    """Each seat's phone, joined through the join URL the host page shows."""
    overview = host(url, pin).json("/api/host")
    joined = {}
    for seat in overview["seats"]:
        phone = Browser(url)
        phone.load(urlsplit(seat["join_url"]).path)
        phone.load("/seat")
        joined[seat["seat"]] = phone
    return joined


def setup(url: str, pin: str) -> None:
    browser = host(url, pin)
    if browser.json("/api/host")["stage"] in ("playing", "over"):  # the game the service opened at start
        browser.post("/api/host/end", {})
    browser.post("/api/host/new", {"edition": "classic", "seats": SEATS, "dice": "physical"})
    browser.post("/api/host/start", {})
    overview = browser.json("/api/host")
    print(json.dumps({"game_id": overview["game_id"], "stage": overview["stage"], "turn": overview["turn"]}))


def next_action(phone: Browser) -> dict[str, Any]:
    """The next action of the seat whose turn it is: roll a 3, move to the first square it allows, end."""
    view = phone.json("/api/seat")
    if view["phase"] == "start":
        return {"type": "roll", "dice": [3]} if view["settings"]["dice"] == "physical" else {"type": "roll"}
    if view["legal_destinations"] and view["dice"] is not None and view["phase"] in ("moving", "rolled"):
        return {"type": "move", "to": view["legal_destinations"][0]}
    return {"type": "end_turn"}


def play(url: str, pin: str, count: int, log_path: str) -> int:
    joined = phones(url, pin)
    any_phone = next(iter(joined.values()))
    with open(log_path, "a", encoding="utf-8") as log:
        for _ in range(count):
            try:
                seat = any_phone.json("/api/seat")["turn"]
                phone = joined[seat]
                action = next_action(phone)
                line = json.dumps({"seat": seat, **action})
                with open(log_path + ".inflight", "w", encoding="utf-8") as inflight:
                    inflight.write(line + "\n")
                    inflight.flush()
                    os.fsync(inflight.fileno())
                phone.post("/api/seat/action", action)
            except (OSError, http.client.HTTPException) as err:
                print(f"connection lost: {err}", file=sys.stderr)
                return 3
            log.write(line + "\n")
            log.flush()
            os.fsync(log.fileno())
            os.unlink(log_path + ".inflight")
    return 0


def turn(url: str, pin: str, log_path: str) -> None:
    """A phone joins and plays its seat's whole turn; each acknowledged action goes to LOG too."""
    joined = phones(url, pin)
    seat = next(iter(joined.values())).json("/api/seat")["turn"]
    with open(log_path, "a", encoding="utf-8") as log:
        for _ in range(3):
            action = next_action(joined[seat])
            answer = joined[seat].post("/api/seat/action", action)
            log.write(json.dumps({"seat": seat, **action}) + "\n")
            print(f"{seat}: {json.dumps(action)} -> {json.dumps(answer['events'])}")
    view = joined[seat].json("/api/seat")
    if view["turn"] == seat:
        raise Refused(f"the turn did not pass on from {seat}")
    print(f"the turn passed to {view['turn']}; {view['actions']} actions in the game")


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    url, command, *rest = argv[1:]
    pin = os.environ.get("CLUE_PIN", "")
    try:
        if command == "setup":
            setup(url, pin)
        elif command == "play":
            return play(url, pin, int(rest[0]), rest[1])
        elif command == "turn":
            turn(url, pin, rest[0])
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (Refused, OSError, http.client.HTTPException, KeyError, ValueError) as err:
        print(f"phones.py {command}: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
