import type { Knex } from 'knex';
import type { Db } from '../db/connection';
import { UserPrefs } from './models';
import type { PrefsScope } from './schemas';

/** A person's own preferences: global ones, and per content resource ('local'). */
export function userPrefs({ db }: { db: Db }) {
  const resourceOf = (scope: PrefsScope) => (scope.type === 'local' ? scope.resourceId : null);
  return {
    async get(userId: string, scope: PrefsScope): Promise<Record<string, unknown>> {
      const row = await UserPrefs.query(db)
        .where({ userId, type: scope.type, resourceId: resourceOf(scope) })
        .first();
      return row?.fields ?? {};
    },

    /** Replaces the fields of one scope (created on first write). */
    async put(userId: string, scope: PrefsScope, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
      const [row] = await db('userPrefs')
        .insert({ userId, type: scope.type, resourceId: resourceOf(scope), fields: JSON.stringify(fields) })
        .onConflict(['userId', 'type', 'resourceId'])
        .merge({ fields: JSON.stringify(fields) })
        .returning('fields');
      return row.fields;
    },
  };
}

export type UserPrefsService = ReturnType<typeof userPrefs>;

/**
 * The time zone a person's global preferences name (`timeZone`, an IANA name such as "Europe/Berlin"), for dates in
 * emails to them; null when none is set (emails then say UTC).
 */
export async function timeZoneOf(db: Knex | Knex.Transaction, userId: string): Promise<string | null> {
  const row = await db('userPrefs').where({ userId, type: 'global' }).whereNull('resourceId').first('fields');
  const zone: unknown = row?.fields?.timeZone;
  return typeof zone === 'string' && zone.length <= 64 ? zone : null;
}
