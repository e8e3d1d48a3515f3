import type { Db } from '../db/connection';
import { table } from '../db/base-model';
import { newSecret } from '../identity/secrets';

/** A key the API signs short-lived links with, made once and shared by every replica (see mediaUrlKey). */
export class SigningKey extends table('signingKeys', { idColumn: 'name' }) {
  declare name: string;
  declare secret: string;
  declare createdAt: Date;
}

const MEDIA_URL_KEY = 'media-url';

/**
 * The key video links are signed with: MEDIA_URL_SECRET when set; else a random one kept in the database, made by
 * the first replica that needs it (a race between two is decided by the primary key: both then read the winner's).
 * Read once per process; a failed read is tried again on the next call.
 */
export function mediaUrlKey({ db, secret }: { db: Db; secret?: string }): () => Promise<Buffer> {
  if (secret) {
    const key = Buffer.from(secret);
    return async () => key;
  }
  let loading: Promise<Buffer> | undefined;
  const load = async () => {
    await db('signingKeys')
      .insert({ name: MEDIA_URL_KEY, secret: newSecret(32) })
      .onConflict('name')
      .ignore();
    const row: Pick<SigningKey, 'secret'> | undefined = await db('signingKeys')
      .where({ name: MEDIA_URL_KEY })
      .first('secret');
    if (!row) throw new Error(`signing key ${MEDIA_URL_KEY} vanished after insert`);
    return Buffer.from(row.secret);
  };
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
