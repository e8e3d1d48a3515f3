// The roles live in shared/ so that the console takes the same list (apps import only shared/ as values).
export { CONSOLE_ROLES, ROLES, STAFF_ROLES, hasStaffRole, isStaffAccount, type Role } from '../shared/roles';
