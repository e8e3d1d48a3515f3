import { bindDeps } from '../../shared/bind-deps';
import { closeMonth, nextMonthClose, type MonthCloseDeps } from './close';
import { monthWorkbook } from './workbook';

/**
 * Closing a month (docs/domain.md §21): the close, the month a close would freeze next, and a closed month's
 * workbook for the accountant. The console's list of closed months is a generic resource (admin/resources/finance.ts).
 */
export function monthCloseService(deps: MonthCloseDeps) {
  const bound = bindDeps(deps);
  return {
    close: bound(closeMonth),
    next: bound(nextMonthClose),
    workbook: (month: string) => monthWorkbook(deps.db, month),
  };
}

export type MonthCloseService = ReturnType<typeof monthCloseService>;
