import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog, User } from '../support/models';
import { testApp } from '../support/app';
import { cliHere, npmRunCli } from '../support/cli';
import { useTestDatabase } from '../support/db';
import { freePort } from '../support/processes';

function envWithout(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  delete env.TEST_DATABASE_URL;
  delete env.VITEST;
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  return env;
}

// `npm run cli` is proved once per database (DATABASE_URL, the embedded one), with an exit code of each kind; each
// process is npm and Node compiling the TypeScript as it starts, seconds of CPU. The commands' rules and messages run
// here, through the same runCli the entry calls, with the same arguments and environment.
describe('npm run cli against DATABASE_URL', { timeout: 240_000 }, () => {
  const database = useTestDatabase();

  it('prints a one-time sign-in link that signs in', async () => {
    const { code, stdout } = await npmRunCli(
      ['login-link', 'Ops@Example.com', '--redirect', '/admin/'],
      envWithout({ DATABASE_URL: database().url }),
    );
    expect(code).toBe(0);
    const link = new URL(stdout.trim());
    expect(link.pathname).toBe('/login/continue');
    const consumed = await request(testApp(database().db))
      .post('/api/store/auth/email/consume')
      .send({ email: link.searchParams.get('email'), token: link.searchParams.get('token') });
    expect(consumed.status).toBe(200);
    expect(consumed.body.redirectTo).toBe('/admin/');
  });

  it('refuses wrong arguments with exit code 2, the reason and the usage on stderr', async () => {
    const wrong = await npmRunCli(
      ['grant-role', 'boss@example.com', 'wizard'],
      envWithout({ DATABASE_URL: database().url }),
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('"wizard" is not a role');
    expect(wrong.stderr).toContain('Usage: npm run cli -- <command>');
  });

  it('grants and revokes roles, audited, and refuses unknown roles', async () => {
    const env = envWithout({ DATABASE_URL: database().url });
    expect((await cliHere(['grant-role', 'boss@example.com', 'admin'], env)).stdout).toBe(
      'boss@example.com: admin, learner\n',
    );
    expect((await cliHere(['revoke-role', 'boss@example.com', 'learner'], env)).stdout).toBe(
      'boss@example.com: admin\n',
    );
    expect((await User.query(database().db).findOne({ email: 'boss@example.com' }))?.roles).toEqual(['admin']);
    expect(await AuditLog.query(database().db).where({ resource: 'users', actorEmail: 'cli' }).resultSize()).toBe(2);

    const last = await cliHere(['revoke-role', 'boss@example.com', 'admin'], env);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('last administrator');

    const wrong = await cliHere(['grant-role', 'boss@example.com', 'wizard'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"wizard" is not a role');
    const nobody = await cliHere(['revoke-role', 'nobody@example.com', 'admin'], env);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('No user with the email nobody@example.com');
  });
});

describe('npm run cli against the embedded database', { timeout: 240_000 }, () => {
  const root = mkdtempSync(path.join(tmpdir(), 'lp-cli-'));
  chmodSync(root, 0o755);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('starts the embedded database when needed, and the change persists', async () => {
    const env = envWithout({
      EMBEDDED_PG_DIR: path.join(root, 'postgres'),
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    // The process initialises the database, changes it and stops it; what follows starts it again on the same data.
    const granted = await npmRunCli(['grant-role', 'someone@example.com', 'finance'], env);
    expect(granted.stdout).toBe('someone@example.com: finance, learner\n');
    const revoked = await cliHere(['revoke-role', 'someone@example.com', 'finance'], env);
    expect(revoked.stdout).toBe('someone@example.com: learner\n');
    const link = await cliHere(['login-link', 'someone@example.com'], env);
    expect(link.stdout).toMatch(/^http:\/\/localhost:3000\/login\/continue\?email=someone%40example\.com&token=/);
  });
});
