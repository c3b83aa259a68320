"""What the host can light and sound: the WS2812 chain, the buzzer; and the status LED."""

import time

OFF = 0
ON = 1
BLINK = 2

_MIN_HZ = 20  # the piezo's useful range; the RP2040's PWM cannot go below ~8 Hz
_MAX_HZ = 20000


class Leds:
    """The WS2812 chain (LED i beside reader i), each LED off, on or blinking.

    ``pixels`` is a ``neopixel.NeoPixel``; the chain is rewritten only when
    what it shows changes, since a write stalls the loop for ~30 us per LED.
    """

    def __init__(self, pixels, count, blink_ms=500):
        self._pixels = pixels
        self.count = count
        self._blink_ms = blink_ms
        self._mode = bytearray(count)
        self._rgb = bytearray(3 * count)
        self._dirty = True
        self._phase = False

    def set(self, mode, red, green, blue, numbers):
        """An LED frame: ``numbers`` lists the LEDs (bytes); empty means all.

        LEDs past the end of the chain are ignored.
        """
        for led in numbers or range(self.count):
            if led < self.count:
                self._mode[led] = mode
                self._rgb[3 * led] = red
                self._rgb[3 * led + 1] = green
                self._rgb[3 * led + 2] = blue
        self._dirty = True

    def off(self):
        self.set(OFF, 0, 0, 0, b"")

    def get(self, led):
        """(mode, red, green, blue) of one LED."""
        at = 3 * led
        return self._mode[led], self._rgb[at], self._rgb[at + 1], self._rgb[at + 2]

    def _blinking(self):
        for mode in self._mode:  # (MicroPython has no ``int in bytearray``)
            if mode == BLINK:
                return True
        return False

    def update(self, now):
        """Show the current state; blinking LEDs are lit in the first half of each period."""
        phase = (now // self._blink_ms) & 1 == 0
        if phase != self._phase:
            self._phase = phase
            self._dirty = self._dirty or self._blinking()
        if not self._dirty:
            return
        self._dirty = False
        dark = (0, 0, 0)
        for led in range(self.count):
            mode = self._mode[led]
            if mode == ON or (mode == BLINK and phase):
                at = 3 * led
                self._pixels[led] = (self._rgb[at], self._rgb[at + 1], self._rgb[at + 2])
            else:
                self._pixels[led] = dark
        self._pixels.write()


class Buzzer:
    """A passive piezo on a PWM pin: a tone for a while, then silence."""

    def __init__(self, pwm):
        self._pwm = pwm
        self._until = None
        self.silence()

    def sound(self, frequency, duration_ms, now):
        """A BUZZER frame; frequency or duration 0 silences."""
        if frequency == 0 or duration_ms == 0:
            self.silence()
            return
        self._pwm.freq(min(max(frequency, _MIN_HZ), _MAX_HZ))
        self._pwm.duty_u16(32768)  # a square wave: the loudest a piezo gets
        self._until = time.ticks_add(now, duration_ms)

    def silence(self):
        self._pwm.duty_u16(0)
        self._until = None

    def update(self, now):
        if self._until is not None and time.ticks_diff(now, self._until) >= 0:
            self.silence()


class StatusLed:
    """The Pico's own LED: blinks while the host has not welcomed the board, steady once it has."""

    def __init__(self, pin, blink_ms=500):
        self._pin = pin
        self._blink_ms = blink_ms

    def update(self, now, welcomed):
        self._pin.value(1 if welcomed or (now // self._blink_ms) & 1 == 0 else 0)
