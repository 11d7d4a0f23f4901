// A latch: the always @* block leaves q unassigned when en is low. hdl-sim simulates
// edge-triggered logic only, so loading this netlist must fail with an error that says so.
module latch (
  input en,
  input d,
  output reg q
);
  always @* if (en) q = d;
endmodule
