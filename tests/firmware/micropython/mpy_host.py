"""The MicroPython end of tests/firmware/mpy_runner.mjs: one JSON command in, one JSON reply out.

A command is ``{"exec": source, "eval": expression}`` (either may be left
out); both run in one namespace kept for the whole session. The reply is
``{"ok": value}`` with the expression's value (JSON-able), or
``{"error": traceback}``.
"""

import io
import json
import sys

_namespace = {"__name__": "session"}


def handle(line):
    try:
        command = json.loads(line)
        source = command.get("exec")
        if source:
            exec(source, _namespace)
        expression = command.get("eval")
        value = eval(expression, _namespace) if expression else None
        return json.dumps({"ok": value})
    except BaseException as exc:  # SystemExit and KeyboardInterrupt included: report, do not die
        text = io.StringIO()
        sys.print_exception(exc, text)
        return json.dumps({"error": text.getvalue()})
