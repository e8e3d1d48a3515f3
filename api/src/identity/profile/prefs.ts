import type { Knex } from 'knex';
import type { Db } from '../../db/connection';
import type { UserPrefs } from '../models';
import type { PrefsScope } from '../schemas';

/** A person's own preferences: global ones, and per content resource ('local'). */
export function userPrefs({ db }: { db: Db }) {
  const resourceOf = (scope: PrefsScope) => (scope.type === 'local' ? scope.resourceId : null);
  return {
    async get(userId: string, scope: PrefsScope): Promise<Record<string, unknown>> {
      const row: Pick<UserPrefs, 'fields'> | undefined = await db('userPrefs')
        .where({ userId, type: scope.type, resourceId: resourceOf(scope) })
        .first('fields');
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

    /**
     * Sets the global `timeZone` field alone (the others kept, in one statement); with `onlyIfUnset`, a zone the
     * person chose is kept (the storefront offers the device's zone after each sign-in). Answers the zone now stored.
     */
    async setTimeZone(userId: string, timeZone: string, { onlyIfUnset = false } = {}): Promise<string> {
      const fields = JSON.stringify({ timeZone });
      await db.raw(
        `INSERT INTO user_prefs (user_id, type, resource_id, fields) VALUES (?, 'global', NULL, ?::jsonb)
         ON CONFLICT (user_id, type, resource_id) DO UPDATE SET fields = user_prefs.fields || EXCLUDED.fields
         ${onlyIfUnset ? `WHERE NOT jsonb_exists(user_prefs.fields, 'timeZone')` : ''}`,
        [userId, fields],
      );
      return (await timeZoneOf(db, userId)) ?? timeZone;
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
