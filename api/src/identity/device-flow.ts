import { randomInt } from 'node:crypto';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../http/errors';
import { DeviceAccessToken, DeviceVerification, type User } from './models';
import type { RateLimiter } from './rate-limit';
import { hashSecret, newSecret } from './secrets';

export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Wrong user codes a person may enter per window before being told to wait. */
export const WRONG_CODE_LIMIT = { max: 10, windowSeconds: 5 * 60 };
const LAST_USED_RESOLUTION_MS = 10 * 60 * 1000;

export function newUserCode(): string {
  return Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What people type: any case, with or without the dash or spaces. Null when it cannot be a code. */
export function normalizeUserCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  return code.length === 8 && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

/** The RFC 8628 / RFC 6749 §5.2 error codes of the token endpoint. */
export type TokenError = 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' | 'invalid_request';

export type PollResult = { accessToken: string } | { error: TokenError; description: string };

interface Deps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  limiter: RateLimiter;
}

export function deviceFlow({ db, clock, config, limiter }: Deps) {
  const now = () => clock.now();

  /** Why an undecided, unexpired code could not be found or decided on; counts wrong entries. */
  async function explainUnusable(code: string | null, userId: string, ip: string): Promise<AppError> {
    const row = code ? await DeviceVerification.query(db).findOne({ userCode: code }) : undefined;
    if (!row) {
      await limiter.hit({ bucket: `device-code:user:${userId}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
      await limiter.hit({ bucket: `device-code:ip:${ip}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
      return new AppError('device-code-not-found', 'No device is waiting for that code. Check the code your device shows.');
    }
    if (row.verifiedAt || row.deniedAt) return new AppError('device-code-already-used', 'That code was already approved or denied.');
    return new AppError('device-code-expired', 'That code has expired. Start the sign-in on your device again.');
  }

  async function assertUnderLimit(userId: string, ip: string): Promise<void> {
    await limiter.check({ bucket: `device-code:user:${userId}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
    await limiter.check({ bucket: `device-code:ip:${ip}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
  }

  /** Approve or deny: one conditional update, so two tabs cannot both decide. */
  async function decide(input: { userCode: string; user: User; ip: string }, decision: 'approve' | 'deny') {
    await assertUnderLimit(input.user.id, input.ip);
    const code = normalizeUserCode(input.userCode);
    const patch = decision === 'approve' ? { verifiedAt: now(), verifiedByUserId: input.user.id } : { deniedAt: now(), verifiedByUserId: input.user.id };
    const updated = code
      ? await DeviceVerification.query(db)
          .patch(patch)
          .where({ userCode: code })
          .whereNull('verifiedAt')
          .whereNull('deniedAt')
          .where('expires', '>', now())
      : 0;
    if (!updated) throw await explainUnusable(code, input.user.id, input.ip);
  }

  return {
    async requestCode(clientId: string) {
      for (let attempt = 0; ; attempt++) {
        const deviceCode = newSecret();
        const userCode = newUserCode();
        try {
          await DeviceVerification.query(db).insert({
            deviceCode: hashSecret(deviceCode),
            userCode,
            clientId,
            intervalSeconds: POLL_INTERVAL_SECONDS,
            expires: new Date(now().getTime() + DEVICE_CODE_TTL_SECONDS * 1000),
          });
        } catch (error) {
          // 20^8 codes: a clash with a live one is rare; draw again.
          if ((error as { nativeError?: { code?: string } }).nativeError?.code === '23505' && attempt < 5) continue;
          throw error;
        }
        const verificationUri = new URL('/activate', config.publicUrl).toString();
        return {
          device_code: deviceCode,
          user_code: formatUserCode(userCode),
          verification_uri: verificationUri,
          verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(userCode)}`,
          expires_in: DEVICE_CODE_TTL_SECONDS,
          interval: POLL_INTERVAL_SECONDS,
        };
      }
    },

    /**
     * One poll of the token endpoint. The row is locked so concurrent polls are ordered; the pace and the
     * issued token are committed before the answer, and the token goes out exactly once.
     */
    async poll(input: { deviceCode: string; clientId: string }): Promise<PollResult> {
      return db.transaction(async (trx) => {
        const row = await DeviceVerification.query(trx).findById(hashSecret(input.deviceCode)).forUpdate();
        if (!row || row.clientId !== input.clientId) return { error: 'invalid_grant', description: 'Unknown device code.' };
        const at = now();
        if (row.tokenIssuedAt) return { error: 'invalid_grant', description: 'The token for this code was already issued.' };
        if (row.expires <= at) return { error: 'expired_token', description: 'The device code expired; start again.' };
        if (row.deniedAt) return { error: 'access_denied', description: 'The user denied the request.' };
        if (row.lastPolledAt && at.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000) {
          const interval = row.intervalSeconds + 5;
          await DeviceVerification.query(trx).findById(row.deviceCode).patch({ lastPolledAt: at, intervalSeconds: interval });
          return { error: 'slow_down', description: `Polling too fast; wait ${interval} seconds between requests.` };
        }
        if (!row.verifiedAt || !row.verifiedByUserId) {
          await DeviceVerification.query(trx).findById(row.deviceCode).patch({ lastPolledAt: at });
          return { error: 'authorization_pending', description: 'The user has not approved the request yet.' };
        }
        const accessToken = newSecret();
        await DeviceAccessToken.query(trx).insert({ token: hashSecret(accessToken), userId: row.verifiedByUserId, clientId: row.clientId });
        await DeviceVerification.query(trx).findById(row.deviceCode).patch({ lastPolledAt: at, tokenIssuedAt: at });
        return { accessToken };
      });
    },

    /** What the /activate page shows before the person approves or denies. */
    async lookup(input: { userCode: string; user: User; ip: string }) {
      await assertUnderLimit(input.user.id, input.ip);
      const code = normalizeUserCode(input.userCode);
      const row = code ? await DeviceVerification.query(db).findOne({ userCode: code }) : undefined;
      if (!row || row.verifiedAt || row.deniedAt || row.expires <= now()) throw await explainUnusable(code, input.user.id, input.ip);
      return { userCode: formatUserCode(row.userCode), clientId: row.clientId, createdAt: row.createdAt, expiresAt: row.expires };
    },

    approve: (input: { userCode: string; user: User; ip: string }) => decide(input, 'approve'),
    deny: (input: { userCode: string; user: User; ip: string }) => decide(input, 'deny'),

    async resolveBearer(token: string): Promise<{ user: User; deviceToken: DeviceAccessToken } | null> {
      const deviceToken = await DeviceAccessToken.query(db).findById(hashSecret(token)).withGraphJoined('user');
      if (!deviceToken?.user) return null;
      const { user } = deviceToken;
      const at = now();
      if (!deviceToken.lastUsedAt || at.getTime() - deviceToken.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        await DeviceAccessToken.query(db).findById(deviceToken.token).patch({ lastUsedAt: at });
      }
      return { user, deviceToken };
    },

    async listDevices(userId: string) {
      const rows = await DeviceAccessToken.query(db).where({ userId }).orderBy('createdAt', 'desc');
      return rows.map(({ id, clientId, createdAt, lastUsedAt }) => ({ id, clientId, createdAt, lastUsedAt }));
    },

    async revokeDevice(userId: string, id: string): Promise<void> {
      const deleted = await DeviceAccessToken.query(db).delete().where({ id, userId });
      if (!deleted) throw new AppError('not-found', 'No such device.');
    },
  };
}

export type DeviceFlow = ReturnType<typeof deviceFlow>;
