import { AppError } from '../../shared/errors';
import {
  Account,
  DeviceAccessToken,
  DeviceVerification,
  Session,
  User,
  UserPrefs,
  VerificationToken,
} from '../../identity/models';
import { UserCreate, UserUpdate } from '../schemas/identity';
import { OutboxEmail } from '../../mail/models';
import { SECRET_PLACEHOLDER } from '../../mail/outbox';
import { assertAnotherAdminRemains } from '../../identity/staff/admin-guard';
import { defineResource, type Row, type WriteHook } from '../resource';
import { assertMayManage, assertMayManageOwner } from '../../identity/staff/staff-guard';
import { derived, instant, number, text, words, yesIfSet } from '../../http/csv-columns';
import { person } from '../lists/export-lookups';

const STAFF = ['support', 'finance'] as const;

/**
 * Only administrators change roles, or change or delete staff accounts; nobody removes their own admin role, and
 * the last administrator stays one.
 */
async function checkUserWrite(
  { trx, actor }: WriteHook,
  operation: 'create' | 'update' | 'delete',
  input: Row,
  current: Row | null,
): Promise<void> {
  const isAdmin = actor.roles.includes('admin');
  const currentRoles = (current?.roles as string[] | undefined) ?? [];
  if (operation === 'delete') {
    if (current) assertMayManage({ roles: currentRoles }, actor, 'delete');
    if (current?.id === actor.id) throw new AppError('validation-failed', 'You cannot delete your own account here.');
    if (currentRoles.includes('admin')) await assertAnotherAdminRemains(trx, current!.id as string);
    return;
  }
  const message = 'Only administrators can change roles.';
  if ('roles' in input && !isAdmin) throw new AppError('forbidden', message, { roles: message });
  // Renaming oneself is one's own business, and a staff member's bio is sales-page copy that support keeps (it shows
  // beside their courses); anything else on a staff account is an administrator's.
  const onlyBio = Object.keys(input).every((field) => field === 'bio');
  if (current && current.id !== actor.id && !onlyBio) assertMayManage({ roles: currentRoles }, actor, 'change');
  if (!('roles' in input)) return;
  const removesAdmin = currentRoles.includes('admin') && !(input.roles as string[]).includes('admin');
  if (removesAdmin && current?.id === actor.id) {
    throw new AppError('validation-failed', 'You cannot remove your own admin role.', {
      roles: 'You cannot remove your own admin role.',
    });
  }
  if (removesAdmin) await assertAnotherAdminRemains(trx, current!.id as string);
}

export const users = defineResource({
  name: 'users',
  model: User,
  read: STAFF,
  filterable: { id: 'id', roles: 'role', createdAt: 'date' },
  sortable: ['id', 'email', 'name', 'createdAt'],
  searchable: ['email', 'name'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    columns: [
      text('Email', 'email'),
      text('Name', 'name'),
      words('Roles', 'roles'),
      yesIfSet('Blocked', 'blockedAt'),
      instant('Joined', 'createdAt'),
      text('Person id', 'id'),
    ],
  },
  create: UserCreate,
  update: UserUpdate,
  checkWrite: checkUserWrite,
  remove: 'hard',
  deleteGuards: [
    {
      code: 'user-has-purchases',
      message: 'This person has purchases or payments on record; their account cannot be deleted.',
      blocks: async (trx, id) =>
        Boolean(
          (await trx('purchases').where('userId', id).first('id')) ??
          (await trx('merchantCustomers').where('userId', id).first('id')),
        ),
    },
  ],
  constraintFields: { users_email_unique: { field: 'email', message: 'already has an account' } },
});

/**
 * What belongs to a person (a linked account, a session, a sign-in link, a device) is removed by support only for
 * learners: on a staff account it would sign an administrator out or unlink their GitHub, which Sign out everywhere
 * leaves to administrators too.
 */
const ownedBy =
  (owner: (row: Row) => { userId?: string | null; email?: string | null }, what: string) =>
  async ({ trx, actor }: WriteHook, _operation: string, _input: Row, current: Row | null): Promise<void> => {
    if (current) await assertMayManageOwner(trx, owner(current), actor, what);
  };
const byUserId = (row: Row) => ({ userId: row.userId as string | null });

export const accounts = defineResource({
  name: 'accounts',
  model: Account,
  read: ['support'],
  // OAuth tokens never leave the server.
  columns: ['id', 'userId', 'type', 'provider', 'providerAccountId', 'expiresAt', 'tokenType', 'scope'],
  filterable: { id: 'id', userId: 'id', provider: 'enum' },
  sortable: ['id', 'provider'],
  searchable: ['providerAccountId'],
  defaultSort: ['provider', 'ASC'],
  export: {
    lookups: [person('userId', 'owner')],
    columns: [
      text('Email', 'ownerEmail'),
      text('Name', 'ownerName'),
      text('Provider', 'provider'),
      text('Type', 'type'),
      text('Account at provider', 'providerAccountId'),
      text('Scope', 'scope'),
      text('Account id', 'id'),
    ],
  },
  exactCount: true,
  remove: 'hard', // unlink the external account
  checkWrite: ownedBy(byUserId, 'unlink the accounts of'),
});

export const sessions = defineResource({
  name: 'sessions',
  model: Session,
  read: ['support'],
  columns: ['id', 'userId', 'expires', 'createdAt', 'lastSeenAt', 'userAgent'],
  filterable: { id: 'id', userId: 'id', expires: 'date', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'expires', 'lastSeenAt'],
  searchable: ['userAgent'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('userId', 'owner')],
    columns: [
      text('Email', 'ownerEmail'),
      text('Name', 'ownerName'),
      instant('Signed in', 'createdAt'),
      instant('Last seen', 'lastSeenAt'),
      instant('Expires', 'expires'),
      text('Browser', 'userAgent'),
      text('Session id', 'id'),
    ],
  },
  remove: 'hard', // revoke
  checkWrite: ownedBy(byUserId, 'sign out'),
});

export const verificationTokens = defineResource({
  name: 'verification-tokens',
  model: VerificationToken,
  idColumn: 'id',
  read: ['support'],
  columns: ['id', 'identifier', 'expires', 'createdAt', 'redirectTo'],
  filterable: { id: 'id', identifier: 'text', expires: 'date', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'expires'],
  searchable: ['identifier'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    columns: [
      text('Email', 'identifier'),
      instant('Sent', 'createdAt'),
      instant('Expires', 'expires'),
      text('Goes to', 'redirectTo'),
      text('Link id', 'id'),
    ],
  },
  remove: 'hard', // invalidate an emailed link
  checkWrite: ownedBy((row) => ({ email: row.identifier as string }), 'end the sign-in links of'),
});

/**
 * Device sign-ins in progress. The user code is a live credential (whoever enters it first signs the device in to
 * their account), so no staff role ever reads it, nor searches by it.
 */
export const deviceVerifications = defineResource({
  name: 'device-verifications',
  model: DeviceVerification,
  idColumn: 'id',
  read: ['support'],
  columns: [
    'id',
    'clientId',
    'expires',
    'createdAt',
    'verifiedAt',
    'verifiedByUserId',
    'deniedAt',
    'tokenIssuedAt',
    'intervalSeconds',
    'lastPolledAt',
  ],
  filterable: { id: 'id', clientId: 'text', verifiedByUserId: 'id', expires: 'date', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'expires'],
  searchable: ['clientId'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('verifiedByUserId', 'verifier')],
    columns: [
      text('Client', 'clientId'),
      instant('Started', 'createdAt'),
      instant('Expires', 'expires'),
      instant('Verified', 'verifiedAt'),
      text('Verified by', 'verifierEmail'),
      instant('Denied', 'deniedAt'),
      instant('Token issued', 'tokenIssuedAt'),
      text('Sign-in id', 'id'),
    ],
  },
  remove: 'hard',
  checkWrite: ownedBy((row) => ({ userId: row.verifiedByUserId as string | null }), 'end the device sign-ins of'),
});

export const deviceAccessTokens = defineResource({
  name: 'device-access-tokens',
  model: DeviceAccessToken,
  idColumn: 'id',
  read: ['support'],
  columns: ['id', 'userId', 'clientId', 'createdAt', 'lastUsedAt'],
  filterable: { id: 'id', userId: 'id', clientId: 'text', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'lastUsedAt'],
  searchable: ['clientId'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('userId', 'owner')],
    columns: [
      text('Email', 'ownerEmail'),
      text('Name', 'ownerName'),
      text('Client', 'clientId'),
      instant('Created', 'createdAt'),
      instant('Last used', 'lastUsedAt'),
      text('Device id', 'id'),
    ],
  },
  remove: 'hard', // revoke
  checkWrite: ownedBy(byUserId, 'revoke the devices of'),
});

export const userPrefs = defineResource({
  name: 'user-prefs',
  model: UserPrefs,
  read: ['support'],
  filterable: { id: 'id', userId: 'id', type: 'enum', resourceId: 'id' },
  sortable: ['id', 'createdAt', 'updatedAt'],
  searchable: [],
  defaultSort: ['updatedAt', 'DESC'],
  export: {
    lookups: [
      person('userId', 'owner'),
      { from: 'resourceId', table: 'contentResources', fields: { content: 'fields' } },
    ],
    columns: [
      text('Email', 'ownerEmail'),
      text('Name', 'ownerName'),
      derived('Preferences', (p) => (p.type === 'local' ? 'Per-content' : 'Global')),
      derived('Content', (p) => (p.content as { title?: string } | null)?.title),
      instant('Updated', 'updatedAt'),
      text('Preferences id', 'id'),
    ],
  },
});

/**
 * Sign-in links in emails are live credentials: staff see that a link was sent, not the link, whether the email
 * went or not. The stored bodies already say `[redacted]` where the token goes and the token itself (`secret`) is
 * never selected; a `token=` in a body is redacted all the same, and `secret` dropped from rows that carry it
 * (the retry answer).
 */
function hideSignInTokens({ secret: _secret, ...row }: Row): Row {
  const hide = (text: unknown) =>
    typeof text === 'string' ? text.replace(/(token=)[^&\s"'<]+/g, `$1${SECRET_PLACEHOLDER}`) : text;
  return { ...row, textBody: hide(row.textBody), htmlBody: hide(row.htmlBody) };
}

export const outboxEmails = defineResource({
  name: 'outbox-emails',
  model: OutboxEmail,
  // Support answers "I never got the email": they read the outbox, retry and resend; sign-in links stay hidden.
  read: ['support'],
  columns: [
    'id',
    'toAddress',
    'subject',
    'textBody',
    'htmlBody',
    'fromName',
    'replyTo',
    'kind',
    'status',
    'attempts',
    'lastError',
    'nextAttemptAt',
    'sentAt',
    'transport',
    'createdAt',
    'updatedAt',
  ],
  present: hideSignInTokens,
  filterable: { id: 'id', status: 'enum', kind: 'enum', toAddress: 'text', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'status', 'toAddress', 'attempts'],
  searchable: ['toAddress', 'subject'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    columns: [
      instant('Created', 'createdAt'),
      text('To', 'toAddress'),
      text('Subject', 'subject'),
      text('Kind', 'kind'),
      text('Status', 'status'),
      number('Attempts', 'attempts'),
      instant('Sent', 'sentAt'),
      text('Last error', 'lastError'),
      text('Email id', 'id'),
    ],
  },
});
