import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/src/config';

describe('a process that loads the embedded database', () => {
  it('keeps its own exit code (the library must not force 0 when the event loop drains)', () => {
    const script = "await import('./api/src/db/embedded.ts'); process.exitCode = 3;";
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(3);
  });
});
