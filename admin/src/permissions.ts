import { isStaffAccount, STAFF_ROLES as API_STAFF_ROLES } from '../../api/src/shared/roles';
import type { Role } from './authProvider';
import { canRead as mayRead, canWrite as mayWrite, resourceAccess } from './registry/access';

/** The roles that may open the console (the API's list). */
export const STAFF_ROLES: readonly Role[] = API_STAFF_ROLES;

export function rolesOf(permissions: unknown): Role[] {
  return Array.isArray(permissions) ? (permissions.filter((r) => typeof r === 'string') as Role[]) : [];
}

export function isAdmin(permissions: unknown): boolean {
  return rolesOf(permissions).includes('admin');
}

/** Whether the signed-in roles may read a resource (./registry/access mirrors the API's policies). */
export function canRead(permissions: unknown, name: string): boolean {
  const resource = resourceAccess(name);
  return Boolean(resource && mayRead(rolesOf(permissions), resource));
}

export function canWrite(permissions: unknown, name: string): boolean {
  const resource = resourceAccess(name);
  return Boolean(resource && mayWrite(rolesOf(permissions), resource));
}

/** Revoking sessions and device tokens: the same roles that may read them. */
export const canRevoke = (permissions: unknown, resource: 'sessions' | 'device-access-tokens') =>
  canWrite(permissions, resource);

/** Whether a person's account is staff to the rules on acting on people: anyone who opens the console (the API's). */
export { isStaffAccount };

/**
 * Acting on a person (blocking, signing out, changing their email): on a staff account administrators only, as the
 * API's identity/staff-guard says.
 */
export const mayActOnPerson = (permissions: unknown, person: { roles: readonly string[] }) =>
  !isStaffAccount(person.roles) || isAdmin(permissions);

export function isStaff(permissions: unknown): boolean {
  return rolesOf(permissions).some((r) => STAFF_ROLES.includes(r));
}

/** Refunding a purchase (POST /api/admin/purchases/:id/refund): support and admins, as the API's route says. */
export function canRefund(permissions: unknown): boolean {
  return rolesOf(permissions).some((r) => r === 'admin' || r === 'support');
}

/** Banning a purchase (POST /api/admin/purchases/:id/ban): admins only. */
export const canBan = (permissions: unknown) => isAdmin(permissions);

/**
 * Support's actions on teams and transfers, as the API's routes say (support and admins): revoking a team seat
 * (DELETE /api/admin/bulk-purchases/:id/members/:memberId), canceling a transfer
 * (POST /api/admin/purchase-user-transfers/:id/cancel) and moving a purchase to another email
 * (POST /api/admin/purchases/:id/move).
 */
export function canManageOwnership(permissions: unknown): boolean {
  return rolesOf(permissions).some((r) => r === 'admin' || r === 'support');
}

/** Giving a person a course (POST /api/admin/users/:id/comps): support and admins, as the API's route says. */
export function canGiveCourse(permissions: unknown): boolean {
  return rolesOf(permissions).some((r) => r === 'admin' || r === 'support');
}

/** Hiding a comment or showing it again (POST /api/admin/comments/:id/hide|unhide): support and admins. */
export function canModerateComments(permissions: unknown): boolean {
  return rolesOf(permissions).some((r) => r === 'admin' || r === 'support');
}

/** The Refunds report (GET /api/admin/reports/refunds and its CSV): support, finance and admins. */
export function canSeeRefundsReport(permissions: unknown): boolean {
  return rolesOf(permissions).some((r) => r === 'admin' || r === 'support' || r === 'finance');
}

/** The school's settings page (GET/PUT /api/admin/school and its logo): admins only, as the API's routes say. */
export const canEditSchool = (permissions: unknown) => isAdmin(permissions);

/** The Finance page (GET /api/admin/finance/summary and the CSV exports): finance and admins. */
export function canSeeFinance(permissions: unknown): boolean {
  return rolesOf(permissions).some((r) => r === 'admin' || r === 'finance');
}
