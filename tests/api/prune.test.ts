import { describe, expect, it } from 'vitest';
import { pruneExpired } from '../../api/src/identity/prune';
import { hashSecret } from '../../api/src/identity/secrets';
import { createUser } from '../../seeds/factories';
import { useTestDatabase } from '../support/db';

describe('pruning expired credentials', () => {
  const database = useTestDatabase();

  it('deletes what expired more than a day ago and keeps the rest', async () => {
    const db = database().db;
    const user = await createUser(db);
    const now = new Date();
    const old = new Date(now.getTime() - 2 * 86_400_000);
    const recent = new Date(now.getTime() - 3_600_000);
    for (const [label, expires] of [['old', old], ['recent', recent]] as const) {
      await db('verificationTokens').insert({ token: hashSecret(`vt-${label}`), identifier: user.email, expires });
      await db('oauthStates').insert({ stateHash: hashSecret(`st-${label}`), provider: 'github', codeVerifier: 'v', expires });
      await db('deviceVerifications').insert({ deviceCode: hashSecret(`dc-${label}`), userCode: label === 'old' ? 'BBBBBBBB' : 'CCCCCCCC', expires });
      await db('sessions').insert({ sessionToken: hashSecret(`s-${label}`), userId: user.id, expires });
    }
    const counts = await pruneExpired({ db, clock: { now: () => now } });
    expect(counts).toMatchObject({ verificationTokens: 1, oauthStates: 1, deviceVerifications: 1, sessions: 1 });
    for (const table of ['verificationTokens', 'oauthStates', 'deviceVerifications', 'sessions']) {
      expect(await db(table).count({ n: '*' }).first(), table).toEqual({ n: 1 });
    }
  });
});
