import { describe, expect, it } from 'vitest';
import { MigrationDirectory } from '../../api/src/db/migrations';
import { defaultName } from '../../api/src/shared/shown-name';
import { createUser } from '../../seeds/factories';
import { useTestDatabase } from '../support/db';

const MIGRATION = '20261128232000_rename_emailed_names_on_certificates.ts';

describe('certificates frozen under a nameless learner’s email take the name they are shown by (docs/domain.md §13)', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  it('renames those, and leaves a real name, a corrected name and a name that only looks alike', async () => {
    const migrations = { migrationSource: new MigrationDirectory(), name: MIGRATION };
    await db().migrate.down(migrations);

    let made = 0;
    const certificate = async (
      user: { id: string },
      learnerName: string,
      more: Record<string, unknown> = {},
    ): Promise<string> => {
      const id = `NAMES${String(++made).padStart(7, '0')}`;
      await db()('certificates').insert({ id, userId: user.id, learnerName, courseTitle: 'Bread', ...more });
      return id;
    };
    const nameless = await createUser(db(), { email: 'ada.l@example.com' });
    await db()('users').where({ id: nameless.id }).update({ name: null });
    const blankName = await createUser(db(), { email: 'grace@example.com' });
    await db()('users').where({ id: blankName.id }).update({ name: '  ' });
    const named = await createUser(db(), { name: 'Alan Turing', email: 'alan@example.com' });
    const corrected = await createUser(db(), { email: 'edsger@example.com' });
    await db()('users').where({ id: corrected.id }).update({ name: null });

    const emailed = await certificate(nameless, 'ada.l');
    const emailedBlank = await certificate(blankName, 'grace');
    const real = await certificate(named, 'Alan Turing');
    const alike = await certificate(named, 'alan'); // a name that happens to be the local part, theirs to keep
    const at = new Date('2026-11-20T10:00:00Z');
    const fixed = await certificate(corrected, 'edsger', { nameCorrectedAt: at, holderCorrectedAt: at });

    await db().migrate.up(migrations);

    const names = Object.fromEntries(
      (await db()('certificates').whereIn('id', [emailed, emailedBlank, real, alike, fixed])).map((c) => [
        c.id,
        c.learnerName,
      ]),
    );
    expect(names).toEqual({
      [emailed]: defaultName(nameless.id),
      [emailedBlank]: defaultName(blankName.id),
      [real]: 'Alan Turing',
      [alike]: 'alan',
      [fixed]: 'edsger',
    });
    expect(defaultName(nameless.id)).toMatch(/^Learner [0-9A-F]{4}$/);
  });
});
