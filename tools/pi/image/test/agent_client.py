#!/usr/bin/env python3
"""TEST ONLY (tools/test-image-qemu.sh): sends one command to the guest's clue-test-agent through
qemu's unix socket and prints its output; exits with the command's status (124: no answer in time).

  agent_client.py SOCKET TIMEOUT COMMAND"""
import json
import os
import socket
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    path, timeout, command = argv[1], float(argv[2]), argv[3]
    deadline = time.monotonic() + timeout + 5
    # An id per request: a reply to an earlier request that timed out (the guest still
    # answers it once its agent starts) waits in the socket and must be skipped.
    ident = os.urandom(8).hex()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(5)
            conn.connect(path)
            conn.sendall(json.dumps({"id": ident, "command": command, "timeout": timeout}).encode() + b"\n")
            received = b""
            while True:
                while b"\n" not in received:
                    conn.settimeout(max(0.1, deadline - time.monotonic()))
                    chunk = conn.recv(65536)
                    if not chunk:
                        return 124
                    received += chunk
                line, received = received.split(b"\n", 1)
                try:
                    reply = json.loads(line)
                except ValueError:
                    continue
                if isinstance(reply, dict) and reply.get("id") == ident:
                    break
    except (OSError, TimeoutError):
        return 124
    sys.stdout.write(reply["output"])
    return int(reply["rc"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
