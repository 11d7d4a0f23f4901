// The player: the field in block RAM, the opponent's turns applied to it, and a depth-first
// search over our own complete turns that answers `{digits}\n`.
//
// Field RAM: one byte per point at address {y, x}; bit d is set when the segment from the point
// in direction d (the protocol's digit: 0 = N, clockwise) is drawn. A point "had a line touching
// it" exactly when its byte is non-zero, which decides bounces. Goal points are not stored:
// stepping into a goal ends the game, so no segment behind the end lines is ever needed.
//
// Search: a DFS over our steps. Bounce chains push the tried direction index onto a stack RAM
// and draw the segment in the field; a pop undoes it. Every complete turn (a step onto an
// untouched point or into a goal) is scored and the best one is copied to the `best` RAM:
//   24'hFFFFFF                       a goal for us (the search stops at once)
//   {2'b01, safe, reply, progress, centre}
//                                    an ordinary turn ending at E. A bounded DFS of the
//                                    opponent's turns from E (the same stack, above ours) finds
//                                    `safe` = no reply reaches our goal, and `reply` = our
//                                    progress at the end of the opponent's most advanced
//                                    reply: a two-ply search with a greedy evaluation. It is cut
//                                    off (alpha-beta style) as soon as E cannot beat the best
//                                    turn. `progress` = rows E is ahead, `centre` = closeness of
//                                    E to the centre column. Without the check (SW[4] up),
//                                    `safe` = 1 and `reply` = `progress`.
//   2                                an own goal (only when nothing else exists)
//   1                                a stuck path (incomplete: we have lost anyway)
// The search ends when the DFS is exhausted, or when the cycle budget is spent and a complete
// turn is known, or at the hard limit. It then unwinds (undoing every drawn segment), replays
// the best turn into the field and sends it.
module player_core #(
    parameter integer DEPTH_AW = 12,       // stack depth 2^DEPTH_AW - 1 steps per turn
    parameter integer BUDGET_BASE = 14,    // budget = 2^(BUDGET_BASE + min(level, 10)) cycles
    parameter integer HARD_LOG2 = 25,      // never think more than 2^HARD_LOG2 cycles
    parameter integer OPP_LOG2 = 12        // cycles for each check of the opponent's reply
) (
    input  wire       clk,
    input  wire       rst,
    // From the protocol parser.
    input  wire       new_game,
    input  wire [7:0] width,
    input  wire [7:0] length,
    input  wire       red,
    input  wire       ev_empty,
    output wire       ev_pop,
    input  wire [3:0] ev_data,
    // Strength.
    input  wire [3:0] level,
    input  wire       check_en,
    // To the transmitter.
    output reg        tx_start,
    output reg  [7:0] tx_data,
    input  wire       tx_busy,
    // Status.
    output wire       thinking,
    output reg        game_over,
    output reg        have_game,
    output reg  [HARD_LOG2:0] last_think
);
    localparam [4:0]
        S_WAIT = 5'd0, S_EV = 5'd1, S_INIT = 5'd2, S_AP0 = 5'd3, S_AP1 = 5'd4, S_AP2 = 5'd5,
        S_THINK0 = 5'd6, S_THINK1 = 5'd7, S_NODE = 5'd8, S_ARRIVE = 5'd9, S_PUSH = 5'd10,
        S_NEXTI = 5'd11, S_EXH = 5'd12, S_EXH2 = 5'd13, S_POP1 = 5'd14, S_POP2 = 5'd15,
        S_UNW = 5'd16, S_COPY = 5'd17, S_COPYL = 5'd18, S_WIN = 5'd19, S_TX_OPEN = 5'd20,
        S_TX_K = 5'd21, S_TX_D = 5'd22, S_TX_CLOSE = 5'd23, S_TX_NL = 5'd24;

    localparam [23:0] SCORE_WIN = 24'hFFFFFF, SCORE_OWN = 24'd2, SCORE_STUCK = 24'd1;
    localparam [23:0] SAFE_BIT = 24'h200000;
    localparam [23:0] REPLY_MAX = 24'h1FE000;  // reply = 255: no reply found (yet)
    localparam [DEPTH_AW-1:0] DMAX = {DEPTH_AW{1'b1}};
    localparam [4:0] BUDGET_LOG2_0 = BUDGET_BASE[4:0];

    // ---------------------------------------------------------------------------------------
    // Registers.
    reg [4:0]  state;
    reg [4:0]  ap_ret;      // where the step-apply sequence returns
    reg [4:0]  rec_ret;     // where the best-turn copy returns
    reg [2:0]  ap_dir;
    reg [7:0]  bx, by;      // the ball
    reg [7:0]  ix, iy;      // field-clearing cursor
    reg [DEPTH_AW-1:0] d;   // search depth = steps on the stack
    reg [2:0]  i;           // index of the direction being tried at this depth
    reg [7:0]  mask_cur;    // the field byte of the ball's point (kept equal to the RAM's)
    reg [7:0]  mt_r;        // the byte of the point just arrived at, before the step
    reg        any_legal;   // a legal step exists from the current node
    reg        push_check;  // the push starts a check of the opponent's reply
    reg        opp_active;  // the levels >= base_opp belong to the opponent's reply search
    reg [DEPTH_AW-1:0] base_opp;
    reg        threat;      // the opponent's reply search found a goal into ours
    reg        unw;         // popping until d == unw_target
    reg        final_unw;   // ... and then sending the best turn
    reg [DEPTH_AW-1:0] unw_target;
    reg [23:0] cand;        // score of the end point under check, without safe and reply
    reg [7:0]  opp_min;     // our progress after the opponent's best reply found so far
    reg [23:0] best_score;
    reg [DEPTH_AW:0] best_len;
    reg [23:0] rec_score;
    reg        rec_last;    // the recorded turn ends with rec_dir after the stacked steps
    reg [2:0]  rec_dir;
    reg [DEPTH_AW:0] copy_k;
    reg [DEPTH_AW:0] tx_k;
    reg [HARD_LOG2:0] think_cyc;
    reg [4:0]  budget_log2;
    reg [OPP_LOG2:0] opp_cyc;
    reg        think_r;

    assign thinking = think_r;

    // ---------------------------------------------------------------------------------------
    // Direction helpers.

    // The i-th direction to try for a player attacking downwards (red) or upwards (blue):
    // straight at the goal first, then the diagonals, the sides, and backwards last.
    function [2:0] order;
        input down;
        input [2:0] idx;
        reg [2:0] o;
        begin
            case (idx)
                3'd0: o = 3'd4;
                3'd1: o = 3'd3;
                3'd2: o = 3'd5;
                3'd3: o = 3'd2;
                3'd4: o = 3'd6;
                3'd5: o = 3'd1;
                3'd6: o = 3'd7;
                default: o = 3'd0;
            endcase
            order = down ? o : (o ^ 3'd4);
        end
    endfunction

    function [7:0] bit_of;
        input [2:0] dir;
        begin
            bit_of = 8'd1 << dir;
        end
    endfunction

    // The drawn segments of the empty field at (x, y): side lines, end lines outside the
    // mouth, goal posts and the centre line.
    function [7:0] mask_init;
        input [7:0] x, y, w, l;
        reg [7:0] mm;
        reg side, endl, centre;
        begin
            mm = {1'b0, w[7:1]};
            side = (x == 8'd0) || (x == w);
            endl = (y == 8'd0) || (y == l);
            centre = (y == {1'b0, l[7:1]});
            mask_init = 8'd0;
            // N
            mask_init[0] = (side && y != 8'd0)
                || (y == 8'd0 && (x + 8'd1 == mm || x == mm + 8'd1));
            // S
            mask_init[4] = (side && y != l)
                || (y == l && (x + 8'd1 == mm || x == mm + 8'd1));
            // E
            mask_init[2] = x != w && ((endl && x + 8'd1 != mm && x != mm) || centre);
            // W
            mask_init[6] = x != 8'd0 && ((endl && x != mm && x != mm + 8'd1) || centre);
        end
    endfunction

    // ---------------------------------------------------------------------------------------
    // RAMs.
    wire       fld_we;
    wire [15:0] fld_waddr;
    wire [7:0] fld_wdata;
    wire [15:0] fld_raddr;
    wire [7:0] fld_rdata;

    ram_1r1w #(.AW(16), .DW(8)) field_ram (
        .clk(clk), .we(fld_we), .waddr(fld_waddr), .wdata(fld_wdata),
        .raddr(fld_raddr), .rdata(fld_rdata)
    );

    wire       stk_we = (state == S_PUSH);
    wire [DEPTH_AW-1:0] stk_raddr = (state == S_COPY) ? copy_k[DEPTH_AW-1:0] : d - 1'b1;
    wire [2:0] stk_rdata;

    ram_1r1w #(.AW(DEPTH_AW), .DW(3)) stack_ram (
        .clk(clk), .we(stk_we), .waddr(d), .wdata(i),
        .raddr(stk_raddr), .rdata(stk_rdata)
    );

    wire       best_we = (state == S_COPY && copy_k != 0) || (state == S_COPYL && rec_last);
    wire [DEPTH_AW-1:0] best_waddr = (state == S_COPY) ? copy_k[DEPTH_AW-1:0] - 1'b1 : d;
    wire [2:0] best_wdata = (state == S_COPY) ? order(red, stk_rdata) : rec_dir;
    wire [2:0] best_rdata;

    ram_1r1w #(.AW(DEPTH_AW), .DW(3)) best_ram (
        .clk(clk), .we(best_we), .waddr(best_waddr), .wdata(best_wdata),
        .raddr(tx_k[DEPTH_AW-1:0]), .rdata(best_rdata)
    );

    // ---------------------------------------------------------------------------------------
    // The step under consideration and its target point.
    wire       side_lvl = red ^ (opp_active && d >= base_opp);  // who moves at level d
    wire       side_now = red ^ opp_active;                     // who moves in S_NODE
    wire [2:0] node_dir = order(side_now, i);

    reg [2:0] dir;
    always @(*) begin
        case (state)
            S_POP1: dir = order(side_lvl, stk_rdata) ^ 3'd4;  // back towards the parent
            S_POP2: dir = order(side_lvl, i);
            S_AP0, S_AP1, S_AP2: dir = ap_dir;
            default: dir = node_dir;
        endcase
    end

    wire [2:0] rev = dir ^ 3'd4;
    wire dx_pos = (dir == 3'd1) || (dir == 3'd2) || (dir == 3'd3);
    wire dx_neg = (dir == 3'd5) || (dir == 3'd6) || (dir == 3'd7);
    wire dy_neg = (dir == 3'd7) || (dir == 3'd0) || (dir == 3'd1);
    wire dy_pos = (dir == 3'd3) || (dir == 3'd4) || (dir == 3'd5);
    wire [9:0] t_x = {2'b00, bx} + (dx_pos ? 10'd1 : dx_neg ? 10'h3ff : 10'd0);
    wire [9:0] t_y = {2'b00, by} + (dy_pos ? 10'd1 : dy_neg ? 10'h3ff : 10'd0);
    wire       in_field = !t_x[9] && !t_y[9] && (t_x[8:0] <= {1'b0, width})
                          && (t_y[8:0] <= {1'b0, length});
    wire [15:0] ball_addr = {by, bx};
    wire [15:0] t_addr = {t_y[7:0], t_x[7:0]};

    // Goal steps: from a mouth point of an end line into one of the three goal points, never
    // along a post (a vertical step from the mouth's ends) and never across a box corner.
    wire [8:0] m9 = {2'b00, width[7:1]};
    wire       bx_mouth = ({1'b0, bx} + 9'd1 >= m9) && ({1'b0, bx} <= m9 + 9'd1);
    wire       tx_mouth = !t_x[9] && (t_x[8:0] + 9'd1 >= m9) && (t_x[8:0] <= m9 + 9'd1);
    wire       goal_step = ((by == 8'd0 && dy_neg) || (by == length && dy_pos))
                           && bx_mouth && tx_mouth && (dx_pos || dx_neg || {1'b0, bx} == m9);
    wire       goal_by_red = dy_pos;  // the bottom goal is blue's: entering it is red's goal

    // Score of an ordinary end point t: rows advanced towards the goal we attack, then
    // closeness to the centre column.
    wire [7:0] progress = red ? t_y[7:0] : length - t_y[7:0];
    wire [7:0] off_centre = (t_x[7:0] >= {1'b0, width[7:1]}) ? t_x[7:0] - {1'b0, width[7:1]}
                                                           : {1'b0, width[7:1]} - t_x[7:0];
    wire [4:0] centre = (off_centre > 8'd31) ? 5'd0 : 5'd31 - off_centre[4:0];
    wire [23:0] ordinary = {2'b01, 1'b0, 8'd0, progress, centre};
    wire [23:0] unchecked = {2'b01, 1'b1, progress, progress, centre};
    // The opponent's replies so far, including one that ends at t.
    wire [7:0]  reply_min = (progress < opp_min) ? progress : opp_min;

    // The end point's scores, computed in S_NODE and used in S_ARRIVE (the ball, the index
    // and opp_min do not change in between), so that the target's arithmetic and the 24-bit
    // compares with the best score are in different cycles.
    reg [23:0] ordinary_r, unchecked_r;
    reg [7:0]  reply_min_r;
    always @(posedge clk) begin
        ordinary_r  <= ordinary;
        unchecked_r <= unchecked;
        reply_min_r <= reply_min;
    end
    wire may_beat = (ordinary_r | SAFE_BIT | REPLY_MAX) > best_score;
    wire unchecked_beats = unchecked_r > best_score;
    wire reply_cut = {2'b01, 1'b1, reply_min_r, cand[12:5], 5'h1f} <= best_score;

    wire [23:0] checked = cand | (threat ? 24'd0 : SAFE_BIT) | {3'd0, opp_min, 13'd0};

    // The budget is a power of two, so it is spent once bit budget_log2 of the counter has been
    // set (sticky, cleared when thinking starts). Registered: the search may overrun by a cycle.
    reg budget_hit;
    always @(posedge clk) begin
        if (state == S_THINK0) budget_hit <= 1'b0;
        else if (think_cyc[budget_log2]) budget_hit <= 1'b1;
    end
    wire hard_hit = think_cyc[HARD_LOG2];
    wire opp_hit = opp_cyc[OPP_LOG2];

    // ---------------------------------------------------------------------------------------
    // Field RAM ports.
    assign fld_raddr = (state == S_THINK0 || state == S_AP0) ? ball_addr : t_addr;

    reg       fw;
    reg [15:0] fwa;
    reg [7:0] fwd;
    always @(*) begin
        fw = 1'b0;
        fwa = ball_addr;
        fwd = 8'd0;
        case (state)
            S_INIT: begin
                fw = 1'b1;
                fwa = {iy, ix};
                fwd = mask_init(ix, iy, width, length);
            end
            S_ARRIVE: begin
                // Draw the arrival half of a step we are about to push.
                fw = (|fld_rdata) ? (d != DMAX)
                                  : (!opp_active && check_en && d != DMAX
                                     && may_beat);
                fwa = t_addr;
                fwd = fld_rdata | bit_of(rev);
            end
            S_PUSH: begin
                fw = 1'b1;
                fwd = mask_cur | bit_of(dir);
            end
            S_POP1: begin
                fw = 1'b1;
                fwd = mask_cur & ~bit_of(dir);
            end
            S_POP2: begin
                fw = 1'b1;
                fwd = fld_rdata & ~bit_of(dir);
            end
            S_AP1: begin
                fw = 1'b1;
                fwd = fld_rdata | bit_of(dir);
            end
            S_AP2: begin
                fw = 1'b1;
                fwa = t_addr;
                fwd = fld_rdata | bit_of(rev);
            end
            default: ;
        endcase
    end
    assign fld_we = fw;
    assign fld_waddr = fwa;
    assign fld_wdata = fwd;

    assign ev_pop = (state == S_WAIT) && !ev_empty;

    // tx_start is registered, so the transmitter reports busy only two cycles after a start.
    wire tx_free = !tx_busy && !tx_start;

    // Records a new best turn, the stacked steps then `last_dir`, scored `score`: copies it to
    // the best-turn memory (S_COPY, S_COPYL), then goes on in state `ret`. For the controller's
    // clocked block only (non-blocking assignments).
    task record_best;
        input [23:0] score;
        input [2:0]  last_dir;
        input [4:0]  ret;
        begin
            rec_score <= score;
            rec_last  <= 1'b1;
            rec_dir   <= last_dir;
            rec_ret   <= ret;
            copy_k    <= {(DEPTH_AW + 1) {1'b0}};
            state     <= S_COPY;
        end
    endtask

    // ---------------------------------------------------------------------------------------
    // The controller.
    always @(posedge clk) begin
        tx_start <= 1'b0;
        if (rst || new_game) begin
            state      <= S_WAIT;
            have_game  <= 1'b0;
            game_over  <= 1'b0;
            think_r    <= 1'b0;
            opp_active <= 1'b0;
            unw        <= 1'b0;
            final_unw  <= 1'b0;
            tx_data    <= 8'd0;
            if (rst) last_think <= {(HARD_LOG2 + 1) {1'b0}};
        end else begin
            if (think_r) think_cyc <= think_cyc + 1'b1;
            if (opp_active) opp_cyc <= opp_cyc + 1'b1;
            case (state)
                S_WAIT: if (!ev_empty) state <= S_EV;

                S_EV: begin
                    if (ev_data == 4'd9) begin
                        ix        <= 8'd0;
                        iy        <= 8'd0;
                        have_game <= 1'b1;
                        game_over <= 1'b0;
                        state     <= S_INIT;
                    end else if (!have_game || game_over) begin
                        state <= S_WAIT;
                    end else if (ev_data[3] == 1'b0) begin
                        ap_dir <= ev_data[2:0];
                        ap_ret <= S_WAIT;
                        state  <= S_AP0;
                    end else begin
                        state <= S_THINK0;  // `}`: our turn
                    end
                end

                S_INIT: begin
                    if (ix == width) begin
                        ix <= 8'd0;
                        iy <= iy + 1'b1;
                        if (iy == length) begin
                            bx    <= {1'b0, width[7:1]};
                            by    <= {1'b0, length[7:1]};
                            state <= S_WAIT;
                        end
                    end else begin
                        ix <= ix + 1'b1;
                    end
                end

                // Apply one step of a turn (the opponent's or ours) to the field.
                S_AP0: begin
                    if (t_y[9] || t_y[8:0] > {1'b0, length}) begin
                        game_over <= 1'b1;  // into a goal
                        state     <= ap_ret;
                    end else if (!in_field) begin
                        state <= ap_ret;    // cannot happen in a refereed game; ignore
                    end else begin
                        state <= S_AP1;
                    end
                end
                S_AP1: state <= S_AP2;
                S_AP2: begin
                    bx    <= t_x[7:0];
                    by    <= t_y[7:0];
                    state <= ap_ret;
                end

                // Search.
                S_THINK0: begin
                    think_r    <= 1'b1;
                    think_cyc  <= {(HARD_LOG2 + 1) {1'b0}};
                    budget_log2 <= BUDGET_LOG2_0 + ((level > 4'd10) ? 5'd10 : {1'b0, level});
                    d          <= {DEPTH_AW{1'b0}};
                    i          <= 3'd0;
                    any_legal  <= 1'b0;
                    opp_active <= 1'b0;
                    unw        <= 1'b0;
                    final_unw  <= 1'b0;
                    best_score <= 24'd0;
                    best_len   <= {(DEPTH_AW + 1) {1'b0}};
                    state      <= S_THINK1;
                end
                S_THINK1: begin
                    mask_cur <= fld_rdata;
                    state    <= S_NODE;
                end

                S_NODE: begin
                    if (!opp_active && (hard_hit || (budget_hit && best_score >= 24'd3))) begin
                        unw        <= 1'b1;
                        final_unw  <= 1'b1;
                        unw_target <= {DEPTH_AW{1'b0}};
                        state      <= S_UNW;
                    end else if (opp_active && opp_hit) begin
                        unw        <= 1'b1;
                        unw_target <= base_opp - 1'b1;
                        state      <= S_UNW;
                    end else if (goal_step) begin
                        any_legal <= 1'b1;
                        if (!opp_active) begin
                            if (goal_by_red == red) begin
                                record_best(SCORE_WIN, node_dir, S_WIN);
                            end else if (best_score < SCORE_OWN) begin
                                record_best(SCORE_OWN, node_dir, S_NEXTI);
                            end else begin
                                state <= S_NEXTI;
                            end
                        end else if (goal_by_red == red) begin
                            // The opponent's own goal: not a threat.
                            state <= S_NEXTI;
                        end else begin
                            threat     <= 1'b1;
                            unw        <= 1'b1;
                            unw_target <= base_opp - 1'b1;
                            state      <= S_UNW;
                        end
                    end else if (in_field && !mask_cur[dir]) begin
                        state <= S_ARRIVE;
                    end else if (i == 3'd7) begin
                        state <= S_EXH;
                    end else begin
                        i <= i + 1'b1;
                    end
                end

                S_ARRIVE: begin
                    any_legal <= 1'b1;
                    mt_r      <= fld_rdata;
                    if (|fld_rdata) begin
                        // A bounce: go on from there.
                        push_check <= 1'b0;
                        state      <= (d != DMAX) ? S_PUSH : S_NEXTI;
                    end else if (opp_active) begin
                        // The opponent's turn ends here without a goal.
                        opp_min <= reply_min_r;
                        if (reply_cut) begin
                            // Cut-off: our end point cannot beat the best turn any more.
                            unw        <= 1'b1;
                            unw_target <= base_opp - 1'b1;
                            state      <= S_UNW;
                        end else begin
                            state <= S_NEXTI;
                        end
                    end else if (!may_beat) begin
                        state <= S_NEXTI;  // cannot beat the best turn
                    end else if (!check_en || d == DMAX) begin
                        if (unchecked_beats) begin
                            record_best(unchecked_r, node_dir, S_NEXTI);
                        end else begin
                            state <= S_NEXTI;
                        end
                    end else begin
                        push_check <= 1'b1;  // end point: look at the opponent's replies
                        cand       <= ordinary_r;
                        state      <= S_PUSH;
                    end
                end

                S_PUSH: begin
                    d         <= d + 1'b1;
                    bx        <= t_x[7:0];
                    by        <= t_y[7:0];
                    mask_cur  <= mt_r | bit_of(rev);
                    i         <= 3'd0;
                    any_legal <= 1'b0;
                    if (push_check) begin
                        opp_active <= 1'b1;
                        base_opp   <= d + 1'b1;
                        opp_cyc    <= {(OPP_LOG2 + 1) {1'b0}};
                        threat     <= 1'b0;
                        opp_min    <= 8'hff;
                    end
                    state <= S_NODE;
                end

                S_NEXTI: begin
                    if (i == 3'd7) begin
                        state <= S_EXH;
                    end else begin
                        i     <= i + 1'b1;
                        state <= S_NODE;
                    end
                end

                S_EXH: begin
                    if (!opp_active && !any_legal && best_score == 24'd0) begin
                        rec_score <= SCORE_STUCK;
                        rec_last  <= 1'b0;
                        rec_ret   <= S_EXH2;
                        copy_k    <= {(DEPTH_AW + 1) {1'b0}};
                        state     <= S_COPY;
                    end else begin
                        state <= S_EXH2;
                    end
                end
                S_EXH2: begin
                    if (opp_active && d == base_opp) begin
                        unw        <= 1'b1;
                        unw_target <= base_opp - 1'b1;
                        state      <= S_UNW;
                    end else if (!opp_active && d == {DEPTH_AW{1'b0}}) begin
                        state <= S_TX_OPEN;
                    end else begin
                        d     <= d - 1'b1;
                        state <= S_POP1;
                    end
                end

                // Pop one level: stk_rdata is the index that led to the node being left.
                S_POP1: begin
                    bx    <= t_x[7:0];
                    by    <= t_y[7:0];
                    i     <= stk_rdata;
                    state <= S_POP2;
                end
                S_POP2: begin
                    mask_cur  <= fld_rdata & ~bit_of(dir);
                    any_legal <= 1'b1;
                    state     <= unw ? S_UNW : S_NEXTI;
                end

                S_UNW: begin
                    if (d != unw_target) begin
                        d     <= d - 1'b1;
                        state <= S_POP1;
                    end else begin
                        unw <= 1'b0;
                        if (final_unw) begin
                            state <= S_TX_OPEN;
                        end else begin
                            // The check of the opponent's replies is over.
                            opp_active <= 1'b0;
                            if (checked > best_score) begin
                                record_best(checked, order(red, i), S_NEXTI);
                            end else begin
                                state <= S_NEXTI;
                            end
                        end
                    end
                end

                // Copy the stacked path (and the last step) into the best-turn RAM.
                S_COPY: begin
                    if (copy_k == {1'b0, d}) state <= S_COPYL;
                    else copy_k <= copy_k + 1'b1;
                end
                S_COPYL: begin
                    best_score <= rec_score;
                    best_len   <= {1'b0, d} + {{DEPTH_AW{1'b0}}, rec_last};
                    state      <= rec_ret;
                end
                S_WIN: begin
                    unw        <= 1'b1;
                    final_unw  <= 1'b1;
                    unw_target <= {DEPTH_AW{1'b0}};
                    state      <= S_UNW;
                end

                // Send `{digits}\n`, applying each step to the field.
                S_TX_OPEN: begin
                    if (think_r) begin
                        think_r    <= 1'b0;
                        last_think <= think_cyc;
                    end
                    if (tx_free) begin
                        tx_start <= 1'b1;
                        tx_data  <= "{";
                        tx_k     <= {(DEPTH_AW + 1) {1'b0}};
                        state    <= S_TX_K;
                    end
                end
                S_TX_K: state <= (tx_k == best_len) ? S_TX_CLOSE : S_TX_D;
                S_TX_D: begin
                    if (tx_free) begin
                        tx_start <= 1'b1;
                        tx_data  <= {5'b00110, best_rdata};
                        tx_k     <= tx_k + 1'b1;
                        ap_dir   <= best_rdata;
                        ap_ret   <= S_TX_K;
                        state    <= S_AP0;
                    end
                end
                S_TX_CLOSE: begin
                    if (tx_free) begin
                        tx_start <= 1'b1;
                        tx_data  <= "}";
                        state    <= S_TX_NL;
                    end
                end
                S_TX_NL: begin
                    if (tx_free) begin
                        tx_start <= 1'b1;
                        tx_data  <= 8'h0a;
                        state    <= S_WAIT;
                    end
                end

                default: state <= S_WAIT;
            endcase
        end
    end
endmodule
