#!/bin/sh
# A pilot that moves off the start and stops there for good: it never finishes a lap.
# Spec §7: the circuit file name is the one argument; the result goes to <itself>.F1 here.
printf 'Stubborn\r\n%s\r\n40,4\r\n41,4\r\n41,4\r\n' "$1" > stubborn.F1
