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
