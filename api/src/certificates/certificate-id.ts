import { randomBytes } from 'node:crypto';

/** Crockford's base32: digits and letters without I, L, O and U, so an id read aloud or retyped stays one id. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CERTIFICATE_ID_LENGTH = 12;

/** 12 characters, 60 random bits: a verification address nobody can guess or walk. */
export function newCertificateId(): string {
  // 256 is a multiple of 32: each byte's low five bits are uniform.
  return [...randomBytes(CERTIFICATE_ID_LENGTH)].map((byte) => ALPHABET[byte & 31]).join('');
}

/**
 * An id as someone may have typed it (lower case, O for 0, I or L for 1, as Crockford's decoding allows), in its
 * one written form; null when it cannot be an id at all.
 */
export function normalizeCertificateId(text: string): string | null {
  const id = text.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  return new RegExp(`^[${ALPHABET}]{${CERTIFICATE_ID_LENGTH}}$`).test(id) ? id : null;
}
