// The `#/board` page's manual console, as the tests that drive a board by hand use it.

/**
 * Sends a kick-off by hand (`w 8`, `l 10`, `c r`, `{}`) from `side`'s console and waits (up to
 * two minutes) until the board's monitor shows its first turn (`{…}`).
 */
export async function kickOffByHand(page, side) {
  await page.fill(`[data-testid="console-input-${side}"]`, 'w\\x08\\nl\\x0a\\ncr\\n{}\\n');
  await page.click(`[data-testid="console-send-${side}"]`);
  await page.waitForFunction(
    (side) => [...document.querySelectorAll(`[data-testid="board-slot-${side}"] [data-dir="rx"]`)]
      .some((r) => /^\{[0-7]+\}$/.test(r.dataset.label)),
    side,
    { timeout: 120_000 },
  );
}
