import { z } from 'zod';
import type { Db } from '../db/connection';
import { UserPrefs } from './models';

export const PrefsScope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('global') }),
  z.object({ type: z.literal('local'), resourceId: z.uuid('must be a content resource id') }),
]);
export type PrefsScope = z.infer<typeof PrefsScope>;

export const PrefsFields = z
  .record(z.string().max(100), z.unknown())
  .refine((fields) => JSON.stringify(fields).length <= 16_384, 'preferences are limited to 16 KB');

/** A person's own preferences: global ones, and per content resource ('local'). */
export function userPrefs({ db }: { db: Db }) {
  const resourceOf = (scope: PrefsScope) => (scope.type === 'local' ? scope.resourceId : null);
  return {
    async get(userId: string, scope: PrefsScope): Promise<Record<string, unknown>> {
      const row = await UserPrefs.query(db).where({ userId, type: scope.type, resourceId: resourceOf(scope) }).first();
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
