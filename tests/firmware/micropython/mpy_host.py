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


def run_firmware():
    """``mpy_runner.mjs --serial``: main.main() on the pty, until it stops for the REPL.

    The port's bytes come and go through the JavaScript functions the runner
    defines; what the firmware writes is also kept in ``firmware_out`` (a
    name in the session namespace) for the tests to decode.
    """
    import binascii
    import js
    import machine
    import main

    written = bytearray()
    _namespace["firmware_out"] = written

    class Port:
        def read(self, _count):
            return bytes((js.serialRead(),))

        def write(self, data):
            written.extend(data)
            js.serialWrite(binascii.hexlify(data).decode())

    class Poller:
        def register(self, _stream, _events):
            pass

        def poll(self, _timeout):
            return [1] if js.serialAvailable() else []

    machine.reset_world()
    usb_serial = main.UsbSerial
    main.UsbSerial = lambda: usb_serial(Port(), Port(), Poller())
    try:
        main.main()
    finally:
        main.UsbSerial = usb_serial
    sys.modules["os"] = _PortableOs(sys.modules.get("os") or __import__("os"))
    import builtins

    builtins.open = _portable(open)


# The WebAssembly port's file system raises Emscripten's errno values (ENOENT is 44), which
# mpremote cannot read (it expects MicroPython's: "[Errno 2] ENOENT"); a Pico raises the latter.
_EMSCRIPTEN_ERRNO = {44: 2, 20: 17, 54: 20, 31: 21, 55: 39}  # ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY


def _portable(function, name=""):
    """``function`` raising OSError numbers as on a Pico."""

    def call(*args):
        try:
            result = function(*args)
            return iter(list(result)) if name == "ilistdir" else result  # it fails while iterating
        except OSError as exc:
            raise OSError(_EMSCRIPTEN_ERRNO.get(exc.errno, exc.errno))

    return call


class _PortableOs:
    """``os`` for the REPL after the stop, with OSError numbers as on a Pico."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        value = getattr(self._real, name)
        return _portable(value, name) if callable(value) else value
