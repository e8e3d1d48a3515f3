import { describe, expect, it } from 'vitest';
import { isUuid } from '../../api/src/shared/uuid';

describe('isUuid', () => {
  it('takes an id as PostgreSQL writes one, in either case', () => {
    expect(isUuid('3f2b8c1e-9d4a-4e7b-8c6f-0a1b2c3d4e5f')).toBe(true);
    expect(isUuid('3F2B8C1E-9D4A-4E7B-8C6F-0A1B2C3D4E5F')).toBe(true);
  });

  it('refuses a slug, a cut-off id, and an id with more around it', () => {
    for (const value of [
      'typescript-basics',
      '3f2b8c1e-9d4a-4e7b-8c6f-0a1b2c3d4e5',
      ' 3f2b8c1e-9d4a-4e7b-8c6f-0a1b2c3d4e5f',
      '3f2b8c1e-9d4a-4e7b-8c6f-0a1b2c3d4e5f.ics',
      '',
    ])
      expect(isUuid(value)).toBe(false);
  });
});
