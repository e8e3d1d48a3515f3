import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inviteUrl } from '../../admin/src/bulk-purchases/types';
import { verificationPath } from '../../admin/src/certificates/types';
import { MY_LEARNING_PATH } from '../../api/src/shared/storefront-paths';
import { routeFor } from '../../storefront/src/App';

const ORIGIN = 'https://learn.example';
const ID = '0b9f6a3e-0c3d-4d7e-9a43-5a0f4a1e2b7c';

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
    const path = link();
    expect(routeFor(path)?.name, path).toBe(page);
  });

  it('tells a page the storefront does not have from one it has', () => {
    expect(routeFor('/my-learning')).toBeNull();
  });
});
