// Runs the firmware on MicroPython's WebAssembly build, for tests/firmware/mpy_runner.py.
//
// With "--serial FD" (SerialMicroPython in mpy_runner.py) FD is a pty's master side: the
// firmware's main() runs with FD as its USB serial port until it stops for the REPL, then
// MicroPython's own event-driven REPL (raw REPL included) serves FD, so the real mpremote
// can talk to it on the pty's other side. JSON commands are answered only once the REPL runs.
//
// It copies firmware/*.py to /firmware and tests/firmware/micropython/*.py (the fake
// machine, neopixel and MFRC522, the test rig) to /harness in MicroPython's
// file system, then reads one JSON command per line on stdin and writes one
// JSON reply per line on stdout (see micropython/mpy_host.py). Anything the Python
// side prints is returned in the reply's "printed" list, so stdout stays the
// reply channel.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync, readSync, readdirSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const serialFd = process.argv[2] === "--serial" ? Number(process.argv[3]) : undefined;
const pause = new Int32Array(new SharedArrayBuffer(4));  // for sleep(): Atomics.wait is a synchronous sleep
let printed = [];
const mp = await loadMicroPython(serialFd === undefined ? {
  stdout: (line) => printed.push(line),
  stderr: (line) => printed.push(line),
} : {
  stdout: (bytes) => writeAll(serialFd, bytes),
  stderr: (bytes) => writeAll(serialFd, bytes),
  linebuffer: false,
});

function copyPython(from, to) {
  mp.FS.mkdir(to);
  for (const name of readdirSync(from)) {
    if (name.endsWith(".py")) mp.FS.writeFile(`${to}/${name}`, readFileSync(join(from, name)));
  }
}

copyPython(join(repo, "firmware"), "/firmware");
copyPython(join(here, "micropython"), "/harness");
mp.runPython("import sys\nsys.path.append('/harness')\nsys.path.append('/firmware')\nimport mpy_host");

function answer(line) {
  printed = [];
  let reply;
  try {
    mp.globals.set("_request", line);
    mp.runPython("_reply = mpy_host.handle(_request)");
    reply = JSON.parse(mp.globals.get("_reply"));
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  if (printed.length) reply.printed = printed;
  return JSON.stringify(reply);
}

if (serialFd === undefined) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim()) process.stdout.write(answer(line) + "\n");
  }
} else {
  serveSerial(serialFd);
}

// ---- --serial: the pty bridge (all synchronous: the firmware's loop never yields to node) ----

function sleep(ms) {
  Atomics.wait(pause, 0, 0, ms);
}

function readByte(fd) {
  // One byte, or -1 when none is there yet (the fds are non-blocking), or -2 at end of file.
  const one = Buffer.alloc(1);
  try {
    return readSync(fd, one, 0, 1, null) === 1 ? one[0] : -2;
  } catch (error) {
    if (error.code === "EAGAIN") return -1;
    throw error;
  }
}

function writeAll(fd, bytes) {
  const buffer = Buffer.from(bytes);
  for (let at = 0; at < buffer.length;) {
    try {
      at += writeSync(fd, buffer, at);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
      sleep(1);
    }
  }
}

function serveSerial(fd) {
  let peeked = -1;
  const peek = () => (peeked < 0 ? (peeked = readByte(fd)) : peeked);
  globalThis.serialAvailable = () => {
    if (peek() >= 0) return true;
    sleep(1);
    return false;
  };
  globalThis.serialRead = () => {
    const byte = peek();
    peeked = -1;
    return byte;
  };
  globalThis.serialWrite = (hex) => writeAll(fd, Buffer.from(hex, "hex"));
  mp.runPython("mpy_host.run_firmware()");  // returns once the firmware stops for the REPL

  mp.replInit();
  let held = [];  // a raw-paste request being read: see below
  let control = "";
  for (;;) {
    const byte = globalThis.serialRead();
    if (byte >= 0) {
      // The WebAssembly port cannot read stdin while a command runs (mp_hal_stdin_rx_chr is 0 in
      // ports/webassembly/mphalport.h), which raw-paste mode (Ctrl-E A Ctrl-A) needs. So the bridge
      // passes on only the Ctrl-A: the raw REPL then answers as one without raw-paste does, and
      // mpremote falls back to sending commands whole (its exec_raw_no_follow).
      const expect = [0x05, 0x41, 0x01][held.length];
      if (byte === expect) {
        held.push(byte);
        if (held.length < 3) continue;
        held = [0x01];
      } else {
        held.push(byte);
      }
      for (const one of held) {
        if (mp.replProcessChar(one)) {
          // A soft reset (Ctrl-D at an empty raw prompt): what the rp2 port prints and stops, then the REPL again.
          writeAll(fd, "MPY: soft reboot\r\n");
          mp.runPython("import machine\nmachine.soft_reset_world()");
          mp.replInit();
        }
      }
      held = [];
      continue;
    }
    const command = readByte(0);
    if (command === -2) return;  // the test closed its end
    if (command < 0) {
      sleep(1);
    } else if (command === 10) {
      if (control.trim()) writeAll(1, answer(control) + "\n");
      control = "";
    } else {
      control += String.fromCharCode(command);
    }
  }
}
