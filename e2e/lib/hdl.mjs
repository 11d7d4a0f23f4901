// The repository's Verilog, for the tests that synthesize it in the page.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HDL_SRC = fileURLToPath(new URL('../../hdl/src/', import.meta.url));

// The reference player's sources (hdl/src/*.v, sorted); its top module is `de2_115_top`.
export const PLAYER_SOURCES = readdirSync(HDL_SRC)
  .filter((name) => name.endsWith('.v'))
  .sort()
  .map((name) => join(HDL_SRC, name));
