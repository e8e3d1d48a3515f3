import type { Knex } from 'knex';
import type { User } from '../models';
import type { PublicUser } from '../schemas';

/** What the API shows of an account to its owner (and to a device it signed in). */
export function publicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    roles: user.roles,
    emailVerified: user.emailVerified,
  };
}

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
    .insert({
      email,
      name: options.name ?? null,
      image: options.image ?? null,
      emailVerified: options.verified ? trx.fn.now() : null,
    })
    .onConflict(trx.raw('(lower(email))'))
    .ignore();
  const user = await findUserByEmail(trx, email);
  if (!user) throw new Error(`user ${email} vanished after upsert`);
  if (options.verified && !user.emailVerified) {
    const [verified] = (await trx('users')
      .where({ id: user.id })
      .update({ emailVerified: new Date() })
      .returning('*')) as [User];
    return verified;
  }
  return user;
}

export async function findUserByEmail(db: Knex | Knex.Transaction, email: string): Promise<User | undefined> {
  return db('users').whereRaw('lower(email) = lower(?)', [email]).first();
}
