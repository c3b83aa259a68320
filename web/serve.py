"""Serving the app with waitress on its own thread, and saying where it is.

>>> server = WebServer(lambda environ, start: [], "127.0.0.1", 0).start()
>>> server.port > 0
True
>>> server.close()
"""

from __future__ import annotations

import socket
import threading
from typing import Any, TextIO

import segno
from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.server import create_server  # type: ignore[import-untyped]

# One waitress thread per open stream (the table, the host page, up to ten phones, the
# simulator) plus room for requests: a stream holds its thread while it is open.
THREADS = 32
# waitress keeps everything a response wrote in one in-memory buffer until it reaches this
# size (16 MiB by default), even once sent: an SSE stream lives for hours, so seven of them
# grew the process by 100 MiB in a soak. Past it, the buffer is replaced, and a client that
# has not read that much yet holds its stream's thread (its newest-wins mailbox skips views).
OUTBUF_BYTES = 512 * 1024


class WebServer:
    """waitress on ``host:port`` (port 0: any free port). ``start()``, then ``close()``."""

    def __init__(self, app: Any, host: str = "0.0.0.0", port: int = 8000, threads: int = THREADS) -> None:
        self.app = app
        self.host = host
        self.requested_port = port
        self.threads = threads
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._sockets: dict[int, Any] = {}  # waitress's socket map: ours, so close() can close every channel

    def start(self) -> WebServer:
        # clear_untrusted_proxy_headers: no proxy sits in front; ident: no version banner.
        self._server = create_server(self.app, map=self._sockets, host=self.host, port=self.requested_port, threads=self.threads,
                                     channel_timeout=60, ident="clue-companion",
                                     clear_untrusted_proxy_headers=True, outbuf_high_watermark=OUTBUF_BYTES)
        self._thread = threading.Thread(target=self._serve, name="web-server", daemon=True)
        self._thread.start()
        return self

    def _serve(self) -> None:
        try:
            self._server.run()
        except OSError:  # closed under it while stopping
            pass

    @property
    def port(self) -> int:
        return int(self._server.effective_port) if self._server is not None else self.requested_port

    def close(self) -> None:
        streams = getattr(self.app, "extensions", {}).get("clue")
        if streams is not None:  # our app: end its SSE streams first, so no thread is left holding one
            streams.close_streams()
        if self._server is not None:
            # Let the worker threads finish first: closing the sockets under a running task
            # makes waitress log "Bad file descriptor" tracebacks.
            self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
            wasyncore.close_all(self._sockets)  # the listening socket, the trigger, every open channel
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def lan_address() -> str:
    """This machine's address on its network (what a phone at the table can reach), else 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))  # UDP connect sends nothing; it only picks the route
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def page_url(host: str, port: int) -> str:
    """The URL to print: the LAN address when serving on every interface."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}"


def print_qr(url: str, out: TextIO) -> None:
    """The URL as a QR code in the terminal, for a phone's camera."""
    segno.make(url, error="l").terminal(out=out, compact=True)
