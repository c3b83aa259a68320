#!/usr/bin/env python3
"""TEST ONLY (tools/test-image-qemu.sh): sends one command to the guest's clue-test-agent through
qemu's unix socket and prints its output; exits with the command's status (124: no answer in time).

  agent_client.py SOCKET TIMEOUT COMMAND"""
import json
import socket
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    path, timeout, command = argv[1], float(argv[2]), argv[3]
    deadline = time.monotonic() + timeout + 5
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(5)
            conn.connect(path)
            conn.sendall(json.dumps({"command": command, "timeout": timeout}).encode() + b"\n")
            received = b""
            while b"\n" not in received:
                conn.settimeout(max(0.1, deadline - time.monotonic()))
                chunk = conn.recv(65536)
                if not chunk:
                    return 124
                received += chunk
    except (OSError, TimeoutError):
        return 124
    reply = json.loads(received.split(b"\n", 1)[0])
    sys.stdout.write(reply["output"])
    return int(reply["rc"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
