"""The board twin's file system: firmware/*.py in a littlefs image, as MicroPython's rp2 port mounts it.

MicroPython v1.28.0, ports/rp2 for RPI_PICO: ``MICROPY_HW_FLASH_STORAGE_BYTES``
is 1408 KiB (boards/RPI_PICO/mpconfigboard.h) at ``PICO_FLASH_SIZE_BYTES -
MICROPY_HW_FLASH_STORAGE_BYTES`` (rp2_flash.c) of the Pico's 2 MiB flash, so
0xA0000; blocks are ``FLASH_SECTOR_SIZE`` (4 KiB) and modules/_boot.py mounts
it as ``vfs.VfsLfs2(bdev, progsize=256)`` (readsize 32 and lookahead 32 are the
VfsLfs2 defaults, extmod/vfs_lfs.c). Its littlefs (lib/littlefs) writes disk
version 2.1. An image it cannot mount would be formatted at boot, so a mismatch
here shows as a board without main.py, never as a silent success.

>>> image = build_image({"main.py": b"print('hi')\\n"})
>>> len(image) == FS_SIZE, list_files(image)
(True, {'main.py': 12})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from littlefs import LittleFS

FS_OFFSET = 0xA0000  # from the start of flash (XIP 0x100A0000)
BLOCK_SIZE = 4096
BLOCK_COUNT = 352  # 1408 KiB
FS_SIZE = BLOCK_SIZE * BLOCK_COUNT
PROG_SIZE = 256
READ_SIZE = 32
LOOKAHEAD = 32
DISK_VERSION = 0x00020001
FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def _new_fs() -> LittleFS:
    return LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PROG_SIZE, read_size=READ_SIZE,
                    lookahead_size=LOOKAHEAD, disk_version=DISK_VERSION)


def build_image(files: Mapping[str, bytes]) -> bytes:
    """A formatted file system holding ``files`` (name in the root folder -> contents)."""
    fs = _new_fs()
    for name, data in sorted(files.items()):
        with fs.open(name, "wb") as handle:
            handle.write(data)
    return bytes(fs.context.buffer)


def firmware_files(folder: Path = FIRMWARE, extra: Mapping[str, bytes] | None = None,
                   leave_out: Iterable[str] = ()) -> dict[str, bytes]:
    """Every ``*.py`` of the firmware folder, as ``mpremote cp firmware/*.py :`` puts them; ``extra`` on top."""
    skipped = set(leave_out)
    files = {path.name: path.read_bytes() for path in sorted(folder.glob("*.py")) if path.name not in skipped}
    files.update(extra or {})
    return files


def list_files(image: bytes) -> dict[str, int]:
    """Name -> size of every file in the root folder of ``image`` (for tests and the curious)."""
    fs = _new_fs()
    fs.context.buffer[:] = image
    fs.mount()
    return {name: fs.stat(name).size for name in fs.listdir("/")}


def write_image(path: Path, files: Mapping[str, bytes]) -> Path:
    path.write_bytes(build_image(files))
    return path
