/*
 * crawler: a pilot program in C (spec §7), built for WASI with clang and wasi-libc:
 *
 *   clang --target=wasm32-wasi --sysroot=/usr -O2 -o crawler.wasm crawler.c
 *
 * It never drives faster than one cell per move on either axis, and finds the fewest such
 * moves round the circuit with a breadth-first search over (position, velocity, crossing
 * count). A move of at most one cell per axis only visits its end cell, so the referee's
 * collision test reduces to "the end cell is track" (spec §3).
 *
 * Contract: argument 1 is the circuit's file name, in the current directory; the lap goes to
 * "<own stem>.F1" there (the stem of argument 0, e.g. "crawler" for "crawler.wasm").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 150
#define H 100
#define LAYERS 3             /* crossing counts 0, -1, -2 */
#define VELS 9               /* vx, vy in -1..1 */
#define STATES (LAYERS * VELS * H * W)
#define START_X 40
#define START_Y 4
#define LINE_X 40

static char track[H][W];     /* 1 where the cell is track */
static int parent[STATES];   /* -1 unvisited, -2 reached by the first move */
static int queue[STATES];
static int line_top, line_bottom;

static int index_of(int x, int y, int vx, int vy, int layer) {
    return ((layer * VELS + (vx + 1) * 3 + (vy + 1)) * H + y) * W + x;
}

static void unpack(int s, int *x, int *y, int *vx, int *vy, int *layer) {
    *x = s % W;
    s /= W;
    *y = s % H;
    s /= H;
    int v = s % VELS;
    *layer = s / VELS;
    *vx = v / 3 - 1;
    *vy = v % 3 - 1;
}

static int is_track(int x, int y) {
    return x >= 0 && x < W && y >= 0 && y < H && track[y][x];
}

/* +1 for a counted left-to-right crossing of column 40, -1 right-to-left, else 0.
 * Left is x < 40. For unit moves the crossing point y* is y1 (left to right) or y0. */
static int crossing(int x0, int y0, int x1, int y1) {
    int left0 = x0 < LINE_X, left1 = x1 < LINE_X;
    if (left0 == left1) return 0;
    int y = left0 ? y1 : y0;
    if (y < line_top || y > line_bottom) return 0;
    return left0 ? 1 : -1;
}

static int read_circuit(const char *name) {
    FILE *f = fopen(name, "rb");
    if (!f) { perror(name); return -1; }
    int x = 0, y = 0, c, prev = 0;
    while ((c = fgetc(f)) != EOF && y < H) {
        if (c == '\n' && prev == '\r') { prev = c; continue; }
        prev = c;
        if (c == '\r' || c == '\n') { y++; x = 0; continue; }
        if (x < W) track[y][x] = (c == ' ');
        x++;
    }
    fclose(f);
    if (!track[START_Y][START_X]) { fprintf(stderr, "%s: (40,4) is not track\n", name); return -1; }
    line_top = line_bottom = START_Y;
    while (is_track(LINE_X, line_top - 1)) line_top--;
    while (is_track(LINE_X, line_bottom + 1)) line_bottom++;
    return 0;
}

/* Writes the lap that ends with the move from state `last` to (to_x, to_y). The search is
 * over, so its queue holds the path (read back from the parents). */
static int write_lap(const char *stem, const char *circuit, int last, int to_x, int to_y) {
    int n = 0;
    for (int s = last; s >= 0; s = parent[s]) queue[n++] = s;
    char out[256];
    snprintf(out, sizeof out, "%s.F1", stem);
    FILE *f = fopen(out, "wb");
    if (!f) { perror(out); return -1; }
    fprintf(f, "%s\r\n%s\r\n%d,%d\r\n", stem, circuit, START_X, START_Y);
    for (int i = n - 1; i >= 0; i--) {
        int x, y, vx, vy, layer;
        unpack(queue[i], &x, &y, &vx, &vy, &layer);
        fprintf(f, "%d,%d\r\n", x, y);
    }
    fprintf(f, "%d,%d\r\n", to_x, to_y);
    return fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: crawler CIRCUIT.cir\n"); return 2; }
    char stem[200];
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    snprintf(stem, sizeof stem, "%s", base);
    char *dot = strrchr(stem, '.');
    if (dot) *dot = '\0';
    if (read_circuit(argv[1]) != 0) return 1;

    memset(parent, -1, sizeof parent);
    int head = 0, tail = 0;
    for (int dy = -1; dy <= 1; dy++) {           /* the first move: (41,3), (41,4), (41,5) */
        int x = START_X + 1, y = START_Y + dy;
        if (!is_track(x, y)) continue;
        int s = index_of(x, y, 1, dy, 0);
        parent[s] = -2;
        queue[tail++] = s;
    }
    while (head < tail) {
        int s = queue[head++];
        int x, y, vx, vy, layer;
        unpack(s, &x, &y, &vx, &vy, &layer);
        for (int ay = -1; ay <= 1; ay++) {
            for (int ax = -1; ax <= 1; ax++) {
                int nvx = vx + ax, nvy = vy + ay;
                if (nvx < -1 || nvx > 1 || nvy < -1 || nvy > 1) continue;
                int nx = x + nvx, ny = y + nvy;
                if (!is_track(nx, ny)) continue;
                int count = -layer + crossing(x, y, nx, ny);
                if (count == 1) return write_lap(stem, argv[1], s, nx, ny) == 0 ? 0 : 1;
                if (count < -(LAYERS - 1)) continue;
                int t = index_of(nx, ny, nvx, nvy, -count);
                if (parent[t] != -1) continue;
                parent[t] = s;
                queue[tail++] = t;
            }
        }
    }
    fprintf(stderr, "%s: no lap at one cell per move\n", argv[1]);
    return 1;
}
