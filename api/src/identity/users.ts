import type { Knex } from 'knex';
import { z } from 'zod';
import { User } from './models';

export const EmailAddress = z
  .string()
  .trim()
  .max(254, 'is too long')
  .pipe(z.email('must be an email address'))
  .transform((email) => email.toLowerCase());

/**
 * The account for an email, created on first sign-in. Two sign-ins racing for a new address end with one
 * user (the unique index on lower(email) decides).
 */
export async function findOrCreateUserByEmail(
  trx: Knex | Knex.Transaction,
  email: string,
  options: { verified: boolean; name?: string | null; image?: string | null },
): Promise<User> {
  await trx('users')
    .insert({ email, name: options.name ?? null, image: options.image ?? null, emailVerified: options.verified ? trx.fn.now() : null })
    .onConflict(trx.raw('(lower(email))'))
    .ignore();
  const user = await User.query(trx).whereRaw('lower(email) = lower(?)', [email]).first();
  if (!user) throw new Error(`user ${email} vanished after upsert`);
  if (options.verified && !user.emailVerified) {
    return User.query(trx).patchAndFetchById(user.id, { emailVerified: new Date() });
  }
  return user;
}

export async function findUserByEmail(db: Knex | Knex.Transaction, email: string): Promise<User | undefined> {
  return User.query(db).whereRaw('lower(email) = lower(?)', [email]).first();
}
