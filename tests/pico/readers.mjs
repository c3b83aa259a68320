// The board twin's readers: register-level MFRC522 models on the emulated RP2040's SPI buses, the
// ISO 14443-3 type A tags in their fields, and the 74HC154 decoders between the Pico and the
// chip selects, wired as the netlist says (tests/pico/wiring.py writes the wiring JSON).
//
// The MFRC522 and the tag state machine are a port of tests/firmware/micropython/fake_mfrc522.py
// and fake_tags.py (the WebAssembly tests' fake); tests/pico/test_reader_vectors.py replays
// vectors recorded from that fake (tests/pico/vectors/) against this port, so the two stay one
// model. What differs here is time: the Python fake jumps its virtual clock to the end of a
// command when the driver polls ComIrqReg, while on the twin the chip finishes a command at an
// emulated instant and each poll before it reads the flags not yet set, and each SPI byte takes
// 8 bit times of the bus clock the firmware set up.
//
// A reader hears the bus only while the netlist's pins carry it: its SCK and MOSI GPIOs must be
// set to the SPI function (IO_BANK0 GPIOn_CTRL FUNCSEL = 1, RP2040 datasheet 2.19.2) of one SPI
// block, and its answer reaches that block only through the netlist's MISO GPIO in the same
// function; it is selected only while the GPIO (or the decoder output) the netlist names is low.
// rp2040js's SPI model ignores pins, so without these checks a swapped wire would still work.
//
// attachReaders(mcu, wiring) returns { command(obj), counters(), reattach(mcu), field, chips }.
// command() takes one JSON object; readers are numbered as in the wiring, UIDs are hex (4, 7, 10 bytes):
//   {cmd: "place", uid, reader} or {cmd: "place", uid, readers: [a, b]}   lay a tag (fresh: unpowered, IDLE)
//   {cmd: "straddle", uid, readers: [a, b]}   the same, over two antennas or more (powered by either field)
//   {cmd: "slide", uid, readers: [...]}       move a tag without lifting it (keeps HALT while a field stays on)
//   {cmd: "remove", uid}, {cmd: "clear"}      lift one tag, or every tag
//   {cmd: "unplug" | "plug", reader?}         the module off its cable: MISO reads the buffer input's pull
//                                             (wiring's unplugged_miso); plugged back at power-on state
//   {cmd: "overheat" | "cool", reader?}       above / below the temperature alarm limit (TempErr, drivers off)
//   {cmd: "power_dip", reader?}               a brown-out: registers back to their power-on values, field off
//   {cmd: "version", reader?, value}          VersionReg of a clone (after its next reset)
//   {cmd: "stall" | "unstall", spi?}          SPI bytes stop completing (the firmware hangs in a transfer)
//                                             until "unstall"; a reboot does not clear it
//   {cmd: "counters"}                         SPI transactions and bytes: total, per SPI block, per reader
//   {cmd: "reader", reader}, {cmd: "tags"}    one chip's state; every tag, its antennas and ISO state
//   {cmd: "version_reads", reader}            when the firmware read that VersionReg (once a scan: pass times)
// Without "reader" a fault applies to every module. A reboot of the Pico (twin.mjs) calls
// reattach(newMcu): the readers and tags keep their power and state; RST goes low with the Pico's pads.

// ---- MFRC522 registers and commands (NXP MFRC522 datasheet, section 9) ----------------------
const COMMAND = 0x01;
const COM_IRQ = 0x04;
const DIV_IRQ = 0x05;
const ERROR = 0x06;
const STATUS2 = 0x08;
const FIFO_DATA = 0x09;
const FIFO_LEVEL = 0x0a;
const CONTROL = 0x0c;
const BIT_FRAMING = 0x0d;
const COLL = 0x0e;
const MODE = 0x11;
const TX_CONTROL = 0x14;
const TX_ASK = 0x15;
const CRC_RESULT_H = 0x21;
const CRC_RESULT_L = 0x22;
const T_MODE = 0x2a;
const T_PRESCALER = 0x2b;
const T_RELOAD_H = 0x2c;
const T_RELOAD_L = 0x2d;
const VERSION = 0x37;

const IDLE_CMD = 0x00;
const CALC_CRC = 0x03;
const TRANSCEIVE = 0x0c;
const SOFT_RESET = 0x0f;

// ErrorReg bits (datasheet 9.3.1.7). TempErr: the temperature sensor found the chip overheated
// and the antenna drivers are switched off; unlike the others it is not cleared by a command, but
// by TempSensClear (Status2Reg bit 7, 9.3.1.9), and only once the chip is below its alarm limit.
// The datasheet does not say whether the drivers come back on by themselves: here they stay off
// while TempErr is set and follow TxControlReg again once it is cleared.
const TEMP_ERR = 0x40;
const TEMP_SENS_CLEAR = 0x80;
const BUFFER_OVFL = 0x10;
const COLL_ERR = 0x08;
const PARITY_ERR = 0x02;

// Power-on values of the registers the driver touches (datasheet, section 9), as the fake has them.
const DEFAULTS = {
  [COMMAND]: 0x20, 0x02: 0x80, [COM_IRQ]: 0x14, [CONTROL]: 0x10, 0x0b: 0x08, [COLL]: 0xa0, [MODE]: 0x3f,
  [TX_CONTROL]: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4d, [CRC_RESULT_H]: 0xff,
  [CRC_RESULT_L]: 0xff, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, [VERSION]: 0x92,
};
const CRC_PRESETS = [0x0000, 0x6363, 0xa671, 0xffff]; // ModeReg CRCPreset

// Air timing at 106 kbit/s (ISO 14443-2/-3): one bit is 128 carrier cycles.
const ETU_NS = 9440;
const FDT_US = 91; // PICC answer delay, 1236/fc (ISO 14443-3 6.2.1.2)
export const RESET_US = 5000; // field off this long resets every tag (NXP Reader Library's field-off time)
export const BOOT_US = 5000; // field a tag needs before it answers (ISO 14443-3 clause 5)

// ---- ISO 14443-3 type A tags -------------------------------------------------------------------
const IDLE = 0;
const READY = 1;
const ACTIVE = 2;
const HALT = 3;
const REQA = 0x26;
const WUPA = 0x52;
const SEL = [0x93, 0x95, 0x97];
export const STATE_NAMES = ['IDLE', 'READY', 'ACTIVE', 'HALT'];

export function crcA(data, preset = 0x6363) {
  let crc = preset;
  for (let byte of data) {
    byte ^= crc & 0xff;
    byte = (byte ^ (byte << 4)) & 0xff;
    crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4);
  }
  return crc & 0xffff;
}

function littleBig(bytes) {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

function parseUid(text) {
  const hex = String(text).toLowerCase();
  if (!/^([0-9a-f]{2})+$/.test(hex)) throw new Error(`a UID is hex bytes, got ${text}`);
  const uid = Buffer.from(hex, 'hex');
  if (![4, 7, 10].includes(uid.length)) throw new Error('a UID has 4, 7 or 10 bytes');
  return uid;
}

/** One tag (MIFARE Classic, NTAG21x, ...): the state machine of ISO 14443-3 type A. */
export class Tag {
  constructor(uid, bootUs = BOOT_US) {
    this.uid = uid;
    const ct = (bytes) => [0x88, ...bytes];
    const chunks = { 4: [[...uid]], 7: [ct(uid.subarray(0, 3)), [...uid.subarray(3)]],
      10: [ct(uid.subarray(0, 3)), ct(uid.subarray(3, 6)), [...uid.subarray(6)]] }[uid.length];
    this.levels = chunks.map((c) => [...c, c[0] ^ c[1] ^ c[2] ^ c[3]]);
    this.saks = { 4: [0x08], 7: [0x04, 0x00], 10: [0x04, 0x04, 0x20] }[uid.length];
    this.atqa = { 4: 0x0004, 7: 0x0044, 10: 0x0084 }[uid.length];
    this.bootUs = bootUs;
    this.antennas = new Set(); // readers whose antenna it lies over
    this.poweredAt = null; // when it last booted; null while it has never had field since placed
    this.fielded = false; // some antenna under it has its field on now
    this.offSince = 0; // when its field last went away
    this.state = IDLE;
    this.level = 0;
    this.fromHalt = false; // READY*/ACTIVE*: woken from HALT, errors send it back there
    this.selected = 0;
  }

  /** Field came or went: off for RESET_US or more and it boots afresh, IDLE; less keeps HALT. */
  setField(on, now) {
    if (on === this.fielded) return;
    this.fielded = on;
    if (!on) {
      this.offSince = now;
    } else if (this.poweredAt === null || now - this.offSince >= RESET_US) {
      this.power(now);
    }
  }

  power(now) {
    this.poweredAt = now;
    this.state = IDLE;
    this.level = 0;
    this.fromHalt = false;
  }

  unpower() {
    this.poweredAt = null;
    this.fielded = false;
    this.state = IDLE;
    this.level = 0;
    this.fromHalt = false;
  }

  readyAt(now) {
    return this.poweredAt !== null && now - this.poweredAt >= this.bootUs;
  }

  /** A frame of `bits` bits from the reader: the answer [value (BigInt), bits] or null. */
  receive(data, bits) {
    if (bits === 7) return this.request(data[0] & 0x7f);
    if (this.state === READY) return this.ready(data, bits);
    if (this.state === ACTIVE) this.active(data, bits);
    return null;
  }

  back() {
    this.state = this.fromHalt ? HALT : IDLE;
    this.level = 0;
  }

  request(command) {
    if ((command === REQA && this.state === IDLE) || (command === WUPA && (this.state === IDLE || this.state === HALT))) {
      this.fromHalt = this.state === HALT;
      this.state = READY;
      this.level = 0;
      return [BigInt(this.atqa), 16];
    }
    if (this.state === READY || this.state === ACTIVE) this.back();
    return null;
  }

  ready(data, bits) {
    if (data.length < 2 || data[0] !== SEL[this.level]) {
      this.back();
      return null;
    }
    const nvb = data[1];
    if (nvb === 0x70) return this.select(data, bits);
    const known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0f);
    if ((nvb & 0x0f) > 7 || !(known >= 0 && known < 40) || bits !== 16 + known) {
      this.back();
      return null;
    }
    const mask = (1n << BigInt(known)) - 1n;
    const mine = littleBig(this.levels[this.level]);
    if ((littleBig(data.slice(2)) & mask) !== (mine & mask)) return null; // another tag's prefix
    return [mine >> BigInt(known), 40 - known];
  }

  select(data, bits) {
    if (bits !== 72 || crcA(data.slice(0, 7)) !== (data[7] | (data[8] << 8))) return null;
    const level = this.levels[this.level];
    for (let i = 0; i < 5; i++) {
      if (data[2 + i] !== level[i]) {
        this.back();
        return null;
      }
    }
    const sak = this.saks[this.level];
    if (sak & 0x04) {
      this.level += 1;
    } else {
      this.state = ACTIVE;
      this.selected += 1;
    }
    return [BigInt(sak | (crcA([sak]) << 8)), 24];
  }

  active(data, bits) {
    if (bits === 32 && data[0] === 0x50 && data[1] === 0 && crcA(data.slice(0, 2)) === (data[2] | (data[3] << 8))) {
      this.state = HALT;
      this.fromHalt = false;
    } else {
      this.back();
    }
  }
}

function lowestBit(value) {
  let at = 0n;
  while (!((value >> at) & 1n)) at += 1n;
  return at;
}

function oddParity(byte) {
  let ones = 0;
  for (let b = byte; b; b >>= 1) ones += b & 1;
  return 1 - (ones & 1);
}

// ---- the reader chip ---------------------------------------------------------------------------

/**
 * One MFRC522 behind its antenna. `field` holds the tags; `clock()` is the time in microseconds.
 * `unpluggedMiso`: what MISO reads with the module gone or held in reset, as the circuit has it
 * (its buffer's input pulled down: 0x00, up: 0xFF, floating: null, which reads as noise).
 */
export class Chip {
  constructor(index, field, clock, unpluggedMiso = 0x00) {
    this.index = index;
    this.field = field;
    this.clock = clock;
    this.unpluggedMiso = unpluggedMiso;
    this.version = 0x92; // VersionReg: 0x92 an MFRC522 v2.0, 0x91 v1.0, 0x88 an FM17522 clone
    this.noise = 0x2545f491 ^ (index * 0x9e3779b9);
    this.unplugged = false;
    this.inReset = false; // NRSTPD low: hard power-down (datasheet 8.8.1)
    this.hot = false; // above the temperature alarm limit now
    this.tempErr = false; // ErrorReg TempErr, latched: antenna drivers off
    this.regs = new Uint8Array(64);
    this.fifo = [];
    this.first = true;
    this.addr = 0;
    this.reading = false;
    this.doneAt = null;
    this.doneBits = 0;
    this.fieldWas = false;
    this.transactions = 0;
    this.bytes = 0;
    this.versionReads = []; // when each transaction reading VersionReg began (the last 256): one per scan
    this.transceives = 0;
    this.collisions = 0;
    this.parityErrors = 0;
    this.powerOn();
  }

  /** Registers to their power-on values, FIFO empty, field off: power-up, RST, SoftReset, a dip. */
  powerOn() {
    this.regs.fill(0);
    for (const [reg, value] of Object.entries(DEFAULTS)) this.regs[reg] = value;
    this.regs[VERSION] = this.version;
    this.fifo = [];
    this.doneAt = null;
    this.tempErr = this.hot; // a chip still hot finds itself overheated again at once
    this.updateField();
  }

  /** Whether the antenna radiates: Tx1RFEn/Tx2RFEn set, powered, TempErr clear. */
  radiating() {
    return (this.regs[TX_CONTROL] & 0x03) !== 0 && !this.tempErr && !this.inReset && !this.unplugged;
  }

  updateField() {
    const on = this.radiating();
    if (on !== this.fieldWas) {
      this.fieldWas = on;
      this.field.antennaChanged(this.index, this.clock());
    }
  }

  answering() {
    return !this.unplugged && !this.inReset;
  }

  floatingByte() {
    if (this.unpluggedMiso !== null) return this.unpluggedMiso;
    // xorshift32: a floating buffer input reads whatever it picks up.
    let x = this.noise;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.noise = x >>> 0;
    return this.noise & 0xff;
  }

  // ---- SPI: NSS low starts a transaction with an address byte ------------------------------
  select() {
    this.first = true;
    this.transactions += 1;
  }

  /** One byte from MOSI; returns the byte the chip puts on MISO meanwhile. */
  transfer(byte) {
    this.bytes += 1;
    if (!this.answering()) return this.floatingByte();
    if (this.first) {
      this.first = false;
      if (byte === (0x80 | (VERSION << 1))) {
        this.versionReads.push(this.clock());
        if (this.versionReads.length > 256) this.versionReads.shift();
      }
      this.addr = (byte >> 1) & 0x3f;
      this.reading = (byte & 0x80) !== 0;
      return 0;
    }
    if (this.reading) {
      const value = this.read(this.addr);
      this.addr = (byte >> 1) & 0x3f; // each byte sent names the next register to read
      return value;
    }
    this.write(this.addr, byte);
    return 0;
  }

  read(reg) {
    const now = this.clock();
    if (reg === COM_IRQ && this.doneAt !== null && now >= this.doneAt) {
      this.regs[COM_IRQ] |= this.doneBits;
      this.doneAt = null;
    }
    if (reg === FIFO_DATA) return this.fifo.length ? this.fifo.shift() : 0;
    if (reg === FIFO_LEVEL) return this.fifo.length;
    if (reg === ERROR) return this.regs[ERROR] | (this.tempErr ? TEMP_ERR : 0);
    return this.regs[reg];
  }

  write(reg, value) {
    const regs = this.regs;
    if (reg === FIFO_DATA) {
      if (this.fifo.length < 64) this.fifo.push(value);
      else regs[ERROR] |= BUFFER_OVFL;
    } else if (reg === COMMAND) {
      this.command(value);
    } else if (reg === COM_IRQ || reg === DIV_IRQ) {
      // Bit 7 (Set1/Set2) says whether the marked bits are set or cleared.
      regs[reg] = value & 0x80 ? regs[reg] | (value & 0x7f) : regs[reg] & ~value & 0x7f;
    } else if (reg === FIFO_LEVEL) {
      if (value & 0x80) {
        this.fifo = [];
        regs[ERROR] &= ~BUFFER_OVFL;
      }
    } else if (reg === BIT_FRAMING) {
      regs[reg] = value;
      if (value & 0x80 && (regs[COMMAND] & 0x0f) === TRANSCEIVE) this.transceive();
    } else if (reg === TX_CONTROL) {
      regs[reg] = value;
      this.updateField();
    } else if (reg === STATUS2) {
      regs[reg] = value & 0xc8; // bits 2-0 (ModemState) are the chip's
      if (value & TEMP_SENS_CLEAR && !this.hot) {
        this.tempErr = false;
        this.updateField();
      }
    } else if (reg !== VERSION && reg !== ERROR) { // both read-only
      regs[reg] = value;
    }
  }

  command(value) {
    const command = value & 0x0f;
    if (command === SOFT_RESET) {
      this.powerOn(); // done at once: PowerDown reads 0 straight away
      return;
    }
    this.regs[COMMAND] = value & 0x3f;
    if (command === IDLE_CMD) {
      this.doneAt = null;
    } else if (command === CALC_CRC) {
      const crc = crcA(this.fifo, CRC_PRESETS[this.regs[MODE] & 0x03]);
      this.fifo = [];
      this.regs[CRC_RESULT_L] = crc & 0xff;
      this.regs[CRC_RESULT_H] = crc >> 8;
      this.regs[DIV_IRQ] |= 0x04; // CRCIRq
    }
  }

  timeoutUs() {
    const regs = this.regs;
    const prescaler = ((regs[T_MODE] & 0x0f) << 8) | regs[T_PRESCALER];
    const reload = (regs[T_RELOAD_H] << 8) | regs[T_RELOAD_L];
    return Math.floor(((reload + 1) * (2 * prescaler + 1) * 1000) / 13560);
  }

  transceive() {
    const regs = this.regs;
    this.transceives += 1;
    const data = this.fifo;
    this.fifo = [];
    const framing = regs[BIT_FRAMING];
    const last = framing & 0x07;
    const bits = data.length * 8 - (last ? 8 - last : 0);
    const now = this.clock();
    const answers = [];
    // Tags only hear a reader whose field is on with 100 % ASK (TxASKReg), and once booted.
    if (this.radiating() && regs[TX_ASK] & 0x40) {
      for (const tag of this.field.tagsOver(this.index)) {
        if (tag.readyAt(now)) {
          const answer = tag.receive(data, bits);
          if (answer !== null) answers.push(answer);
        }
      }
    }
    regs[ERROR] = 0;
    const air = (n) => Math.floor(((2 + n + Math.floor(n / 8)) * ETU_NS) / 1000); // start, data, parity, end
    const sentUs = air(bits);
    if (answers.length) {
      const heard = this.receive(answers, (framing >> 4) & 0x07);
      this.finish(now + sentUs + FDT_US + air(heard), 0x60); // TxIRq RxIRq
    } else if (regs[T_MODE] & 0x80) {
      this.finish(now + sentUs + this.timeoutUs(), 0x41); // TxIRq TimerIRq
    } else {
      this.finish(now + sentUs, 0x40);
    }
  }

  finish(at, bits) {
    this.doneAt = at;
    this.doneBits = bits;
  }

  /** Every tag answering at once: a wired-OR with collisions (CollReg, ErrorReg: datasheet 9.3.1.15). */
  receive(answers, align) {
    const regs = this.regs;
    const bits = Math.min(...answers.map((a) => a[1]));
    const mask = (1n << BigInt(bits)) - 1n;
    let ored = 0n;
    let anded = mask;
    for (const [value] of answers) {
      ored |= value & mask;
      anded &= value & mask;
    }
    let value = ored;
    let coll = (regs[COLL] & 0x80) | 0x20; // CollPosNotValid unless a collision is found
    if (ored !== anded) {
      const first = lowestBit(ored ^ anded);
      const position = align + Number(first) + 1;
      coll = (regs[COLL] & 0x80) | (position <= 32 ? position & 0x1f : 0x20);
      regs[ERROR] |= COLL_ERR;
      this.collisions += 1;
      if (this.parityCollides(answers, align, bits)) {
        regs[ERROR] |= PARITY_ERR;
        this.parityErrors += 1;
      }
      if (!(regs[COLL] & 0x80)) value &= (1n << first) - 1n; // ValuesAfterColl off: the rest reads 0
    }
    regs[COLL] = coll;
    const total = align + bits;
    let shifted = value << BigInt(align);
    const fifo = [];
    for (let i = 0; i < Math.ceil(total / 8); i++) {
      fifo.push(Number(shifted & 0xffn));
      shifted >>= 8n;
    }
    this.fifo = fifo;
    regs[CONTROL] = (regs[CONTROL] & 0xf8) | (total & 0x07); // RxLastBits
    return bits;
  }

  parityCollides(answers, align, bits) {
    const skip = align ? 8 - align : 0;
    for (let start = skip; start < bits - 7; start += 8) {
      const parities = new Set(answers.map(([value]) => oddParity(Number((value >> BigInt(start)) & 0xffn))));
      if (parities.size > 1) return true;
    }
    return false;
  }

  // ---- what the harness does to a module ---------------------------------------------------
  setUnplugged(gone) {
    if (gone === this.unplugged) return;
    this.unplugged = gone;
    if (!gone) this.powerOn(); // plugged back: from power-on state, it needs setting up
    this.updateField();
  }

  setReset(low) {
    if (low === this.inReset) return;
    this.inReset = low;
    if (!low) this.powerOn(); // NRSTPD's rising edge: a hard reset
    this.updateField();
  }

  /** Above the alarm limit (TempErr set, drivers off) or back below it (TempErr stays until cleared). */
  setHot(hot) {
    this.hot = hot;
    if (hot) this.tempErr = true;
    this.updateField();
  }

  summary() {
    return {
      reader: this.index, unplugged: this.unplugged, in_reset: this.inReset, hot: this.hot, temp_err: this.tempErr,
      field: this.radiating(), transactions: this.transactions, bytes: this.bytes,
      transceives: this.transceives, collisions: this.collisions,
      tags: Object.fromEntries(this.field.tagsOver(this.index).map((t) => [t.uid.toString('hex'), STATE_NAMES[t.state]])),
    };
  }
}

/** The tags on the board and which antennas they lie over; powers them as fields come and go. */
export class Field {
  constructor(clock) {
    this.clock = clock;
    this.chips = [];
    this.tags = new Map(); // uid hex -> Tag
  }

  tagsOver(index) {
    const over = [];
    for (const tag of this.tags.values()) if (tag.antennas.has(index)) over.push(tag);
    return over;
  }

  fielded(tag) {
    for (const index of tag.antennas) if (this.chips[index]?.radiating()) return true;
    return false;
  }

  antennaChanged(index, now) {
    for (const tag of this.tags.values()) if (tag.antennas.has(index)) tag.setField(this.fielded(tag), now);
  }

  /** Lay the tag `uid` over the antennas `readers` (two or more: it straddles them). */
  place(uid, readers) {
    const key = uid.toString('hex');
    for (const index of readers) {
      if (!Number.isInteger(index) || index < 0 || index >= this.chips.length) throw new Error(`no reader ${index}`);
    }
    this.remove(uid);
    const tag = new Tag(uid);
    tag.antennas = new Set(readers);
    this.tags.set(key, tag);
    if (this.fielded(tag)) tag.power(this.clock()); // laid into a live field
    tag.fielded = this.fielded(tag);
    return tag;
  }

  /** Move a tag to other antennas without lifting it (it keeps its state if some field stays on). */
  slide(uid, readers) {
    const tag = this.tags.get(uid.toString('hex'));
    if (!tag) throw new Error(`no tag ${uid.toString('hex')} on the board`);
    tag.antennas = new Set(readers);
    tag.setField(this.fielded(tag), this.clock());
    return tag;
  }

  remove(uid) {
    const key = uid.toString('hex');
    const tag = this.tags.get(key);
    if (!tag) return false;
    tag.unpower();
    this.tags.delete(key);
    return true;
  }
}

// ---- the emulated board ------------------------------------------------------------------------
const FUNC_SPI = 1; // IO_BANK0 GPIOn_CTRL FUNCSEL (RP2040 datasheet 2.19.2)
const SPI_RX = 0;
const SPI_SCK = 2;
const SPI_TX = 3;
const LOW = 0; // GPIOPinState.Low
const HIGH = 1;
const INPUT_PULL_UP = 3;

/** The SPI block and role a GPIO has in the SPI function: GPIO n is SPI((n >> 3) & 1), role n & 3. */
function spiRole(gpio) {
  return { instance: (gpio >> 3) & 1, role: gpio & 3 };
}

/**
 * Wire the readers of `wiring` (tests/pico/wiring.py's JSON) to the emulated RP2040 `mcu`.
 * Returns { command(obj), counters(), field, chips }.
 */
export function attachReaders(mcu, wiring) {
  let current = mcu;
  let base = 0; // emulated nanoseconds before the current chip's clock started (twin.mjs reboots)
  const clock = () => (base + current.clock.nanos) / 1000;
  const field = new Field(clock);
  const entries = wiring.readers;
  const chips = entries.map((r, i) => new Chip(i, field, clock, r.unplugged_miso === undefined ? 0x00 : r.unplugged_miso));
  field.chips = chips;
  const buses = wiring.buses;
  const decoders = wiring.decoders ?? [];
  const selected = new Array(chips.length).fill(false);
  const bufferOn = new Array(chips.length).fill(false); // its MISO buffer drives the bus line
  const counts = { transactions: 0, bytes: 0, conflicts: 0, by_spi: [{ transactions: 0, bytes: 0 }, { transactions: 0, bytes: 0 }] };
  const stalled = [false, false];
  let pending = [null, null];
  let alarms = [];

  const funcsel = (gpio) => current.gpio[gpio].functionSelect;
  // A net's level: driven by the Pico, else its pull (the circuit's resistor wins over the pad's).
  const level = (gpio, pull) => {
    const state = current.gpio[gpio].value;
    if (state === LOW) return 0;
    if (state === HIGH) return 1;
    if (pull === 'up') return 1;
    if (pull === 'down') return 0;
    return state === INPUT_PULL_UP ? 1 : 0;
  };
  /** The SPI block whose SCK and MOSI reach this bus's cables, or -1. */
  const heardFrom = (bus) => {
    const sck = spiRole(bus.sck);
    const mosi = spiRole(bus.mosi);
    if (funcsel(bus.sck) !== FUNC_SPI || sck.role !== SPI_SCK) return -1;
    if (funcsel(bus.mosi) !== FUNC_SPI || mosi.role !== SPI_TX || mosi.instance !== sck.instance) return -1;
    return sck.instance;
  };
  const answersTo = (bus, instance) => {
    const miso = spiRole(bus.miso);
    return funcsel(bus.miso) === FUNC_SPI && miso.role === SPI_RX && miso.instance === instance;
  };
  const isLow = (sel) => {
    if (sel.gpio !== undefined) return level(sel.gpio, sel.pull ?? null) === 0;
    const decoder = decoders[sel.decoder];
    if (level(decoder.enable, decoder.enable_pull ?? null) !== 0) return false;
    let line = 0;
    decoder.address.forEach((gpio, bit) => { line |= level(gpio, decoder.address_pull ?? null) << bit; });
    return line === sel.output;
  };
  const refreshSelects = () => {
    for (let i = 0; i < chips.length; i++) {
      bufferOn[i] = isLow(entries[i].miso_enable ?? entries[i].select);
      const now = isLow(entries[i].select);
      if (now === selected[i]) continue;
      selected[i] = now;
      if (now) {
        chips[i].select();
        counts.transactions += 1;
        const instance = heardFrom(buses[entries[i].bus]);
        if (instance >= 0) counts.by_spi[instance].transactions += 1;
      }
    }
  };
  const hasRst = wiring.rst !== undefined && wiring.rst !== null;
  const refreshReset = () => {
    const low = hasRst && level(wiring.rst, wiring.rst_pull ?? null) === 0;
    for (const chip of chips) chip.setReset(low);
  };

  const exchange = (instance, mosi) => {
    counts.bytes += 1;
    counts.by_spi[instance].bytes += 1;
    let miso = null;
    for (let i = 0; i < chips.length; i++) {
      if (!selected[i] && !bufferOn[i]) continue;
      const bus = buses[entries[i].bus];
      const hears = selected[i] && heardFrom(bus) === instance;
      const drives = bufferOn[i] && answersTo(bus, instance);
      if (!hears && !drives) continue;
      // A selected chip hears the byte; otherwise its MISO is left to the buffer input's pull.
      const out = hears ? chips[i].transfer(mosi) : chips[i].floatingByte();
      if (!drives) continue;
      if (miso !== null) counts.conflicts += 1; // two buffers drive one MISO line: a wiring or driver bug
      miso = miso === null ? out : miso & out;
    }
    return miso ?? 0x00; // no buffer drives MISO: the pad's pull-down (RP2040 PADS_BANK0 reset value)
  };

  /** Connect to a chip: GPIO listeners, the SPI blocks' byte callbacks, one alarm per block. */
  function hook(target) {
    const watched = new Set();
    for (const entry of entries) {
      for (const sel of [entry.select, entry.miso_enable]) if (sel && sel.gpio !== undefined) watched.add(sel.gpio);
    }
    for (const decoder of decoders) {
      decoder.address.forEach((gpio) => watched.add(gpio));
      watched.add(decoder.enable);
    }
    // A pin's function changes with no level change when SPI takes it: the selects are re-read then too.
    for (const gpio of watched) target.gpio[gpio].addListener(refreshSelects);
    if (hasRst) target.gpio[wiring.rst].addListener(refreshReset);
    pending = [null, null];
    alarms = target.spi.map((spi, instance) => {
      const alarm = target.clock.createAlarm(() => {
        const value = pending[instance];
        pending[instance] = null;
        spi.completeTransmit(value);
      });
      spi.onTransmit = (mosi) => {
        pending[instance] = exchange(instance, mosi);
        if (stalled[instance]) return; // the byte never completes: the firmware waits in SPI
        const hz = spi.clockFrequency;
        alarm.schedule(hz ? Math.round((spi.dataBits * 1e9) / hz) : 0);
      };
      return alarm;
    });
    refreshSelects();
    refreshReset();
  }

  /** The Pico rebooted (twin.mjs): the same readers and tags, wired to the new chip. */
  function reattach(target) {
    base += current.clock.nanos;
    current = target;
    selected.fill(false);
    hook(target);
  }

  hook(mcu);

  const readerIndex = (value) => {
    if (!Number.isInteger(value) || value < 0 || value >= chips.length) throw new Error(`no reader ${value}`);
    return value;
  };
  const targets = (obj) => (obj.reader === undefined ? chips : [chips[readerIndex(obj.reader)]]);

  function counters() {
    return {
      now_us: clock(), transactions: counts.transactions, bytes: counts.bytes, conflicts: counts.conflicts,
      by_spi: counts.by_spi.map((c, i) => ({ ...c, hz: current.spi[i].clockFrequency })),
      by_reader: chips.map((c) => ({ transactions: c.transactions, bytes: c.bytes, transceives: c.transceives })),
    };
  }

  function command(obj) {
    switch (obj.cmd) {
      case 'place': {
        const readers = obj.readers ?? [obj.reader];
        const tag = field.place(parseUid(obj.uid), readers.map(readerIndex));
        return { ok: true, uid: tag.uid.toString('hex'), readers };
      }
      case 'straddle': {
        if (!Array.isArray(obj.readers) || obj.readers.length < 2) throw new Error('straddle needs two readers or more');
        field.place(parseUid(obj.uid), obj.readers.map(readerIndex));
        return { ok: true, readers: obj.readers };
      }
      case 'slide':
        field.slide(parseUid(obj.uid), obj.readers.map(readerIndex));
        return { ok: true, readers: obj.readers };
      case 'remove':
        return { ok: true, removed: field.remove(parseUid(obj.uid)) };
      case 'clear':
        for (const tag of [...field.tags.values()]) field.remove(tag.uid);
        return { ok: true };
      case 'unplug':
      case 'plug':
        targets(obj).forEach((c) => c.setUnplugged(obj.cmd === 'unplug'));
        return { ok: true };
      case 'overheat':
      case 'cool':
        targets(obj).forEach((c) => c.setHot(obj.cmd === 'overheat'));
        return { ok: true };
      case 'version': // a clone or another chip revision (takes effect at its next reset)
        targets(obj).forEach((c) => { c.version = obj.value & 0xff; });
        return { ok: true };
      case 'power_dip':
        targets(obj).forEach((c) => { if (c.answering()) c.powerOn(); });
        return { ok: true };
      case 'stall':
      case 'unstall': {
        const which = obj.spi === undefined ? [0, 1] : [obj.spi];
        for (const instance of which) {
          stalled[instance] = obj.cmd === 'stall';
          if (!stalled[instance] && current.spi[instance].busy) alarms[instance].schedule(0);
        }
        return { ok: true };
      }
      case 'counters':
        return { ok: true, ...counters() };
      case 'reader':
        return { ok: true, ...chips[readerIndex(obj.reader)].summary() };
      case 'version_reads': // when the firmware read a reader's VersionReg: its health check, once a scan
        return { ok: true, us: chips[readerIndex(obj.reader)].versionReads.slice() };
      case 'tags':
        return {
          ok: true,
          tags: Object.fromEntries([...field.tags.values()].map((t) => [t.uid.toString('hex'),
            { readers: [...t.antennas], state: STATE_NAMES[t.state], powered: t.fielded }])),
        };
      default:
        throw new Error(`unknown readers command ${JSON.stringify(obj.cmd)}`);
    }
  }

  return { command, counters, reattach, field, chips };
}

// ---- shared vectors (tests/pico/vectors/, recorded from the Python fake) ------------------------

/**
 * Replay one vector against chips sharing one field: each step is a tag event, a fault, or an SPI
 * transaction to reader `r` whose MISO bytes must match. Returns the mismatches (empty when the
 * port agrees with the fake).
 */
export function replayVector(vector) {
  let now = 0;
  const clock = () => now;
  const field = new Field(clock);
  const chips = [];
  for (let i = 0; i < (vector.readers ?? 1); i++) chips.push(new Chip(i, field, clock, vector.unplugged_miso ?? 0x00));
  field.chips = chips;
  const faults = {
    dip: (c) => c.powerOn(), unplug: (c) => c.setUnplugged(true), plug: (c) => c.setUnplugged(false),
    overheat: (c) => c.setHot(true), cool: (c) => c.setHot(false),
  };
  const problems = [];
  vector.steps.forEach((step, n) => {
    now = step.t;
    if (step.place) {
      field.place(parseUid(step.place), step.readers ?? [0]);
    } else if (step.remove) {
      field.remove(parseUid(step.remove));
    } else if (step.mosi) {
      const chip = chips[step.r ?? 0];
      chip.select();
      const mosi = Buffer.from(step.mosi, 'hex');
      const got = [...mosi].map((byte) => chip.transfer(byte));
      const want = step.miso === null ? null : Buffer.from(step.miso, 'hex');
      if (want && !got.every((b, i) => b === want[i])) {
        problems.push({ step: n, t: step.t, mosi: step.mosi, want: step.miso, got: Buffer.from(got).toString('hex') });
      }
    } else {
      for (const [what, act] of Object.entries(faults)) {
        if (step[what] !== undefined) act(chips[step[what] === true ? 0 : step[what]]);
      }
    }
  });
  return problems;
}
