import { randomInt } from 'node:crypto';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { RateLimiter } from '../rate-limit';

export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Wrong user codes a person may enter per window before being told to wait. */
export const WRONG_CODE_LIMIT = { max: 10, windowSeconds: 5 * 60 };

/** What the device sign-in's steps are built from (passed by the composition root). */
export interface DeviceFlowDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'DEVICE_TOKEN_IDLE_DAYS'>;
  limiter: RateLimiter;
}

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

/** The registered name of a device client, or null for an unknown (or removed) one. */
export async function clientName(db: Db, clientId: string | null): Promise<string | null> {
  if (!clientId) return null;
  return (await db('deviceClients').where({ clientId }).first('name'))?.name ?? null;
}
