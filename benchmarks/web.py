"""The web page under load: SSE push latency to 7 clients, seat-view requests per second, memory over a soak.

Run with ``make bench`` (``--quick``: a 20 s soak) or ``python benchmarks/web.py``.
By default it starts its own companion, exactly as a user would:
``clue-companion run --mock --no-console --port 0 --db TMP --pin PIN`` (virtual
board, emulated handhelds, waitress), and reads the printed join URLs. With
``--url URL --pin PIN`` it uses a companion already running (mock or real).

- **Push latency.** Seven streams stay open: each seat's ``/events/seat``
  and the table's ``/events/table`` (three of them, as a TV, a tablet and the
  host's laptop would). The seat on turn plays roll, move, end turn through
  ``POST /api/seat/action``; each action's latency, per client, runs from just
  before the POST is sent to the arrival of the first view whose record has
  grown. The commit happens inside the POST, so this is an upper bound on
  commit-to-receipt: it includes the request itself.
- **Seat view.** ``GET /api/seat`` with keep-alive connections, 1 and 8 client
  threads.
- **Memory.** The companion's RSS (with its children) at the start, after the
  latency runs, and after a soak (600 s; ``--soak S``) with the 7 streams open
  and one action a second.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from web.deltas import apply  # noqa: E402

PIN = "24682468"
TABLE_STREAMS = 3
P99_TARGET_MS, MEDIAN_TARGET_MS = 100.0, 50.0
RPS_TARGET = 200.0
RSS_TARGET_MB, GROWTH_TARGET_MB = 150.0, 10.0


@dataclass
class Seat:
    name: str
    cookie: str
    csrf: str


@dataclass
class Stream:
    """One SSE client: the arrival time and record length of every view it receives."""

    label: str
    path: str
    cookie: str | None
    views: list[tuple[float, int]] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def records_now(self) -> int:
        with self.lock:
            return self.views[-1][1] if self.views else -1

    def first_after(self, start: float, records: int) -> float | None:
        with self.lock:
            return next((at for at, length in self.views if at >= start and length > records), None)


class Companion:
    """The companion under test: a subprocess this script started, or one already running."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.folder = tempfile.TemporaryDirectory()
        if args.url:
            self.url, self.pin, self.joins = args.url.rstrip("/"), args.pin, {}
        else:
            self.url, self.pin, self.joins = self._start()
        address = urlsplit(self.url)
        self.host, self.port = address.hostname or "127.0.0.1", address.port or 80

    def _start(self) -> tuple[str, str, dict[str, str]]:
        command = [str(Path(sys.executable).parent / "clue-companion"), "run", "--mock", "--no-console",
                   "--host", "127.0.0.1", "--port", "0", "--db", f"{self.folder.name}/bench.db", "--pin", PIN]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.process.stdout is not None
        url, joins = None, {}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (url is None or len(joins) < 4):
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the companion stopped before it printed its join URLs")
            if found := re.search(r"web page on (\S+)", line):
                url = found.group(1)
            if found := re.search(r"join (.+?): (\S+)", line):
                joins[found.group(1)] = found.group(2)
        if url is None:
            raise SystemExit("the companion printed no web address")
        return url, PIN, joins

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=30)

    def rss_mb(self) -> float:
        if self.process is None:
            return float("nan")
        parent = psutil.Process(self.process.pid)
        return sum(p.memory_info().rss for p in [parent, *parent.children(recursive=True)]) / 2**20

    def close(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.folder.cleanup()


def request(companion: Companion, method: str, path: str, cookie: str | None = None,
            body: Any = None, csrf: str | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = companion.connection()
    headers = {"Cookie": cookie} if cookie else {}
    data = None
    if body is not None:
        data = json.dumps(body)
        headers.update({"Content-Type": "application/json", "X-CSRF-Token": csrf or ""})
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    answer = response.status, dict(response.getheaders()), response.read()
    connection.close()
    return answer


def cookie_of(headers: dict[str, str]) -> str:
    found = re.search(r"clue_session=[^;]+", headers.get("Set-Cookie", ""))
    if not found:
        raise SystemExit("joining set no session cookie")
    return found.group(0)


def csrf_of(page: bytes) -> str:
    found = re.search(rb'name="csrf-token" content="([^"]+)"', page)
    if not found:
        raise SystemExit("the page carries no CSRF token")
    return found.group(1).decode()


def join_urls(companion: Companion) -> dict[str, str]:
    """The seats' join URLs: as printed, or from the host page's API after logging in."""
    if companion.joins:
        return companion.joins
    _, headers, page = request(companion, "GET", "/host")
    cookie = cookie_of(headers)
    status, headers, _ = request(companion, "POST", "/host/login", cookie, {"pin": companion.pin}, csrf_of(page))
    if status != 200:
        raise SystemExit(f"host login refused ({status}): check --pin")
    cookie = cookie_of(headers) if "Set-Cookie" in headers else cookie
    _, _, body = request(companion, "GET", "/api/host", cookie)
    return {seat["seat"]: seat["join_url"] for seat in json.loads(body)["seats"]}


def join(companion: Companion, seat: str, url: str) -> Seat:
    _, headers, _ = request(companion, "GET", urlsplit(url).path)
    cookie = cookie_of(headers)
    _, _, page = request(companion, "GET", "/seat", cookie)
    return Seat(seat, cookie, csrf_of(page))


def read_stream(companion: Companion, stream: Stream, stop: threading.Event) -> None:
    connection = companion.connection()
    connection.request("GET", stream.path, headers={"Cookie": stream.cookie} if stream.cookie else {})
    response = connection.getresponse()
    event, view = None, None
    while not stop.is_set():
        line = response.fp.readline()
        if not line:
            return
        text = line.decode().rstrip("\n")
        if text.startswith("event: "):
            event = text[7:]
        elif text.startswith("data: ") and event in ("view", "delta"):
            arrived = time.monotonic()
            data = json.loads(text[6:])
            view = data if event == "view" or view is None else apply(view, data)  # a delta: what changed
            records = len(view.get("record") or [])
            with stream.lock:
                stream.views.append((arrived, records))
            stream.ready.set()


def open_streams(companion: Companion, seats: list[Seat], stop: threading.Event) -> list[Stream]:
    streams = [Stream(seat.name, "/events/seat", seat.cookie) for seat in seats]
    streams += [Stream(f"table {n + 1}", "/events/table", None) for n in range(TABLE_STREAMS)]
    for stream in streams:
        threading.Thread(target=read_stream, args=(companion, stream, stop), daemon=True).start()
    for stream in streams:
        if not stream.ready.wait(10):
            raise SystemExit(f"no first view on {stream.label}'s stream")
    return streams


class Player:
    """Plays the seat on turn: roll, move to a legal destination, end the turn."""

    def __init__(self, companion: Companion, seats: list[Seat]) -> None:
        self.companion, self.seats = companion, {seat.name: seat for seat in seats}

    def next_action(self) -> tuple[Seat, dict[str, Any]]:
        _, _, body = request(self.companion, "GET", "/api/table")
        table = json.loads(body)
        seat = self.seats[table["turn"]]
        _, _, body = request(self.companion, "GET", "/api/seat", seat.cookie)
        view = json.loads(body)
        if view["phase"] == "start":
            return seat, {"type": "roll"}
        if view["phase"] == "moving" and view.get("legal_destinations"):
            return seat, {"type": "move", "to": view["legal_destinations"][0]}
        return seat, {"type": "end_turn"}

    def play(self, seat: Seat, action: dict[str, Any]) -> None:
        status, _, body = request(self.companion, "POST", "/api/seat/action", seat.cookie, action, seat.csrf)
        if status != 200:
            raise SystemExit(f"{seat.name} {action} was refused ({status}): {body[:200]!r}")


def push_latencies(player: Player, streams: list[Stream], actions: int) -> list[float]:
    latencies: list[float] = []
    for _ in range(actions):
        seat, action = player.next_action()
        before = {stream.label: stream.records_now() for stream in streams}
        start = time.monotonic()
        player.play(seat, action)
        deadline = start + 5
        for stream in streams:
            while (arrived := stream.first_after(start, before[stream.label])) is None:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{stream.label} got no view after {action}")
                time.sleep(0.0005)
            latencies.append((arrived - start) * 1000)
    return latencies


def requests_per_second(companion: Companion, seat: Seat, threads: int, seconds: float) -> float:
    counts = [0] * threads
    stop_at = time.monotonic() + seconds

    def client(number: int) -> None:
        connection = companion.connection()
        while time.monotonic() < stop_at:
            connection.request("GET", "/api/seat", headers={"Cookie": seat.cookie})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"GET /api/seat answered {response.status}")
            counts[number] += 1
        connection.close()

    workers = [threading.Thread(target=client, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(counts) / seconds


def soak(companion: Companion, player: Player, seconds: float) -> tuple[float, float]:
    """One action a second for ``seconds``; the RSS at the end and its peak."""
    peak, stop_at = companion.rss_mb(), time.monotonic() + seconds
    while time.monotonic() < stop_at:
        player.play(*player.next_action())
        peak = max(peak, companion.rss_mb())
        time.sleep(1.0)
    return companion.rss_mb(), peak


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running companion's web address (default: start one on mock hardware)")
    parser.add_argument("--pin", default=PIN, help="its host PIN (with --url)")
    parser.add_argument("--quick", action="store_true", help="fewer actions and a 20 s soak")
    parser.add_argument("--soak", type=float, help="soak seconds (default 600, or 20 with --quick)")
    args = parser.parse_args()
    actions, rps_seconds = (60, 2.0) if args.quick else (300, 5.0)
    soak_seconds = args.soak if args.soak is not None else 20.0 if args.quick else 600.0

    companion = Companion(args)
    stop = threading.Event()
    try:
        seats = [join(companion, seat, url) for seat, url in join_urls(companion).items()]
        rss_start = companion.rss_mb()
        streams = open_streams(companion, seats, stop)
        player = Player(companion, seats)
        latencies = push_latencies(player, streams, actions)
        rps = {threads: requests_per_second(companion, seats[0], threads, rps_seconds) for threads in (1, 8)}
        rss_after = companion.rss_mb()
        rss_end, rss_peak = soak(companion, player, soak_seconds)
        report(len(streams), actions, latencies, rps, (rss_start, rss_after, rss_end, rss_peak), soak_seconds)
    finally:
        stop.set()
        companion.close()


def report(clients: int, actions: int, latencies: list[float], rps: dict[int, float],
           rss: tuple[float, float, float, float], soak_seconds: float) -> None:
    median, p99 = statistics.median(latencies), percentile(latencies, 0.99)
    start, after, end, peak = rss
    print(f"web: {clients} SSE clients, {actions} actions ({len(latencies)} deliveries), soak {soak_seconds:.0f} s")
    print(f"{'measure':<36}{'value':>12}{'target':>12}{'ratio':>8}")
    rows = [("push latency median (ms)", median, MEDIAN_TARGET_MS), ("push latency p99 (ms)", p99, P99_TARGET_MS),
            ("push latency max (ms)", max(latencies), None),
            ("GET /api/seat, 1 thread (req/s)", rps[1], RPS_TARGET), ("GET /api/seat, 8 threads (req/s)", rps[8], None),
            ("RSS at start (MB)", start, None), ("RSS after latency runs (MB)", after, None),
            ("RSS after soak (MB)", end, RSS_TARGET_MB), ("RSS peak (MB)", peak, None),
            ("RSS growth over soak (MB)", end - after, GROWTH_TARGET_MB)]
    for name, value, target in rows:
        if value != value:  # NaN: a companion this script did not start, whose memory it cannot see
            print(f"{name:<36}{'n/a':>12}")
            continue
        ratio = f"{value / target:>7.2f}x" if target else ""
        print(f"{name:<36}{value:>12.1f}{target if target is not None else '':>12}{ratio}")
    print(f"ratios: p99/target {p99 / P99_TARGET_MS:.2f} (under 1 is good); "
          f"8 threads / 1 thread {rps[8] / rps[1]:.2f}; seat view req/s / target {rps[1] / RPS_TARGET:.2f} "
          f"(over 1 is good); RSS after soak / target {end / RSS_TARGET_MB:.2f}")


if __name__ == "__main__":
    main()
