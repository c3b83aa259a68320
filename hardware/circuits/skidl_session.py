"""SKiDL without its side effects: a fresh circuit per build, messages captured.

Importing SKiDL writes ``<script>.log`` and ``<script>.erc`` into the working
directory and prints warnings about missing KiCad libraries to stderr (its
``logger.py`` and ``tools/kicad*``). The circuits here define every part in
Python (``tool=SKIDL``), so they need neither KiCad nor its libraries: the
import runs once in a throwaway directory with stderr captured, and SKiDL's
log files are removed there. SKiDL has no type hints, so its objects are
``Any`` behind the small typed surface of this module.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import logging
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

# SKiDL's Circuit, Part, Net and Pin objects (the library is untyped).
SkidlObject = Any

_LOGGERS = ("skidl", "ERC_Logger")


@functools.cache
def skidl() -> ModuleType:
    """The skidl module, imported once without writing files or printing.

    >>> skidl().__name__
    'skidl'
    """
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        with contextlib.redirect_stderr(io.StringIO()):
            module = importlib.import_module("skidl")
        # Still inside tmp: SKiDL removes its log files by relative name.
        module.logger.stop_log_file_output()
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        # Without any handler, logging's last resort would print to stderr.
        logger.addHandler(logging.NullHandler())
    return module


@dataclass
class Messages:
    """SKiDL's warnings and errors from one step (ERC, netlist)."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _Collector(logging.Handler):
    def __init__(self, messages: Messages) -> None:
        super().__init__(logging.WARNING)
        self.messages = messages

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage().strip()
        if record.levelno >= logging.ERROR:
            self.messages.errors.append(text)
        else:
            self.messages.warnings.append(text)


@contextlib.contextmanager
def capture() -> Iterator[Messages]:
    """Collect what SKiDL logs inside the block."""
    messages = Messages()
    collector = _Collector(messages)
    loggers = [logging.getLogger(name) for name in _LOGGERS]
    for logger in loggers:
        logger.addHandler(collector)
    try:
        yield messages
    finally:
        for logger in loggers:
            logger.removeHandler(collector)


def new_circuit() -> SkidlObject:
    """An empty SKiDL circuit that never writes files of its own."""
    module = skidl()
    circuit = module.Circuit()
    circuit.no_files = True
    circuit.track_src = False  # no source paths and line numbers in the netlist
    return circuit


def run_erc(circuit: SkidlObject) -> Messages:
    """SKiDL's electrical rules check on ``circuit``, stricter on inputs.

    SKiDL only warns about an unconnected pin; a floating CMOS input or an
    unpowered supply pin is a fault on these boards, so those are errors here
    (pins meant to stay free are wired to the no-connect net, ``circuit.NC``).
    """
    with capture() as messages:
        circuit.ERC()
    types = skidl().pin.pin_types
    for part in circuit.parts:
        for pin in part.pins:
            if pin.net is None and pin.func in (types.INPUT, types.PWRIN):
                messages.errors.append(f"Unconnected input: {pin.erc_desc()}.")
    return messages


def netlist(circuit: SkidlObject) -> tuple[str, Messages]:
    """The KiCad netlist of ``circuit`` as text (SKiDL's default KiCad format)."""
    with capture() as messages:
        text = str(circuit.generate_netlist(do_backup=False))
    # The top node has no name and no tag by SKiDL's design (a tag breaks its
    # KiCad netlist writer); parts carry the tags that matter.
    messages.warnings = [w for w in messages.warnings if not w.startswith(_ROOT_TAG_WARNING)]
    return text, messages


_ROOT_TAG_WARNING = "Missing tag on  instantiated"
