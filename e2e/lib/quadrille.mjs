// The `quadrille` command for tests that compare the page with the CLI: the one
// `cargo xtask test` built (QUADRILLE_BIN), or built here once with cargo.

import { execFileSync } from 'node:child_process';

let found;

// The path of the `quadrille` binary; `release` picks the profile when cargo must build it.
export function findQuadrille({ release = false } = {}) {
  if (process.env.QUADRILLE_BIN) return process.env.QUADRILLE_BIN;
  if (found) return found;
  const args = ['build', ...(release ? ['--release'] : []), '-p', 'cli', '--bin', 'quadrille',
    '--message-format=json'];
  const out = execFileSync('cargo', args, {
    cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8', maxBuffer: 1 << 26,
  });
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line);
    if (message.reason === 'compiler-artifact' && message.target?.name === 'quadrille' && message.executable) {
      found = message.executable;
      return found;
    }
  }
  throw new Error('cargo built no quadrille binary');
}
