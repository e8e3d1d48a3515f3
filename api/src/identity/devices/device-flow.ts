import { randomInt } from 'node:crypto';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import { isUserBlocked } from '../staff/blocks';
import type { DeviceAccessToken, DeviceClient, DeviceVerification, User } from '../models';
import { networkOf, type RateLimiter } from '../rate-limit';
import type { PendingDevice, SignedInDevice } from '../schemas';
import { hashSecret, newSecret } from '../secrets';

export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Wrong user codes a person may enter per window before being told to wait. */
export const WRONG_CODE_LIMIT = { max: 10, windowSeconds: 5 * 60 };
/** A device token's last use is written at most this often (it decides when an idle token ends). */
export const LAST_USED_RESOLUTION_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

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
export type TokenError =
  'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' | 'invalid_request';

export type PollResult = { accessToken: string } | { error: TokenError; description: string };

interface Deps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'DEVICE_TOKEN_IDLE_DAYS'>;
  limiter: RateLimiter;
}

export function deviceFlow({ db, clock, config, limiter }: Deps) {
  const now = () => clock.now();
  const idleMs = config.DEVICE_TOKEN_IDLE_DAYS * DAY_MS;
  const lastActive = (token: Pick<DeviceAccessToken, 'lastUsedAt' | 'createdAt'>) =>
    token.lastUsedAt ?? token.createdAt;

  /**
   * Every code entry is counted against the person's and the address's limits before the code is looked at, so
   * parallel guesses cannot all pass the limit before the first is counted. An entry that names a real code (one
   * a device asked for) is given back: only wrong codes use up the limit.
   */
  async function countEntry(userId: string, ip: string): Promise<() => Promise<void>> {
    const perUser = await limiter.hit({ bucket: `device-code:user:${userId}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
    const perIp = await limiter.hit({ bucket: `device-code:ip:${networkOf(ip)}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
    return async () => {
      await perUser.giveBack();
      await perIp.giveBack();
    };
  }

  /** Why a code could not be shown or decided on: no such code (a wrong entry, left counted), or used, or expired. */
  function unusable(row: DeviceVerification | undefined): AppError {
    if (!row)
      return new AppError(
        'device-code-not-found',
        'No device is waiting for that code. Check the code your device shows.',
      );
    if (row.verifiedAt || row.deniedAt)
      return new AppError('device-code-already-used', 'That code was already approved or denied.');
    return new AppError('device-code-expired', 'That code has expired. Start the sign-in on your device again.');
  }

  const findCode = (code: string | null) =>
    code
      ? (db('deviceVerifications').where({ userCode: code }).first() as Promise<DeviceVerification | undefined>)
      : Promise.resolve(undefined);

  /** Approve or deny: one conditional update, so two tabs cannot both decide. */
  async function decide(input: { userCode: string; user: User; ip: string }, decision: 'approve' | 'deny') {
    const giveBack = await countEntry(input.user.id, input.ip);
    const code = normalizeUserCode(input.userCode);
    const patch =
      decision === 'approve'
        ? { verifiedAt: now(), verifiedByUserId: input.user.id }
        : { deniedAt: now(), verifiedByUserId: input.user.id };
    const updated = code
      ? await db('deviceVerifications')
          .update(patch)
          .where({ userCode: code })
          .whereNull('verifiedAt')
          .whereNull('deniedAt')
          .where('expires', '>', now())
      : 0;
    if (updated) {
      // An approved device is a sign-in of its own, kept for the person's timeline.
      if (decision === 'approve') await db('signIns').insert({ userId: input.user.id, method: 'device' });
      return giveBack();
    }
    const row = await findCode(code);
    if (row) await giveBack();
    throw unusable(row);
  }

  /** The registered name of a device client, or null for an unknown (or removed) one. */
  async function clientName(clientId: string | null): Promise<string | null> {
    if (!clientId) return null;
    return (await db('deviceClients').where({ clientId }).first('name'))?.name ?? null;
  }

  return {
    /** RFC 8628 §3.1: a code for a registered client; null for any other client_id (answered invalid_client). */
    async requestCode(clientId: string) {
      if (!(await clientName(clientId))) return null;
      for (let attempt = 0; ; attempt++) {
        const deviceCode = newSecret();
        const userCode = newUserCode();
        try {
          await db('deviceVerifications').insert({
            deviceCode: hashSecret(deviceCode),
            userCode,
            clientId,
            intervalSeconds: POLL_INTERVAL_SECONDS,
            expires: new Date(now().getTime() + DEVICE_CODE_TTL_SECONDS * 1000),
          });
        } catch (error) {
          // 20^8 codes: a clash with a live one is rare; draw again.
          if ((error as { code?: string }).code === '23505' && attempt < 5) continue;
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
        const row: DeviceVerification | undefined = await trx('deviceVerifications')
          .where({ deviceCode: hashSecret(input.deviceCode) })
          .forUpdate()
          .first();
        if (!row || row.clientId !== input.clientId)
          return { error: 'invalid_grant', description: 'Unknown device code.' };
        const at = now();
        if (row.tokenIssuedAt)
          return { error: 'invalid_grant', description: 'The token for this code was already issued.' };
        if (row.expires <= at) return { error: 'expired_token', description: 'The device code expired; start again.' };
        if (row.deniedAt) return { error: 'access_denied', description: 'The user denied the request.' };
        if (row.lastPolledAt && at.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000) {
          const interval = row.intervalSeconds + 5;
          await trx('deviceVerifications')
            .where({ deviceCode: row.deviceCode })
            .update({ lastPolledAt: at, intervalSeconds: interval });
          return { error: 'slow_down', description: `Polling too fast; wait ${interval} seconds between requests.` };
        }
        if (!row.verifiedAt || !row.verifiedByUserId) {
          await trx('deviceVerifications').where({ deviceCode: row.deviceCode }).update({ lastPolledAt: at });
          return { error: 'authorization_pending', description: 'The user has not approved the request yet.' };
        }
        // Blocked since approving (the block expires approved codes too; this holds for one racing it).
        if (await isUserBlocked(trx, row.verifiedByUserId, true))
          return { error: 'access_denied', description: 'The account that approved the request is blocked.' };
        const accessToken = newSecret();
        await trx('deviceAccessTokens').insert({
          token: hashSecret(accessToken),
          userId: row.verifiedByUserId,
          clientId: row.clientId,
        });
        await trx('deviceVerifications')
          .where({ deviceCode: row.deviceCode })
          .update({ lastPolledAt: at, tokenIssuedAt: at });
        return { accessToken };
      });
    },

    /** What the /activate page shows before the person approves or denies: the client's registered name. */
    async lookup(input: { userCode: string; user: User; ip: string }): Promise<PendingDevice> {
      const giveBack = await countEntry(input.user.id, input.ip);
      const row = await findCode(normalizeUserCode(input.userCode));
      if (row) await giveBack();
      if (!row || row.verifiedAt || row.deniedAt || row.expires <= now()) throw unusable(row);
      return {
        userCode: formatUserCode(row.userCode),
        clientId: row.clientId,
        clientName: (await clientName(row.clientId)) ?? 'An unregistered app',
        createdAt: row.createdAt,
        expiresAt: row.expires,
      };
    },

    approve: (input: { userCode: string; user: User; ip: string }) => decide(input, 'approve'),
    deny: (input: { userCode: string; user: User; ip: string }) => decide(input, 'deny'),

    /**
     * The user behind a bearer token. A token unused for DEVICE_TOKEN_IDLE_DAYS (since its last use, else its
     * approval) has ended: it is deleted and refused. Its last use is recorded at most every ten minutes.
     */
    async resolveBearer(token: string): Promise<{ user: User; deviceToken: DeviceAccessToken } | null> {
      const deviceToken: DeviceAccessToken | undefined = await db('deviceAccessTokens')
        .where({ token: hashSecret(token) })
        .first();
      const user: User | undefined = deviceToken && (await db('users').where({ id: deviceToken.userId }).first());
      // A blocked person's tokens were revoked with the block; one that slipped through opens nothing.
      if (!deviceToken || !user || user.blockedAt) return null;
      const at = now();
      if (at.getTime() - lastActive(deviceToken).getTime() > idleMs) {
        await db('deviceAccessTokens').where({ token: deviceToken.token }).delete();
        return null;
      }
      if (!deviceToken.lastUsedAt || at.getTime() - deviceToken.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        await db('deviceAccessTokens').where({ token: deviceToken.token }).update({ lastUsedAt: at });
      }
      return { user, deviceToken };
    },

    /** The person's signed-in devices (idle-ended ones left out), each with its app's registered name. */
    async listDevices(userId: string): Promise<SignedInDevice[]> {
      const cutoff = new Date(now().getTime() - idleMs);
      const rows: DeviceAccessToken[] = await db('deviceAccessTokens')
        .where({ userId })
        .whereRaw('coalesce(last_used_at, created_at) >= ?', [cutoff])
        .orderBy('createdAt', 'desc');
      const clients: Pick<DeviceClient, 'clientId' | 'name'>[] = await db('deviceClients')
        .whereIn(
          'clientId',
          rows.flatMap((r) => (r.clientId ? [r.clientId] : [])),
        )
        .select('clientId', 'name');
      const names = new Map(clients.map((c) => [c.clientId, c.name]));
      return rows.map((row) => ({
        id: row.id,
        clientId: row.clientId,
        clientName: (row.clientId && names.get(row.clientId)) || 'An unregistered app',
        createdAt: row.createdAt,
        lastUsedAt: row.lastUsedAt,
        idleExpiresAt: new Date(lastActive(row).getTime() + idleMs),
      }));
    },

    async revokeDevice(userId: string, id: string): Promise<void> {
      const deleted = await db('deviceAccessTokens').delete().where({ id, userId });
      if (!deleted) throw new AppError('not-found', 'No such device.');
    },
  };
}

export type DeviceFlow = ReturnType<typeof deviceFlow>;
