// Runs the firmware on MicroPython's WebAssembly build, for tests/firmware/mpy_runner.py.
//
// It copies firmware/*.py to /firmware and tests/firmware/micropython/*.py (the fake
// machine, neopixel and MFRC522, the test rig) to /harness in MicroPython's
// file system, then reads one JSON command per line on stdin and writes one
// JSON reply per line on stdout (see micropython/mpy_host.py). Anything the Python
// side prints is returned in the reply's "printed" list, so stdout stays the
// reply channel.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
let printed = [];
const mp = await loadMicroPython({
  stdout: (line) => printed.push(line),
  stderr: (line) => printed.push(line),
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

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim()) process.stdout.write(answer(line) + "\n");
}
