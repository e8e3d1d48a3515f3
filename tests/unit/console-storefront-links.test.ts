import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MY_LEARNING_PATH } from '../../api/src/shared/storefront-paths';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ORIGIN = 'https://learn.example';
const ID = '0b9f6a3e-0c3d-4d7e-9a43-5a0f4a1e2b7c';

// The console's and the storefront's modules are typed by their own tsconfig (TSX, @contract paths): loaded at run
// time, as the catalog test loads the console's registry.
const load = <T>(file: string) => import(/* @vite-ignore */ path.join(ROOT, file)) as Promise<T>;
type Ids = { id: string; bulkCouponId: string; inviteCode: string | null };
const { routeFor } = await load<{ routeFor(pathname: string): { name: string } | null }>('storefront/src/App.tsx');
const { verificationPath } = await load<{ verificationPath(c: Pick<Ids, 'id'>): string }>(
  'admin/src/certificates/types.ts',
);
const { inviteUrl } = await load<{ inviteUrl(t: Omit<Ids, 'id'>): string }>('admin/src/bulk-purchases/types.ts');

/**
 * Every address the console (or the API, for the console) sends staff to in the storefront, and the page the
 * storefront's router must show there: one the router does not know shows "Page not found".
 */
const LINKS: [string, () => string, string][] = [
  ['View as (the API answers where it begins)', () => MY_LEARNING_PATH, 'MyLearningPage'],
  ['a certificate’s verification page', () => verificationPath({ id: ID }), 'CertificatePage'],
  [
    'a team’s invite link',
    () => new URL(inviteUrl({ bulkCouponId: ID, inviteCode: 'Ab3-x_9' })).pathname,
    'InvitePage',
  ],
  [
    'an older team’s invite link (its coupon’s id)',
    () => new URL(inviteUrl({ bulkCouponId: ID, inviteCode: null })).pathname,
    'InvitePage',
  ],
];

describe('links from the console into the storefront', () => {
  // The invite link is absolute, on the console's own origin (the storefront's).
  beforeAll(() => vi.stubGlobal('window', { location: { origin: ORIGIN } }));
  afterAll(() => vi.unstubAllGlobals());

  it.each(LINKS)('%s lands on a storefront page', (_name, link, page) => {
    const at = link();
    expect(routeFor(at)?.name, at).toBe(page);
  });

  it('tells a page the storefront does not have from one it has', () => {
    expect(routeFor('/my-learning')).toBeNull();
  });
});
