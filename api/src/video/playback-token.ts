import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../shared/errors';
import { isUuid } from '../shared/uuid';

/**
 * What a signed video link grants: one version of one video, to one learner (null: anyone, a free lesson's link),
 * until a time. A new upload bumps the version, so links to the old files stop working with them.
 */
export interface MediaGrant {
  videoId: string;
  version: number;
  userId: string | null;
  /** Unix seconds. */
  expiresAt: number;
}

const MINUTE_MS = 60_000;

/**
 * How long a link lives: long enough to watch the whole video at half speed with pauses (twice its length plus ten
 * minutes), at least half an hour, at most eight hours. A copied link stops working after that.
 */
export function linkLifetimeMs(durationMs: number | null): number {
  return Math.min(8 * 60 * MINUTE_MS, Math.max(30 * MINUTE_MS, 2 * (durationMs ?? 0) + 10 * MINUTE_MS));
}

/** An id as stored (lower case): the token carries its bytes, and reads them back lower case for the signature. */
const isStoredId = (id: string) => isUuid(id) && id === id.toLowerCase();
const uuidBytes = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
const uuidOf = (bytes: Buffer) => bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** What is signed: the grant's fields, spelled out (`-` for anyone). */
const signed = (key: Buffer, grant: MediaGrant) =>
  createHmac('sha256', key)
    .update(`media:${grant.videoId}:${grant.version}:${grant.userId ?? '-'}:${grant.expiresAt}`)
    .digest();

/**
 * The token in a video link's path, `<fields>.<signature>` in base64url: the fields as bytes (version and expiry,
 * 4 bytes each; the video's id; the learner's id when there is one), then the HMAC-SHA256 of them. It is a path
 * segment, so the playlists' relative paths carry it to every rendition and segment.
 */
export function signMediaToken(key: Buffer, grant: MediaGrant): string {
  if (!isStoredId(grant.videoId) || (grant.userId !== null && !isStoredId(grant.userId))) {
    throw new Error('a media grant names a video and a learner by their ids');
  }
  const head = Buffer.alloc(8);
  head.writeUInt32BE(grant.version, 0);
  head.writeUInt32BE(grant.expiresAt, 4);
  const fields = Buffer.concat([head, uuidBytes(grant.videoId), ...(grant.userId ? [uuidBytes(grant.userId)] : [])]);
  return `${fields.toString('base64url')}.${signed(key, grant).toString('base64url')}`;
}

const TOKEN = /^([A-Za-z0-9_-]{32}|[A-Za-z0-9_-]{54})\.([A-Za-z0-9_-]{43})$/;

/** The grant a token carries, once its signature holds and it has not expired; else 403 with why. */
export function readMediaToken(key: Buffer, token: string, now: Date): MediaGrant {
  const invalid = () => new AppError('media-link-invalid', 'This video link is not valid.');
  const parts = TOKEN.exec(token);
  if (!parts) throw invalid();
  const fields = Buffer.from(parts[1]!, 'base64url');
  const signature = Buffer.from(parts[2]!, 'base64url');
  // One spelling per token: base64url's last character has spare bits, which must not make a second link.
  if (fields.toString('base64url') !== parts[1] || signature.toString('base64url') !== parts[2]) throw invalid();
  const grant: MediaGrant = {
    version: fields.readUInt32BE(0),
    expiresAt: fields.readUInt32BE(4),
    videoId: uuidOf(fields.subarray(8, 24)),
    userId: fields.length === 40 ? uuidOf(fields.subarray(24, 40)) : null,
  };
  const expected = signed(key, grant);
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid();
  if (now.getTime() >= grant.expiresAt * 1000) {
    throw new AppError('media-link-expired', 'This video link has expired: reload the lesson to watch again.');
  }
  return grant;
}
