import { formatDate } from '../../format';

const UTC = { timeZone: 'UTC' };

/**
 * "Dec 3, 2026" in UTC: lines fall into months, and statements cover months, by the UTC calendar (docs/domain.md
 * §19.1), so a line written late on the 30th in New York must read as the 1st it is counted on. Columns say "UTC".
 */
export const formatUtcDate = (iso: string) => formatDate(iso, UTC);
