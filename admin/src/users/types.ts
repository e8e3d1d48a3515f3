import type { AccountRecord, UserRecord } from '@contract/identity/schemas';
import type { Wire } from '@contract/shared/wire';

/** A person's account (the `users` resource). */
export type User = Wire<UserRecord>;

/** What a reference to a person shows: their name, else their email. */
export type UserName = Pick<User, 'id' | 'name' | 'email'>;

/** A sign-in provider's link to an account (the `accounts` resource). */
export type Account = Wire<AccountRecord>;
