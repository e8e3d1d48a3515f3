import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { isUuid } from '../../shared/uuid';

/** What a download link grants: one attachment, to one learner (null: anyone, a free lesson's file), until a time. */
export interface DownloadGrant {
  attachmentId: string;
  userId: string | null;
  /** Unix seconds. */
  expiresAt: number;
}

/** How long a download link works: long enough to click it, short enough that a copied one soon stops. */
export const DOWNLOAD_LINK_SECONDS = 10 * 60;

const uuidBytes = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
const uuidOf = (bytes: Buffer) => bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** What is signed: the grant's fields spelled out, under a name of its own so no video token passes for one. */
const signed = (key: Buffer, grant: DownloadGrant) =>
  createHmac('sha256', key)
    .update(`download:${grant.attachmentId}:${grant.userId ?? '-'}:${grant.expiresAt}`)
    .digest();

/** The token in a download link's path: the grant's bytes (expiry, attachment, learner) and their HMAC, base64url. */
export function signDownloadToken(key: Buffer, grant: DownloadGrant): string {
  const ids = [grant.attachmentId, ...(grant.userId ? [grant.userId] : [])];
  if (!ids.every((id) => isUuid(id) && id === id.toLowerCase())) throw new Error('a download grant names ids');
  const head = Buffer.alloc(4);
  head.writeUInt32BE(grant.expiresAt, 0);
  const fields = Buffer.concat([head, ...ids.map(uuidBytes)]);
  return `${fields.toString('base64url')}.${signed(key, grant).toString('base64url')}`;
}

const TOKEN = /^([A-Za-z0-9_-]{27}|[A-Za-z0-9_-]{48})\.([A-Za-z0-9_-]{43})$/;

/** The grant a token carries, once its signature holds and it has not expired; else 403 with why. */
export function readDownloadToken(key: Buffer, token: string, now: Date): DownloadGrant {
  const invalid = () => new AppError('download-link-invalid', 'This download link is not valid.');
  const parts = TOKEN.exec(token);
  if (!parts) throw invalid();
  const fields = Buffer.from(parts[1]!, 'base64url');
  const signature = Buffer.from(parts[2]!, 'base64url');
  if (fields.toString('base64url') !== parts[1] || signature.toString('base64url') !== parts[2]) throw invalid();
  const grant: DownloadGrant = {
    expiresAt: fields.readUInt32BE(0),
    attachmentId: uuidOf(fields.subarray(4, 20)),
    userId: fields.length === 36 ? uuidOf(fields.subarray(20, 36)) : null,
  };
  const expected = signed(key, grant);
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid();
  if (now.getTime() >= grant.expiresAt * 1000) {
    throw new AppError(
      'download-link-expired',
      'This download link has expired: open the lesson again to download the file.',
    );
  }
  return grant;
}
