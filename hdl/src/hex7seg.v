// A seven-segment glyph, active low like the DE2-115's displays (bit 0 = segment a ...
// bit 6 = segment g). Codes 0-15 are hex digits; 16 and up are the few letters the status
// display needs.
module hex7seg (
    input  wire [4:0] code,
    output reg  [6:0] seg
);
    localparam [4:0] G_R = 5'd17, G_DASH = 5'd18, G_T = 5'd19, G_G = 5'd20,
                     G_O = 5'd21, G_I = 5'd22;
    always @(*) begin
        case (code)
            5'd0: seg = 7'b1000000;
            5'd1: seg = 7'b1111001;
            5'd2: seg = 7'b0100100;
            5'd3: seg = 7'b0110000;
            5'd4: seg = 7'b0011001;
            5'd5: seg = 7'b0010010;
            5'd6: seg = 7'b0000010;
            5'd7: seg = 7'b1111000;
            5'd8: seg = 7'b0000000;
            5'd9: seg = 7'b0010000;
            5'd10: seg = 7'b0001000;
            5'd11: seg = 7'b0000011;  // b
            5'd12: seg = 7'b1000110;
            5'd13: seg = 7'b0100001;  // d
            5'd14: seg = 7'b0000110;
            5'd15: seg = 7'b0001110;
            G_R: seg = 7'b0101111;     // r
            G_DASH: seg = 7'b0111111;  // -
            G_T: seg = 7'b0000111;     // t
            G_G: seg = 7'b0010000;     // g (like 9)
            G_O: seg = 7'b0100011;     // o
            G_I: seg = 7'b1111001;     // I
            default: seg = 7'b1111111; // blank
        endcase
    end
endmodule
