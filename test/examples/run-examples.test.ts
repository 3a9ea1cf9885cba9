// Every runnable example, run as a partner runs it (its own process, against the in-process fake), so none
// can rot: each must exit 0 and print what it promises.
import { describe, expect, it } from 'vitest';
import { runScript } from '../cli/cli-process.js';
import { EXAMPLE_OUTPUTS } from './expected-output.js';

// One at a time, with room for a loaded CI machine: each is a whole Node process compiling the SDK from source.
describe('examples', () => {
  it.each(EXAMPLE_OUTPUTS)(
    '%s runs against the fake and exits 0',
    { timeout: 60_000 },
    async (file, expected) => {
      const { status, stdout, stderr } = await runScript(file);
      expect(stderr).toBe('');
      expect(status).toBe(0);
      for (const pattern of expected) expect(stdout).toMatch(pattern);
    },
  );
});
