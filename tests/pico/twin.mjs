// The board twin: MicroPython's rp2 image (firmware.bin) with the project's firmware/ files in a
// littlefs image, on an emulated RP2040 (rp2040js), its USB serial port bridged to a pty.
// tests/pico/twin.py starts it; docs/board-twin.md says what it can and cannot show.
//
//   node twin.mjs --image-dir DIR --fs FS.img --serial-fd FD [--wiring WIRING.json] [--uid HEX16] [--verbose]
//
// DIR holds firmware.bin (loaded at flash offset 0) and bootrom.bin (RP2040 B1, 16 KiB), as
// tools/build-pico-image.sh makes them. FS.img goes at flash offset 0xA0000 (flash_image.py).
// FD is an open pty master inherited from the parent: bytes the firmware sends on USB are written
// to it, bytes read from it go to the firmware's USB OUT endpoint (only when it asks for some,
// as a host does). The parent keeps the pty's other side open so the port outlives its clients.
//
// What rp2040js 1.4.1 lacks and this file adds, without patching the package:
// - Flash writes. rp2040js serves XIP reads straight from its flash array, and its SSI model
//   answers only status reads. FlashSSI below puts a W25Q16JV-like SPI NOR flash (the Pico's,
//   2 MiB) behind the SSI's data register, framed by the chip select the boot ROM and pico-sdk
//   force through IO_QSPI GPIO_QSPI_SS_CTRL.OUTOVER (RP2040 datasheet 2.19.6.3, 4.10): WREN 06,
//   page program 02, sector/block erase 20/52/D8, chip erase C7/60, read 03/0B, status 05/35,
//   JEDEC id 9F, unique id 4B. Program and erase finish at once (a real one is busy for
//   milliseconds: emulated time does not include it).
// - A watchdog that counts (rp2040js's stops the clock: see Watchdog below) and a chip reset.
//   The watchdog (its count, or CTRL.TRIGGER, which pico-sdk's watchdog_reboot and so
//   machine.reset() use) only calls a hook in rp2040js; here it reboots: a fresh RP2040
//   object, the same flash array contents, the watchdog's REASON and SCRATCH registers carried
//   over (they survive a watchdog reset, RP2040 datasheet 4.7), USB enumerated again.
//   Emulated time runs on across reboots.
// - A host-like USB CDC: the OUT endpoint is answered only when the host has bytes, instead of
//   with an empty packet every 10 us.
//
// Command protocol: one JSON object per line on stdin, one JSON object per line on stdout.
//   Replies carry the request's "id" and "us" (emulated time, microseconds since power-on):
//     {"id": 1, "cmd": "time"}                       -> {"id": 1, "ok": true, "us": 1234567}
//     {"id": 2, "cmd": "run_until", "us": 5000000}   -> reply once emulated time reaches 5 s
//     {"id": 3, "cmd": "reset"}                      -> reboot now (the RUN pin), flash kept
//     {"id": 4, "cmd": "status"}                     -> {"boots": n, "reasons": [...], "usb": bool, "dropped": n,
//                                                       "pc": core PC, "readers": bool}
//     {"id": 5, "cmd": "flash_read", "offset": 0xA0000, "length": 4096} -> {"hex": "..."}
//     {"id": 6, "cmd": "save_fs", "path": "/tmp/fs.img"}  -> the littlefs region written to path
//     {"id": 7, "readers": {...}}                    -> readers.command({...}); its result as "result"
//     {"id": 8, "cmd": "quit"}                       -> reply, then exit 0
//   Errors: {"id": n, "ok": false, "error": "..."}.
//   Events (no "id"), in order of emulated time:
//     {"event": "boot", "n": 1, "reason": "power-on" | "watchdog" | "trigger" | "reset", "us": ...}
//     {"event": "usb", "us": ...}         the USB serial port is enumerated and open (DTR set)
// The readers: with --wiring, ./readers.mjs is imported and attachReaders(mcu, wiring) called
// after every boot. On a reboot the twin calls readers.reattach(newMcu) when the object has that
// method; otherwise it calls attachReaders on the new chip and replays every "readers" command
// received so far, in order, so tags on the board stay put across a reset (the readers keep
// power while the Pico reboots).
import { readFileSync, readSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { BasePeripheral, RP2040, USBCDC } from "rp2040js";

const here = dirname(fileURLToPath(import.meta.url));
const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16JV
const FS_OFFSET = 0xa0000; // MicroPython v1.28.0 RPI_PICO: 2 MiB - 1408 KiB (flash_image.py)
const FS_SIZE = 1408 * 1024;
const SLICE_MS = 20; // real time between looks at stdin and the pty
const BURST = 4096; // instructions between looks at the clock

// ---- arguments ----------------------------------------------------------------------------
function parseArgs(argv) {
  const args = { verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "");
    if (key === "verbose") args.verbose = true;
    else args[key.replace(/-(.)/g, (_m, c) => c.toUpperCase())] = argv[++i];
  }
  for (const need of ["imageDir", "fs", "serialFd"]) {
    if (args[need] === undefined) throw new Error(`twin.mjs: --${need} is required`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const serialFd = Number(args.serialFd);
const uid = Buffer.from(args.uid ?? "e660c0d1c7a5b12f", "hex");
const bootrom = new Uint32Array(new Uint8Array(readFileSync(join(args.imageDir, "bootrom.bin"))).buffer);
const flash = new Uint8Array(FLASH_SIZE).fill(0xff); // what the flash chip holds at power-on
flash.set(readFileSync(join(args.imageDir, "firmware.bin")), 0);
flash.set(readFileSync(args.fs).subarray(0, FS_SIZE), FS_OFFSET);
const wiring = args.wiring ? JSON.parse(readFileSync(args.wiring, "utf-8")) : null;
const readersModule = wiring ? await import(join(here, "readers.mjs")) : null;

const logger = {
  debug() {},
  info() {},
  warn: (name, text) => args.verbose && process.stderr.write(`[${name}] ${text}\n`),
  error: (name, text) => process.stderr.write(`[${name}] error: ${text}\n`),
};

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

// ---- the flash chip and the SSI in front of it ----------------------------------------------
class FlashChip {
  constructor(memory, id) {
    this.memory = memory;
    this.id = id;
    this.wel = false; // write enable latch
    this.selected = false;
    this.bytes = [];
  }

  select() {
    this.selected = true;
    this.bytes = [];
  }

  deselect() {
    if (!this.selected) return;
    this.selected = false;
    const [cmd] = this.bytes;
    const address = ((this.bytes[1] << 16) | (this.bytes[2] << 8) | this.bytes[3]) & (FLASH_SIZE - 1);
    if (cmd === 0x06) this.wel = true;
    else if (cmd === 0x04) this.wel = false;
    else if (this.wel && this.bytes.length >= 4 && cmd === 0x02) this.program(address, this.bytes.slice(4));
    else if (this.wel && this.bytes.length >= 4 && cmd === 0x20) this.erase(address, 4096);
    else if (this.wel && this.bytes.length >= 4 && cmd === 0x52) this.erase(address, 32768);
    else if (this.wel && this.bytes.length >= 4 && cmd === 0xd8) this.erase(address, 65536);
    else if (this.wel && (cmd === 0xc7 || cmd === 0x60)) this.erase(0, FLASH_SIZE);
    if ([0x02, 0x20, 0x52, 0xd8, 0xc7, 0x60].includes(cmd)) this.wel = false;
  }

  program(address, data) {
    // NOR flash: programming only clears bits; past the page end the address wraps within the page
    const page = address & ~0xff;
    for (let i = 0; i < data.length; i++) {
      const at = page | ((address + i) & 0xff);
      this.memory[at] &= data[i];
    }
  }

  erase(address, size) {
    const start = address & ~(size - 1);
    this.memory.fill(0xff, start, start + size);
  }

  transfer(byte) {
    const index = this.bytes.length;
    this.bytes.push(byte);
    const cmd = this.bytes[0];
    if (index === 0) return 0xff;
    switch (cmd) {
      case 0x05: return this.wel ? 0x02 : 0x00; // never busy: writes complete at once
      case 0x35: return 0x02; // QE set: boot2 leaves the status register alone
      case 0x9f: return [0xef, 0x40, 0x15][index - 1] ?? 0xff;
      case 0x4b: return index >= 5 && index < 13 ? this.id[index - 5] : 0xff;
      case 0x03: return index >= 4 ? this.readAt(index - 4) : 0xff;
      case 0x0b: return index >= 5 ? this.readAt(index - 5) : 0xff;
      default: return 0xff;
    }
  }

  readAt(skip) {
    const address = ((this.bytes[1] << 16) | (this.bytes[2] << 8) | this.bytes[3]) + skip;
    return this.memory[address & (FLASH_SIZE - 1)];
  }
}

const SSI = { CTRLR0: 0x00, SSIENR: 0x08, SR: 0x28, TXFLR: 0x20, RXFLR: 0x24, DR0: 0x60, IDR: 0x58, VERSION: 0x5c };

class FlashSSI extends BasePeripheral {
  // RP2040 datasheet 4.10 (SSI): a Synopsys DW_apb_ssi. Bytes written to DR0 while the chip select
  // is forced low go to the flash chip and its answers queue for DR0 reads; with the select left
  // to the SSI (boot2's set-up, XIP) every byte answers 0 as in rp2040js's own model.
  constructor(rp2040, chip) {
    super(rp2040, "SSI");
    this.chip = chip;
    this.regs = new Map();
    this.rx = [];
  }

  readUint32(offset) {
    switch (offset) {
      case SSI.SR: return 0x06 | (this.rx.length ? 0x08 : 0); // TFNF, TFE, RFNE; never busy
      case SSI.TXFLR: return 0;
      case SSI.RXFLR: return this.rx.length;
      case SSI.DR0: return this.rx.length ? this.rx.shift() : 0;
      case SSI.IDR: return 0x51535049;
      case SSI.VERSION: return 0x3430312a;
      default: return this.regs.get(offset) ?? 0;
    }
  }

  writeUint32(offset, value) {
    if (offset === SSI.DR0) {
      this.rx.push(this.chip.selected ? this.chip.transfer(value & 0xff) : 0);
      if (this.rx.length > 16) this.rx.shift(); // the RX FIFO is 16 deep
      return;
    }
    if (offset === SSI.SSIENR && !(value & 1)) this.rx = []; // disabling the SSI clears its FIFOs
    this.regs.set(offset, value);
  }
}

class IoQspi extends BasePeripheral {
  // IO_QSPI (RP2040 datasheet 2.19.6.3): only GPIO_QSPI_SS_CTRL (0x0c) matters, its OUTOVER field
  // (bits 9:8): 2 drives the flash's chip select low, 3 high, 0 leaves it to the SSI.
  constructor(rp2040, chip) {
    super(rp2040, "IO_QSPI");
    this.chip = chip;
    this.regs = new Map();
  }

  readUint32(offset) {
    return this.regs.get(offset) ?? 0;
  }

  writeUint32(offset, value) {
    this.regs.set(offset, value);
    if (offset !== 0x0c) return;
    const over = (value >> 8) & 3;
    if (over === 2 && !this.chip.selected) this.chip.select();
    else if (over !== 2) this.chip.deselect();
  }
}

class XipCtrl extends BasePeripheral {
  // XIP_CTRL (datasheet 2.6.3.1): the boot ROM flushes the cache after a write; rp2040js has no
  // cache, so only the registers are kept (STAT reads FIFO_EMPTY | FLUSH_READY).
  constructor(rp2040) {
    super(rp2040, "XIP_CTRL");
    this.regs = new Map();
  }

  readUint32(offset) {
    return offset === 0x08 ? 0x03 : (this.regs.get(offset) ?? 0);
  }

  writeUint32(offset, value) {
    this.regs.set(offset, value);
  }
}

class Watchdog extends BasePeripheral {
  // RP2040 datasheet 4.7: LOAD sets a 24-bit count that falls while CTRL.ENABLE and TICK's enable
  // are set; at 0 the chip resets (REASON.TIMER), as it does at once on a write of CTRL.TRIGGER
  // (REASON.FORCE). The count falls twice per 1 us tick (erratum RP2040-E1; pico-sdk's
  // watchdog_enable loads twice the microseconds for it), so one count is 500 ns. rp2040js's own
  // model runs this count on a Timer32 whose decrementing alarm can land on the same instant again
  // and again, so the clock never moves and node's event loop stops.
  constructor(rp2040, onFire) {
    super(rp2040, "WATCHDOG");
    this.onFire = onFire;
    this.clock = rp2040.clock;
    this.ctrl = 0x07000000; // PAUSE_DBG0, PAUSE_DBG1, PAUSE_JTAG: their reset values
    this.tick = 1 << 9; // TICK.ENABLE
    this.count = 0;
    this.since = 0;
    this.reason = 0;
    this.scratchData = new Uint32Array(8);
    this.alarm = this.clock.createAlarm(() => {
      this.reason = 1;
      this.onFire("watchdog");
    });
  }

  get running() {
    return (this.ctrl & (1 << 30)) !== 0 && (this.tick & (1 << 9)) !== 0;
  }

  remaining() {
    if (!this.running) return this.count;
    return Math.max(0, this.count - Math.floor((this.clock.nanos - this.since) / 500));
  }

  change(apply) {
    this.count = this.remaining(); // fold the time run so far into the count, then change
    this.since = this.clock.nanos;
    apply();
    this.alarm.cancel();
    if (this.running) this.alarm.schedule(this.count * 500);
  }

  readUint32(offset) {
    if (offset === 0x00) return ((this.ctrl & 0x7f000000) | this.remaining()) >>> 0;
    if (offset === 0x08) return this.reason;
    if (offset >= 0x0c && offset <= 0x28) return this.scratchData[(offset - 0x0c) >> 2];
    if (offset === 0x2c) return this.tick | ((this.tick & (1 << 9)) ? 1 << 10 : 0); // RUNNING
    return 0;
  }

  writeUint32(offset, value) {
    if (offset === 0x00) {
      if (value & 0x80000000) {
        this.reason = 2;
        this.onFire("trigger");
      }
      this.change(() => { this.ctrl = value & 0x7f000000; });
    } else if (offset === 0x04) {
      this.change(() => { this.count = value & 0xffffff; });
    } else if (offset >= 0x0c && offset <= 0x28) {
      this.scratchData[(offset - 0x0c) >> 2] = value;
    } else if (offset === 0x2c) {
      this.change(() => { this.tick = value & 0x3ff; });
    }
  }
}

// ---- USB: a host that sends only what it has ------------------------------------------------
class HostCDC extends USBCDC {
  constructor(usb, toDevice) {
    super(usb);
    this.toDevice = toDevice; // bytes from the pty waiting for the firmware
    this.wanted = 0;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint === this.outEndpoint) {
        this.wanted = size;
        this.pump();
      }
    };
  }

  pump() {
    if (!this.wanted || !this.toDevice.length) return;
    const count = Math.min(this.wanted, this.toDevice.length);
    const packet = Uint8Array.from(this.toDevice.splice(0, count));
    this.wanted = 0;
    this.usb.endpointReadDone(this.outEndpoint, packet);
  }
}

// ---- the twin -----------------------------------------------------------------------------
class Twin {
  constructor() {
    this.baseNanos = 0; // emulated time before the current chip's clock started
    this.boots = 0;
    this.reasons = [];
    this.toDevice = [];
    this.dropped = 0;
    this.usbOpen = false;
    this.pendingReboot = null;
    this.waiters = []; // {us, id}
    this.readerCommands = [];
    this.readers = null;
    this.startedAt = performance.now(); // emulated time never runs ahead of real time since then
    this.chip = new FlashChip(null, uid);
    this.boot("power-on", null);
  }

  get nanos() {
    return this.baseNanos + this.mcu.clock.nanos;
  }

  get us() {
    return Math.floor(this.nanos / 1000);
  }

  boot(reason, watchdog) {
    const previous = this.mcu;
    if (previous) this.baseNanos += previous.clock.nanos;
    const mcu = new RP2040();
    mcu.logger = logger;
    mcu.loadBootrom(bootrom); // also RP2040.reset(), which fills rp2040js's flash with 0xff
    // then the flash chip's contents, which a reboot keeps (rp2040js's own array is what XIP reads)
    mcu.flash.set(previous ? previous.flash.subarray(0, FLASH_SIZE) : flash);
    this.chip.memory = mcu.flash;
    this.chip.selected = false;
    mcu.peripherals[0x18000] = new FlashSSI(mcu, this.chip);
    mcu.peripherals[0x40018] = new IoQspi(mcu, this.chip);
    mcu.peripherals[0x14000] = new XipCtrl(mcu);
    const dog = new Watchdog(mcu, (why) => { this.pendingReboot = this.pendingReboot ?? why; });
    mcu.peripherals[0x40058] = dog;
    if (watchdog) {
      dog.reason = watchdog.reason;
      dog.scratchData.set(watchdog.scratchData);
    }
    this.dog = dog;
    this.usbOpen = false;
    const cdc = new HostCDC(mcu.usbCtrl, this.toDevice);
    cdc.onDeviceConnected = () => {
      this.usbOpen = true;
      send({ event: "usb", us: this.us });
    };
    cdc.onSerialData = (bytes) => this.toHost(bytes);
    this.cdc = cdc;
    this.mcu = mcu;
    this.boots += 1;
    this.reasons.push(reason);
    this.attachReaders();
    mcu.core.PC = 0x10000000; // boot2 at the start of flash, as the boot ROM would jump to it
    send({ event: "boot", n: this.boots, reason, us: this.us });
  }

  attachReaders() {
    if (!readersModule) return;
    if (this.readers && typeof this.readers.reattach === "function") {
      this.readers.reattach(this.mcu);
      return;
    }
    this.readers = readersModule.attachReaders(this.mcu, wiring);
    for (const command of this.readerCommands) this.readers.command(command);
  }

  reboot(reason) {
    // boot() copies the flash over; the watchdog's registers are carried here.
    const { dog } = this;
    const kept = { reason: reason === "reset" ? 0 : dog.reason, scratchData: Uint32Array.from(dog.scratchData) };
    this.pendingReboot = null;
    this.boot(reason, kept);
  }

  toHost(bytes) {
    try {
      const written = writeSync(serialFd, bytes);
      if (written < bytes.length) this.dropped += bytes.length - written;
    } catch (error) {
      if (error.code !== "EAGAIN" && error.code !== "EIO") throw error;
      this.dropped += bytes.length; // nobody reading the port: a host would not have taken them either
    }
  }

  fromHost() {
    const buffer = Buffer.alloc(4096);
    for (;;) {
      let count;
      try {
        count = readSync(serialFd, buffer, 0, buffer.length, null);
      } catch (error) {
        if (error.code === "EAGAIN" || error.code === "EIO") return;
        throw error;
      }
      if (!count) return;
      for (let i = 0; i < count; i++) this.toDevice.push(buffer[i]);
    }
  }

  run() {
    // rp2040js's Simulator.execute() loop, with a real-time budget per slice and reboots between
    // instructions (never from inside the watchdog's callback). Instructions run as fast as the
    // host allows (about a third of real time); a core waiting for an interrupt (WFI/WFE: a
    // sleep_ms, the idle REPL) skips ahead only until emulated time catches up with real time
    // since the twin started, then waits at real pace: the pace of the host at the other end of
    // the USB cable. Jumping to the next alarm instead let an idle REPL run a million times faster
    // than real time, so a host's next byte arrived days later.
    const started = performance.now();
    let idleNanos = Math.max(0, (started - this.startedAt) * 1e6 - this.nanos);
    let idled = false;
    const stopAt = started + SLICE_MS;
    while (performance.now() < stopAt && !this.pendingReboot && !idled) {
      const { core, clock } = this.mcu;
      const cycleNanos = 1e9 / this.mcu.clkSys;
      for (let i = 0; i < BURST && !this.pendingReboot; i++) {
        if (!core.waiting) {
          clock.tick(core.executeInstruction() * cycleNanos);
          continue;
        }
        const jump = clock.nanosToNextAlarm;
        const step = jump > 0 ? Math.min(jump, idleNanos) : idleNanos;
        clock.tick(step);
        idleNanos -= step;
        if (idleNanos <= 0) {
          idled = true;
          break;
        }
      }
      if (this.waiters.some((w) => w.us <= this.us)) break;
    }
    if (this.pendingReboot) this.reboot(this.pendingReboot);
    this.fromHost();
    this.cdc.pump();
    this.wake();
    if (idled) setTimeout(() => this.run(), 2);
    else setImmediate(() => this.run());
  }

  wake() {
    const now = this.us;
    const due = this.waiters.filter((w) => w.us <= now);
    this.waiters = this.waiters.filter((w) => w.us > now);
    for (const w of due) send({ id: w.id, ok: true, us: now });
  }

  handle(request) {
    const { id } = request;
    const reply = (extra = {}) => send({ id, ok: true, us: this.us, ...extra });
    if (request.readers !== undefined) {
      if (!this.readers) throw new Error("no readers: start the twin with --wiring");
      this.readerCommands.push(request.readers);
      return reply({ result: this.readers.command(request.readers) ?? null });
    }
    switch (request.cmd) {
      case "time": return reply();
      case "run_until":
        this.waiters.push({ us: request.us, id });
        return this.wake();
      case "reset":
        this.reboot("reset");
        return reply();
      case "status":
        return reply({ boots: this.boots, reasons: this.reasons, usb: this.usbOpen, dropped: this.dropped,
                       pc: this.mcu.core.PC, readers: !!this.readers });
      case "flash_read": {
        const data = this.mcu.flash.subarray(request.offset, request.offset + request.length);
        return reply({ hex: Buffer.from(data).toString("hex") });
      }
      case "save_fs":
        writeFileSync(request.path, this.mcu.flash.subarray(FS_OFFSET, FS_OFFSET + FS_SIZE));
        return reply();
      case "quit":
        reply();
        return process.exit(0);
      default:
        throw new Error(`unknown command ${JSON.stringify(request.cmd)}`);
    }
  }
}

const twin = new Twin();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let request = {};
  try {
    request = JSON.parse(line);
    twin.handle(request);
  } catch (error) {
    send({ id: request.id, ok: false, error: String((error && error.message) || error) });
  }
});
lines.on("close", () => process.exit(0));
twin.run();
