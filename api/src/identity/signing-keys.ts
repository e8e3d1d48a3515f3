import type { Db } from '../db/connection';
import { newSecret } from './secrets';

/**
 * A key the API signs links with, by name: `secret` when the configuration gives one; else a random one kept in the
 * `signing_keys` table, made by the first replica that needs it (a race between two is decided by the primary key:
 * both then read the winner's), so every replica signs alike. Read once per process; a failed read is tried again.
 */
export function signingKey({ db, name, secret }: { db: Db; name: string; secret?: string }): () => Promise<Buffer> {
  if (secret) {
    const key = Buffer.from(secret);
    return async () => key;
  }
  let loading: Promise<Buffer> | undefined;
  const load = async () => {
    await db('signingKeys')
      .insert({ name, secret: newSecret(32) })
      .onConflict('name')
      .ignore();
    const row: { secret: string } | undefined = await db('signingKeys').where({ name }).first('secret');
    if (!row) throw new Error(`signing key ${name} vanished after insert`);
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
