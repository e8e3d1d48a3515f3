import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret for links, cookies and bearer tokens (32 bytes, URL-safe). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What the database keeps instead of a secret: a leaked table grants nothing. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
