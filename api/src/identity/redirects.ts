// The rule lives in shared/safe-redirect.ts, where the two apps import it too; this name stays for older imports.
export { safeRedirect } from '../shared/safe-redirect';
