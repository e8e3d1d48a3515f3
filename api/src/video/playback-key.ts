import type { Db } from '../db/connection';
import { table } from '../db/base-model';
import { signingKey } from '../identity/signing-keys';

/** A key the API signs short-lived links with, made once and shared by every replica (see mediaUrlKey). */
export class SigningKey extends table('signingKeys', { idColumn: 'name' }) {
  declare name: string;
  declare secret: string;
  declare createdAt: Date;
}

const MEDIA_URL_KEY = 'media-url';

/** The key video links are signed with: MEDIA_URL_SECRET when set; else one kept in the database (signingKey). */
export function mediaUrlKey({ db, secret }: { db: Db; secret?: string }): () => Promise<Buffer> {
  return signingKey({ db, name: MEDIA_URL_KEY, secret });
}
