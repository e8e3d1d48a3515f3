import { AppError } from '../../shared/errors';
import type { DeviceAccessToken, DeviceClient, User } from '../models';
import type { SignedInDevice } from '../schemas';
import { hashSecret } from '../secrets';
import type { DeviceFlowDeps } from './device-codes';
import { DAY_MS } from '../../shared/durations';

/** A device token's last use is written at most this often (it decides when an idle token ends). */
const LAST_USED_RESOLUTION_MS = 10 * 60 * 1000;

const idleMsOf = (config: DeviceFlowDeps['config']) => config.DEVICE_TOKEN_IDLE_DAYS * DAY_MS;
const lastActive = (token: Pick<DeviceAccessToken, 'lastUsedAt' | 'createdAt'>) => token.lastUsedAt ?? token.createdAt;

/**
 * The user behind a bearer token. A token unused for DEVICE_TOKEN_IDLE_DAYS (since its last use, else its approval)
 * has ended: it is deleted and refused. Its last use is recorded at most every ten minutes.
 */
export async function resolveBearer(
  { db, clock, config }: DeviceFlowDeps,
  token: string,
): Promise<{ user: User; deviceToken: DeviceAccessToken } | null> {
  const deviceToken: DeviceAccessToken | undefined = await db('deviceAccessTokens')
    .where({ token: hashSecret(token) })
    .first();
  const user: User | undefined = deviceToken && (await db('users').where({ id: deviceToken.userId }).first());
  // A blocked person's tokens were revoked with the block; one that slipped through opens nothing.
  if (!deviceToken || !user || user.blockedAt) return null;
  const at = clock.now();
  if (at.getTime() - lastActive(deviceToken).getTime() > idleMsOf(config)) {
    await db('deviceAccessTokens').where({ token: deviceToken.token }).delete();
    return null;
  }
  if (!deviceToken.lastUsedAt || at.getTime() - deviceToken.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db('deviceAccessTokens').where({ token: deviceToken.token }).update({ lastUsedAt: at });
  }
  return { user, deviceToken };
}

/** The person's signed-in devices (idle-ended ones left out), each with its app's registered name. */
export async function listDevices({ db, clock, config }: DeviceFlowDeps, userId: string): Promise<SignedInDevice[]> {
  const idleMs = idleMsOf(config);
  const cutoff = new Date(clock.now().getTime() - idleMs);
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
}

export async function revokeDevice({ db }: DeviceFlowDeps, userId: string, id: string): Promise<void> {
  const deleted = await db('deviceAccessTokens').delete().where({ id, userId });
  if (!deleted) throw new AppError('not-found', 'No such device.');
}
