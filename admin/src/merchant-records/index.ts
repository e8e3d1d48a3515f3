import type { ComponentType } from 'react';
import { lazyScreen } from '../common/lazyScreen';
import { MERCHANT_ENTRIES, type MerchantResource } from './entries';

/** One provider resource's menu entry and its screens, which load (all the Payments section's at once) when opened. */
function merchantResource(name: MerchantResource) {
  const { icon, editable, ...entry } = MERCHANT_ENTRIES[name];
  const screens = async () => (await import('./screensByResource')).SCREENS_BY_RESOURCE[name];
  const edit: ComponentType | undefined = editable ? lazyScreen(screens, 'edit') : undefined;
  return {
    icon,
    list: lazyScreen(screens, 'list'),
    show: lazyScreen(screens, 'show'),
    edit,
    recordRepresentation: 'recordRepresentation' in entry ? entry.recordRepresentation : 'identifier',
  };
}

/**
 * The Payments section: the payment provider's records, read-only but for a mirror's status. Each resource is a
 * definition (columns, show fields, filters) in catalog.tsx or payments.tsx; the screens are built from it.
 */
export const MERCHANT_SCREENS = Object.fromEntries(
  (Object.keys(MERCHANT_ENTRIES) as MerchantResource[]).map((name) => [name, merchantResource(name)]),
) as Record<MerchantResource, ReturnType<typeof merchantResource>>;
