import { z } from 'zod';
import { PrefsFields, PrefsScope } from './prefs';
import { ROLES } from './roles';
import { EmailAddress } from './users';

export const RequestSignInLinkBody = z.object({
  email: EmailAddress,
  redirectTo: z.string().max(2000).optional(),
});

export const ConsumeSignInLinkBody = z.object({
  email: EmailAddress,
  token: z.string().min(1, 'is required').max(200),
});

export const UserCodeBody = z.object({ userCode: z.string().trim().min(1, 'enter the code your device shows').max(20) });


export const PrefsQuery = z.preprocess(
  (q) => ({ type: 'global', ...(q as object) }),
  PrefsScope,
);
export const PutPrefsBody = z.intersection(PrefsScope, z.object({ fields: PrefsFields }));

export const UpdateUserBody = z
  .object({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    roles: z.array(z.enum(ROLES)).max(ROLES.length).optional(),
  })
  .strict();

// RFC 8628 / RFC 6749 requests are form-encoded; their errors use the RFC's JSON shape (see oauth-routes).
export const ClientId = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/);
