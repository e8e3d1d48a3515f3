import type { Test } from 'supertest';
import type { Db } from '../../api/src/db/connection';
import type { User } from '../../api/src/identity/models';
import type { Role } from '../../api/src/shared/roles';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { findOrCreateUserByEmail } from '../../api/src/identity/profile/users';
import { createUser } from '../../seeds/factories';

export interface SignedIn {
  user: User;
  cookie: string;
  csrfToken: string;
}

/** A user with these roles and a live session, as a browser would hold it after signing in. */
export async function signedIn(db: Db, roles: Role[] = ['learner'], email?: string): Promise<SignedIn> {
  return sessionFor(db, await createUser(db, { roles, email }));
}

/** The person behind an email (created when new), signed in: a recipient whose account an offer already made. */
export async function signedInByEmail(db: Db, email: string): Promise<SignedIn> {
  return sessionFor(db, await findOrCreateUserByEmail(db, email, { verified: true }));
}

async function sessionFor(db: Db, user: User): Promise<SignedIn> {
  const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, user.id, 'test', 'email');
  return { user, cookie: `lp_session=${session.token}; lp_csrf=${session.csrfToken}`, csrfToken: session.csrfToken };
}

/** Sends the session cookie and, as our pages do, the CSRF header. */
export function as(auth: SignedIn | undefined, req: Test): Test {
  return auth ? req.set('Cookie', auth.cookie).set('X-CSRF-Token', auth.csrfToken) : req;
}
