// Benchmark harness for Verilator models, driven exactly like hdl-sim's bench: one cycle is
// a rising then a falling clock edge, eval() after each. Prints "SECONDS CHECKSUM".
//   cpu:    ./Vcpu CYCLES
//   player: ./Vde2_115_top CYCLES SW HEXBYTES   (UART bytes sent 8N1 at 434 cycles per bit)
//   pico:   ./Vpicorv32_soc CYCLES               (after 4 cycles of reset)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "verilated.h"
#ifdef PLAYER
#include "Vde2_115_top.h"
typedef Vde2_115_top Top;
#elif defined(PICO)
#include "Vpicorv32_soc.h"
typedef Vpicorv32_soc Top;
#else
#include "Vcpu.h"
typedef Vcpu Top;
#endif

int main(int argc, char** argv) {
    long cycles = argc > 1 ? atol(argv[1]) : 1000000;
    VerilatedContext ctx;
    Top top{&ctx};
    unsigned long checksum = 0;
#ifdef PLAYER
    unsigned sw = argc > 2 ? atoi(argv[2]) : 0;
    std::vector<int> line;  // pin level per cycle while sending
    if (argc > 3) {
        const char* h = argv[3];
        for (size_t i = 0; i + 1 < strlen(h); i += 2) {
            unsigned b = std::stoul(std::string(h + i, 2), nullptr, 16);
            int frame[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
            for (int k = 0; k < 8; k++) frame[1 + k] = (b >> k) & 1;
            for (int k = 0; k < 10; k++)
                for (int c = 0; c < 434; c++) line.push_back(frame[k]);
        }
    }
    top.CLOCK_50 = 0;
    top.SW = sw;
    top.UART_RXD = 1;
    top.KEY = 0xe;  // reset held
    top.eval();
    for (int i = 0; i < 16; i++) { top.CLOCK_50 = 1; top.eval(); top.CLOCK_50 = 0; top.eval(); }
    top.KEY = 0xf;
    top.eval();
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < cycles; i++) {
        int level = i < (long)line.size() ? line[i] : 1;
        if (top.UART_RXD != level) top.UART_RXD = level;
        checksum += top.UART_TXD;
        top.CLOCK_50 = 1; top.eval();
        top.CLOCK_50 = 0; top.eval();
    }
    checksum = checksum * 31 + top.LEDR;
#elif defined(PICO)
    top.clk = 0;
    top.rst = 1;
    top.eval();
    for (int i = 0; i < 4; i++) { top.clk = 1; top.eval(); top.clk = 0; top.eval(); }
    top.rst = 0;
    top.eval();
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < cycles; i++) {
        top.clk = 1; top.eval();
        top.clk = 0; top.eval();
    }
    checksum = top.out;
#else
    top.clk = 0;
    top.rst = 0;
    top.din = 0x1234;
    top.eval();
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < cycles; i++) {
        top.clk = 1; top.eval();
        top.clk = 0; top.eval();
    }
    checksum = top.dout * 256 + top.pc_out;
#endif
    auto t1 = std::chrono::steady_clock::now();
    printf("%.6f %lu\n", std::chrono::duration<double>(t1 - t0).count(), checksum);
    return 0;
}
