import type { AccountRecord, UserRecord } from '@contract/identity/schemas';
import type { Wire } from '@contract/shared/wire';

/** A person's account (the `users` resource). */
export type User = Wire<UserRecord>;

/** A sign-in provider's link to an account (the `accounts` resource). */
export type Account = Wire<AccountRecord>;
