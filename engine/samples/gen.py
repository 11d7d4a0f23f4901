#!/usr/bin/env python3
"""Generates the sample circuits of engine/samples/ (the app's presets).

Run from anywhere: `python3 engine/samples/gen.py`. The .cir files are committed; this script
is the record of how they were drawn, so a circuit can be redesigned by editing it here.

Each circuit is painted like in the original CREECIR: start from grass, carve the track with a
round brush along a closed centre line (clockwise, leaving the start zone eastwards), add
dead-end spurs and set pieces, then colour the decor: outer grass, infield in another green,
red/white kerbs on decor cells touching the track. A small checker (the same five rules as the
engine's VERIFCIR) refuses to write a conforming sample that is not; the engine's tests check
them again with the real implementation.
"""

import math
import os
import sys

W, H = 150, 100
HERE = os.path.dirname(os.path.abspath(__file__))


class Canvas:
    def __init__(self, fill="C"):
        self.g = [[fill] * W for _ in range(H)]

    def track(self, x, y):
        return 0 <= x < W and 0 <= y < H and self.g[y][x] == " "

    def put(self, x, y, ch=" "):
        if 0 < x < W - 1 and 0 < y < H - 1:
            self.g[y][x] = ch

    def put_any(self, x, y, ch):
        if 0 <= x < W and 0 <= y < H:
            self.g[y][x] = ch

    def capsule(self, a, b, ra, rb=None, ch=" "):
        """Every cell whose centre lies within the (linearly varying) radius of segment a-b."""
        rb = ra if rb is None else rb
        (x0, y0), (x1, y1) = a, b
        r = max(ra, rb)
        for y in range(int(min(y0, y1) - r) - 1, int(max(y0, y1) + r) + 2):
            for x in range(int(min(x0, x1) - r) - 1, int(max(x0, x1) + r) + 2):
                dx, dy = x1 - x0, y1 - y0
                L2 = dx * dx + dy * dy
                t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / L2))
                px, py = x0 + t * dx, y0 + t * dy
                rad = ra + t * (rb - ra)
                if (x - px) ** 2 + (y - py) ** 2 <= rad * rad + 1e-9:
                    self.put(x, y, ch)

    def loop(self, pts, r):
        """A closed centre line; `r` is one radius or a radius per point."""
        rs = r if isinstance(r, list) else [r] * len(pts)
        for i in range(len(pts)):
            j = (i + 1) % len(pts)
            self.capsule(pts[i], pts[j], rs[i], rs[j])

    def path(self, pts, r, ch=" "):
        for a, b in zip(pts, pts[1:]):
            self.capsule(a, b, r, r, ch)

    def rect(self, x0, y0, x1, y1, ch=" "):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.put(x, y, ch)

    def start_zone(self):
        self.rect(20, 2, 59, 6)

    def text(self):
        return "".join("".join(row) + "\r\n" for row in self.g)


def neighbours8(x, y):
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                yield x + dx, y + dy


def components(g, is_member):
    comp = [[-1] * W for _ in range(H)]
    n = 0
    for sy in range(H):
        for sx in range(W):
            if comp[sy][sx] >= 0 or not is_member(g[sy][sx]):
                continue
            stack = [(sx, sy)]
            comp[sy][sx] = n
            while stack:
                x, y = stack.pop()
                for nx, ny in neighbours8(x, y):
                    if 0 <= nx < W and 0 <= ny < H and comp[ny][nx] < 0 and is_member(g[ny][nx]):
                        comp[ny][nx] = n
                        stack.append((nx, ny))
            n += 1
    return comp, n


def check(g):
    """Returns the list of violated rule numbers (2..5) of the spec."""
    bad = set()
    for x in range(W):
        if g[0][x] == " " or g[H - 1][x] == " ":
            bad.add(2)
    for y in range(H):
        if g[y][0] == " " or g[y][W - 1] == " ":
            bad.add(2)
    for y in range(2, 7):
        for x in range(20, 60):
            if g[y][x] != " ":
                bad.add(3)
    dec, nd = components(g, lambda c: c != " ")
    outer = set()
    for x in range(W):
        outer.add(dec[0][x]); outer.add(dec[H - 1][x])
    for y in range(H):
        outer.add(dec[y][0]); outer.add(dec[y][W - 1])
    outer.discard(-1)
    inner = [c for c in range(nd) if c not in outer]
    if len(inner) != 1:
        bad.add(4)
    _, nt = components(g, lambda c: c == " ")
    if nt != 1:
        bad.add(4)
    if g[4][40] == " ":
        top = 4
        while top - 1 >= 0 and g[top - 1][40] == " ":
            top -= 1
        bot = 4
        while bot + 1 < H and g[bot + 1][40] == " ":
            bot += 1
        above = dec[top - 1][40] if top > 0 else "out"
        below = dec[bot + 1][40] if bot < H - 1 else "out"
        kinds = {("outer" if (c == "out" or c in outer) else c) for c in (above, below)}
        if not (len(inner) >= 1 and kinds == {"outer", inner[0]} and len(inner) == 1):
            bad.add(4)
    if len(inner) == 1:
        infield = inner[0]
        for y in range(H):
            for x in range(W):
                if g[y][x] != " ":
                    continue
                o = i = False
                for nx, ny in neighbours8(x, y):
                    if not (0 <= nx < W and 0 <= ny < H):
                        o = True
                    elif g[ny][nx] != " ":
                        o |= dec[ny][nx] in outer
                        i |= dec[ny][nx] == infield
                if o and i:
                    bad.add(5)
    return sorted(bad)


def decorate(c, outer_ch="C", infield_ch="K", kerbs=True):
    """Colours the decor (display only): outer and infield greens, red/white kerbs."""
    g = c.g
    dec, nd = components(g, lambda ch: ch != " ")
    outer = {dec[0][0]}
    for x in range(W):
        outer.add(dec[0][x]); outer.add(dec[H - 1][x])
    for y in range(H):
        outer.add(dec[y][0]); outer.add(dec[y][W - 1])
    for y in range(H):
        for x in range(W):
            if g[y][x] == " " or g[y][x] not in "CK":
                continue
            g[y][x] = outer_ch if dec[y][x] in outer else infield_ch
    if kerbs:
        for y in range(H):
            for x in range(W):
                if g[y][x] != " " and any(c.track(nx, ny) for nx, ny in neighbours8(x, y)):
                    g[y][x] = "J" if ((x + y) // 2) % 2 == 0 else "P"


def arc(cx, cy, rx, ry, a0, a1, n):
    """Points on an ellipse, angles in degrees (0 = east, 90 = south: y grows downwards)."""
    return [
        (cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
         cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n)))
        for i in range(n + 1)
    ]


# --------------------------------------------------------------------------------------------
# Conforming circuits. Every centre line runs clockwise from the start zone (top, heading east).

def fast_ring():
    """A wide, fast stadium: two long straights and round ends."""
    c = Canvas()
    pts = ([(24, 4), (110, 4)] + arc(110, 49, 35, 45, -90, 90, 24)[1:]
           + [(34, 94)] + arc(34, 49, 28, 45, 90, 270, 24)[1:-1])
    c.loop(pts, 3.6)
    c.start_zone()
    return c


def street():
    """A city circuit: right-angle corners around blocks, narrow streets, a chicane."""
    c = Canvas("H")
    pts = [(22, 4), (100, 4), (100, 20), (140, 20), (140, 50), (118, 50), (118, 70),
           (140, 70), (140, 94), (80, 94), (80, 78), (56, 78), (56, 94), (10, 94),
           (10, 60), (30, 60), (30, 36), (10, 36), (10, 4)]
    c.loop(pts, 2.6)
    c.start_zone()
    # A chicane on the long bottom street: two kerb blocks from alternate sides.
    c.rect(104, 95, 107, 96, "H")
    c.rect(112, 92, 115, 93, "H")
    decorate(c, outer_ch="H", infield_ch="H")
    return c


def hairpins():
    """Down and up the grid through tight hairpins."""
    c = Canvas()
    pts = [(24, 4), (138, 4), (138, 90), (118, 90), (118, 30), (100, 30), (100, 90),
           (80, 90), (80, 30), (62, 30), (62, 94), (12, 94), (12, 4)]
    c.loop(pts, 3.1)
    c.start_zone()
    return c


def serpentine():
    """A long sine-wave esses section on the way back."""
    c = Canvas()
    back = [(140 - i * 2, 70 + 16 * math.sin(i * 2 * math.pi / 22)) for i in range(0, 66)]
    pts = [(24, 4), (130, 4), (142, 16), (142, 60)] + back + [(10, 60), (10, 10)]
    c.loop(pts, 3.0)
    c.start_zone()
    return c


def traps():
    """Dead ends that lure a greedy pilot: spurs off the racing line that lead nowhere."""
    c = Canvas()
    pts = [(24, 4), (120, 4), (140, 24), (140, 90), (14, 90), (14, 12)]
    c.loop(pts, 3.4)
    c.start_zone()
    # Spurs into the outer decor and into the infield, all closed at the end.
    c.path([(60, 4), (72, 16)], 2.5)      # the "short cut" that stops in the infield
    c.path([(140, 50), (120, 50), (120, 40)], 2.5)
    c.path([(80, 90), (80, 70)], 2.5)
    c.path([(14, 60), (34, 60)], 2.5)
    c.path([(100, 4), (108, -2)], 1.0)
    return c


def narrow():
    """2-wide passages: the minimum width the rules allow, straight and in steps."""
    c = Canvas()
    c.loop([(24, 4), (120, 4), (140, 20), (140, 90), (14, 90), (14, 12)], 3.0)
    c.start_zone()
    # Narrow the right-hand side and the bottom to exactly two cells.
    inner = Canvas()
    # Rebuild: fill the right-hand straight and the bottom straight with decor, then carve 2-wide.
    c.rect(133, 30, 147, 80, "C")
    c.rect(139, 30, 140, 80, " ")
    c.rect(40, 83, 110, 97, "C")
    c.rect(40, 89, 110, 90, " ")
    del inner
    return c


def diagonals():
    """Corridors at 45° and at shallow angles, where the collision test's ties matter."""
    c = Canvas()
    pts = [(24, 4), (90, 4), (140, 54), (140, 70), (116, 94), (70, 94), (40, 64), (12, 92), (8, 20)]
    c.loop(pts, 3.2)
    c.start_zone()
    return c


def spiral_infield():
    """A technical circuit: a long straight, then a tightening spiral-like infield section."""
    c = Canvas()
    pts = [(24, 4), (140, 4), (140, 94), (104, 94), (104, 40), (84, 40), (84, 74), (64, 74),
           (64, 30), (40, 30), (40, 94), (10, 94), (10, 8)]
    c.loop(pts, 2.8)
    c.start_zone()
    return c


def needle():
    """Narrow corridors at 45° and at shallow angles, the hardest case for the collision test:
    there, whether a move is legal hangs on the half-pixel ties of the referee's Bresenham."""
    c = Canvas()
    c.path([(24, 4), (100, 4)], 2.6)
    c.path([(100, 4), (138, 42)], 1.6)          # 45°, narrow
    c.path([(138, 42), (138, 88)], 2.6)
    c.path([(138, 88), (60, 94)], 1.6)          # shallow slope, narrow
    c.path([(60, 94), (14, 60)], 1.8)           # about 36°, narrow
    c.path([(14, 60), (14, 12), (24, 4)], 2.6)
    c.start_zone()
    return c


def scenery(c, x0, y0, x1, y1, ch):
    """Paints decor (never track) in a rectangle: lakes, stands, woods. Display only."""
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            if 0 <= x < W and 0 <= y < H and c.g[y][x] != " ":
                c.g[y][x] = ch


SCENERY = {
    "ring": [(60, 35, 90, 60, "M"), (64, 39, 86, 56, "E")],
    "hairpins": [(20, 15, 50, 40, "D")],
    "serpentine": [(40, 20, 110, 40, "M")],
    "spiral": [(110, 20, 130, 80, "D")],
    "needle": [(40, 30, 100, 50, "G")],
}


CONFORMING = [
    ("ring", fast_ring),
    ("street", street),
    ("hairpins", hairpins),
    ("serpentine", serpentine),
    ("traps", traps),
    ("narrow", narrow),
    ("diagonals", diagonals),
    ("spiral", spiral_infield),
    ("needle", needle),
]


# --------------------------------------------------------------------------------------------
# Non-conforming circuits, one per rule (each violates its rule and, where possible, only it).

def bad_size():
    """Rule 1: 99 lines (the last line of the ring is missing)."""
    lines = fast_ring_decorated().text().split("\r\n")
    return "\r\n".join(lines[:99]) + "\r\n"


def fast_ring_decorated():
    c = fast_ring()
    decorate(c)
    return c


def bad_border():
    """Rule 2: the track touches the right-hand edge."""
    c = fast_ring()
    c.rect(140, 45, 147, 50)
    decorate(c)
    for y in range(45, 51):
        c.put_any(149, y, " ")
        c.put_any(148, y, " ")
    return c


def bad_start():
    """Rule 3: a tree stands in the start zone."""
    c = fast_ring()
    decorate(c)
    c.g[3][30] = "C"
    return c


def bad_islands():
    """Rule 4: an island in the middle of the track and a separate pond of track."""
    c = fast_ring()
    c.rect(80, 92, 82, 95, "B")   # an island in the bottom straight
    c.rect(60, 40, 70, 50, " ")  # an unreachable pond in the infield
    decorate(c)
    return c


def bad_width():
    """Rule 5: a one-cell gap where the track is a single cell wide."""
    c = fast_ring()
    c.rect(2, 40, 30, 60, "C")
    c.rect(9, 40, 9, 60, " ")
    decorate(c)
    return c


NON_CONFORMING = [
    ("bad_size", bad_size, 1),
    ("bad_border", bad_border, 2),
    ("bad_start", bad_start, 3),
    ("bad_islands", bad_islands, 4),
    ("bad_width", bad_width, 5),
]


def main():
    ok = True
    for name, make in CONFORMING:
        c = make()
        if name != "street":
            decorate(c)
        for x0, y0, x1, y1, ch in SCENERY.get(name, []):
            scenery(c, x0, y0, x1, y1, ch)
        bad = check(c.g)
        if bad:
            print(f"{name}: violates rules {bad}", file=sys.stderr)
            ok = False
        with open(os.path.join(HERE, name + ".cir"), "w", newline="") as f:
            f.write(c.text())
    for name, make, rule in NON_CONFORMING:
        c = make()
        text = c if isinstance(c, str) else c.text()
        if not isinstance(c, str):
            bad = check(c.g)
            if rule not in bad:
                print(f"{name}: should violate rule {rule}, violates {bad}", file=sys.stderr)
                ok = False
        with open(os.path.join(HERE, name + ".cir"), "w", newline="") as f:
            f.write(text)
    if "--preview" in sys.argv:
        for name, make in CONFORMING + [(n, m) for n, m, _ in NON_CONFORMING[1:]]:
            c = make()
            print(name)
            for y in range(0, H, 2):
                print("".join("." if c.g[y][x] == " " else "#" for x in range(0, W, 1)))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
