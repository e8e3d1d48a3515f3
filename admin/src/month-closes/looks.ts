import type { CurrencyFigures, MonthCloseRecord } from '@contract/finance/month-close/schemas';
import type { Wire } from '@contract/shared/wire';

/** A closed month as the API lists it (api/src/finance/month-close/schemas.ts). */
export type MonthCloseRow = Wire<MonthCloseRecord>;
export type MonthFigures = Wire<CurrencyFigures>;

/** The workbook of a closed month, through the console's own route (a download). */
export const workbookHref = (month: string) => `/api/admin/month-closes/${month}/export.xlsx`;
