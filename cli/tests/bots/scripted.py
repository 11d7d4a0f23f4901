#!/usr/bin/env python3
"""A Paper Soccer test player speaking the serial protocol on stdin/stdout.

It knows the protocol, not the rules: it answers each turn signal with the next turn of a
script given on the command line, and starts the script again at every new game (`w`).

    scripted.py [options] TURN...

Options shape how it misbehaves, to test the referee:
  --garbage         wrap every turn in bytes the referee must ignore
  --chunked         send each turn one byte at a time, with small pauses
  --quit-after N    exit (closing both pipes) instead of playing turn N+1
  --silent-after N  keep reading but never answer after N turns
  --raw             send the script's items as raw bytes (escapes like \\n allowed), no framing
  --check-size W L  exit with status 3 unless the set-up announced W x L
"""

import os
import sys
import time


def main(argv):
    garbage = chunked = raw = False
    quit_after = silent_after = None
    check = None
    script = []
    args = iter(argv)
    for a in args:
        if a == "--garbage":
            garbage = True
        elif a == "--chunked":
            chunked = True
        elif a == "--raw":
            raw = True
        elif a == "--quit-after":
            quit_after = int(next(args))
        elif a == "--silent-after":
            silent_after = int(next(args))
        elif a == "--check-size":
            check = (int(next(args)), int(next(args)))
        else:
            script.append(a)

    def write_all(data):
        while data:
            data = data[os.write(1, data) :]

    def send(data):
        if chunked:
            for i in range(len(data)):
                write_all(data[i : i + 1])
                time.sleep(0.002)
        else:
            write_all(data)

    played = 0
    state = None  # the message being read: b"w", b"l", b"c", b"{" or None
    value = None
    sizes = {}
    digits = b""
    while True:
        chunk = os.read(0, 4096)
        if not chunk:
            return 0
        for b in chunk:
            byte = bytes([b])
            signal = False
            if state in (b"w", b"l"):
                if value is None:
                    value = b  # raw size byte, even if it is 0x0A
                    continue
                if byte == b"\n":
                    sizes[state] = value
                state, value = None, None
                continue
            if state == b"c":
                if byte == b"\n":
                    if check and (sizes.get(b"w"), sizes.get(b"l")) != check:
                        sys.stderr.write("scripted.py: wrong size %r\n" % sizes)
                        return 3
                    state = None
                continue
            if state == b"{":
                if byte == b"}":
                    state = None
                    signal = True
                else:
                    digits += byte
            elif byte in (b"w", b"l"):
                state, value = byte, None
                if byte == b"w":
                    played = 0  # a new game: the script starts again
                continue
            elif byte == b"c":
                state = b"c"
                continue
            elif byte == b"{":
                state, digits = b"{", b""
                continue
            if not signal:
                continue
            if quit_after is not None and played >= quit_after:
                return 0
            if (silent_after is not None and played >= silent_after) or played >= len(script):
                continue
            turn = script[played].encode()
            played += 1
            if raw:
                data = turn.decode("unicode_escape").encode("latin-1")
            elif garbage:
                data = b"hello\r\n 8 9 {" + b" ".join(bytes([d]) for d in turn) + b"\x00}\r\nxyz"
            else:
                data = b"{" + turn + b"}\n"
            send(data)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
