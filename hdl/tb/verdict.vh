// The verdict of a self-checking testbench (`tb_uart.v`, `tb_proto.v`, `tb_top.v`), printed as
// `hdl-sim/tests/hdl_testbenches.rs` reads it: `include it inside the module, add one to
// `errors` for every failed check (after printing why), and end with `finish_with_verdict`.

integer errors = 0;

// Prints PASS when no check failed, else FAIL with their count, and ends the simulation.
task finish_with_verdict;
    begin
        if (errors == 0) $display("PASS");
        else $display("FAIL (%0d errors)", errors);
        $finish;
    end
endtask
