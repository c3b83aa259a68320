"""Issue 28's twin test g, second half: a board wired from a netlist with two wires crossed fails the twin.

test_twin_readers.py runs the same check (a tag on each probed reader, reported there and only
there; every reader answering) on the 29-reader board wired as the netlist is drawn, and it
passes. Here the circuit's Pico pins are swapped before wiring.py traces it, so the twin's
reader models are wired as a board built from the wrong netlist would be. A file of its own: the
crowded twin is not left running beside this one, and a second pytest process can take it.
"""

from __future__ import annotations

from flash_image import firmware_files
from reader_host import booted_host, wiring_problems
from twin import Twin
from wiring import wiring


def test_g_a_pin_swapped_in_the_netlist_fails_the_twin(twin_ready: None) -> None:
    # Reader 0's and reader 1's chip selects crossed; SPI1's MISO on GP17, where the firmware does not listen.
    with Twin(files=firmware_files(), wiring=wiring(16, swap=((0, 1), (28, 17))), limit=60) as other:
        host = booted_host(other)
        try:
            problems = wiring_problems(other, host, (0,), 16)
        finally:
            host.close()
    assert problems == ["readers not answering: [10, 11, 12, 13, 14, 15]",
                        "the tag laid on reader 0 was reported on [1]"]
