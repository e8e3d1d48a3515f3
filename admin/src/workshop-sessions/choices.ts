import type { WorkshopSessionRecord } from '@contract/catalog/workshops/schemas';
import type { Wire } from '@contract/shared/wire';

/** A workshop session as the console sees it (the `workshop-sessions` resource). */
export type WorkshopSession = Wire<WorkshopSessionRecord>;

/** Every IANA zone the browser knows, for the time zone picker (UTC first: the browser lists it apart). */
export const TIME_ZONE_CHOICES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')].map(
  (zone) => ({ id: zone, name: zone.replaceAll('_', ' ') }),
);

/** The console user's own zone: the default for a new session. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
