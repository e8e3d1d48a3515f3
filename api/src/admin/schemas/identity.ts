import { z } from 'zod';
import { ROLES } from '../../identity/roles';
import { EmailAddress } from '../../identity/schemas';

const Roles = z
  .array(z.enum(ROLES))
  .max(ROLES.length)
  .transform((roles) => [...new Set(roles)].sort());

const Name = z.string().trim().min(1).max(200).nullable();

export const UserCreate = z.object({ email: EmailAddress, name: Name.optional(), roles: Roles.optional() }).strict();
export const UserUpdate = z.object({ name: Name, roles: Roles }).partial().strict();
