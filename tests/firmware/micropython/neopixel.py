"""A stand-in for MicroPython's ``neopixel`` module: keeps what was last written."""

instances = []  # every chain made, newest last


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # GRB on the wire, like the real one

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = [(0, 0, 0)] * n  # what __setitem__ set
        self.shown = [(0, 0, 0)] * n  # what the last write() sent down the chain
        self.writes = 0
        instances.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        if not 0 <= index < self.n:
            raise IndexError("LED index out of range")
        red, green, blue = colour
        for value in colour:
            if not 0 <= value <= 255:
                raise ValueError("colour value out of range")
        self.buf[index] = (red, green, blue)

    def __getitem__(self, index):
        return self.buf[index]

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def write(self):
        self.shown = list(self.buf)
        self.writes += 1
