import { recordAudit } from '../audit/record';
import { assertMayManage } from '../identity/staff/staff-guard';
import { bindDeps } from '../shared/bind-deps';
import { deleteAccount, type DeletionDeps, type DeletionRequest } from './deletion';
import { exportPersonalData } from './export';
import type { PersonalDataExport } from './schemas';

export interface PersonalDataDeps extends DeletionDeps {
  school: { get(): Promise<{ name: string }> };
}

/** A staff member acting on someone's personal data from the console. */
export interface StaffRequest extends DeletionRequest {
  actor: DeletionRequest['actor'] & { roles: readonly string[] };
}

/** Support's download of a person's data: only administrators read a staff account's, and every download is audited. */
async function exportForStaff(deps: PersonalDataDeps, userId: string, { actor, requestId }: StaffRequest) {
  const target = await deps.db('users').where({ id: userId }).first('roles');
  if (target) assertMayManage(target as { roles: string[] }, actor, 'download the data of');
  const data: PersonalDataExport = await exportPersonalData(deps, userId);
  await recordAudit(deps.db, {
    actor: { id: actor.id, email: actor.email },
    requestId,
    action: 'user.data-exported',
    resource: 'users',
    recordId: userId,
  });
  return data;
}

/**
 * A person's data, for them (GDPR): a download of everything held about them, and deleting their account
 * (docs/domain.md §16). Support does both from the console, audited.
 */
export function personalData(deps: PersonalDataDeps) {
  const bound = bindDeps(deps);
  return {
    /** The person's own download. */
    exportOwn: bound(exportPersonalData),
    exportForStaff: bound(exportForStaff),
    /** The person deleting their own account: they are the actor, named by id alone. */
    deleteOwn: (userId: string, confirm: string, requestId: string | null) =>
      deleteAccount(deps, userId, confirm, { actor: { id: userId, email: null }, requestId }),
    /** Support deleting a person's account from the console. */
    deleteForStaff: (userId: string, confirm: string, { actor, requestId }: StaffRequest) =>
      deleteAccount(deps, userId, confirm, { actor: { id: actor.id, email: actor.email }, requestId }),
  };
}

export type PersonalData = ReturnType<typeof personalData>;
