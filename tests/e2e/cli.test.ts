import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/src/config';
import { AuditLog, User } from '../support/models';
import { testApp } from '../support/app';
import { useTestDatabase } from '../support/db';
import { freePort } from '../support/processes';

const run = promisify(execFile);

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: PROJECT_ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function envWithout(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  delete env.TEST_DATABASE_URL;
  delete env.VITEST;
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  return env;
}

// Each command is a Node process compiling TypeScript as it starts: 3 s here, ten times that on a loaded machine.
describe('npm run cli against DATABASE_URL', { timeout: 240_000 }, () => {
  const database = useTestDatabase();

  it('prints a one-time sign-in link that signs in', async () => {
    const { code, stdout } = await cli(
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

  it('grants and revokes roles, audited, and refuses unknown roles', async () => {
    const env = envWithout({ DATABASE_URL: database().url });
    expect((await cli(['grant-role', 'boss@example.com', 'admin'], env)).stdout).toBe(
      'boss@example.com: admin, learner\n',
    );
    expect((await cli(['revoke-role', 'boss@example.com', 'learner'], env)).stdout).toBe('boss@example.com: admin\n');
    expect((await User.query(database().db).findOne({ email: 'boss@example.com' }))?.roles).toEqual(['admin']);
    expect(await AuditLog.query(database().db).where({ resource: 'users', actorEmail: 'cli' }).resultSize()).toBe(2);

    const last = await cli(['revoke-role', 'boss@example.com', 'admin'], env);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('last administrator');

    const wrong = await cli(['grant-role', 'boss@example.com', 'wizard'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"wizard" is not a role');
    const nobody = await cli(['revoke-role', 'nobody@example.com', 'admin'], env);
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
    const granted = await cli(['grant-role', 'someone@example.com', 'finance'], env);
    expect(granted.stdout).toBe('someone@example.com: finance, learner\n');
    const revoked = await cli(['revoke-role', 'someone@example.com', 'finance'], env);
    expect(revoked.stdout).toBe('someone@example.com: learner\n');
    const link = await cli(['login-link', 'someone@example.com'], env);
    expect(link.stdout).toMatch(/^http:\/\/localhost:3000\/login\/continue\?email=someone%40example\.com&token=/);
  });
});
