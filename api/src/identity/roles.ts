// The roles live in shared/ so that the console takes the same list (apps import only shared/ as values).
export { ROLES, STAFF_ROLES, isStaffAccount, type Role } from '../shared/roles';
