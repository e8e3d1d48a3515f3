import taxRates from '../tax-rates';
import taxRegistrations from '../tax-registrations';
import { accessOf } from './access';
import type { ConsoleResource } from './types';

/** The Tax section: the built-in engine's rates and where the school is registered besides its home country. */
export const TAX_RESOURCES: readonly ConsoleResource[] = [
  { ...accessOf('tax-rates'), ...taxRates, group: 'Tax' },
  { ...accessOf('tax-registrations'), ...taxRegistrations, group: 'Tax' },
];
