import { z } from 'zod';
import { ROLES } from '../../shared/roles';
import { EmailAddress } from '../../identity/schemas';

const Roles = z
  .array(z.enum(ROLES))
  .max(ROLES.length)
  .transform((roles) => [...new Set(roles)].sort());

const Name = z.string().trim().min(1).max(200).nullable();

export const UserCreate = z.object({ email: EmailAddress, name: Name.optional(), roles: Roles.optional() }).strict();
/** Shown on the sales pages of the products the person owns or contributes to; empty clears it. */
const Bio = z
  .string()
  .trim()
  .max(1000, 'at most 1000 characters')
  .transform((text) => text || null)
  .nullable();

export const UserUpdate = z.object({ name: Name, bio: Bio, roles: Roles }).partial().strict();
