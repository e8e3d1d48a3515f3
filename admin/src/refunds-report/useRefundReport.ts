import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebouncedEvent, useDataProvider } from 'react-admin';
import type { RefundReportAnswer } from '@contract/finance/schemas';
import { DEFAULT_CURRENCY } from '../../../api/src/shared/finance';
import type { Wire } from '@contract/shared/wire';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import { isComplete, samePeriod, type Period } from '../finance/period';

export type RefundReport = Wire<RefundReportAnswer>;

/** How long the dates stand still before they are asked about (typing a year makes a valid date at each digit). */
const SETTLE_MS = 250;

/**
 * The page's period and currency and the refunds report of them, as the Finance page keeps its summary: the dates
 * show at once, the query follows once they settle, keeping the figures it has until the new ones come.
 */
export function useRefundReport(initial: () => Period) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [period, setPeriod] = useState(initial);
  const [currency, setCurrency] = useState(DEFAULT_CURRENCY);
  const [asked, setAsked] = useState(period);
  const settle = useDebouncedEvent(setAsked, SETTLE_MS);
  const query = useQuery<RefundReport>({
    queryKey: ['reports', 'getRefundReport', asked, currency],
    queryFn: ({ signal }) => dataProvider.getRefundReport({ ...asked, currency }, { signal }).then(({ data }) => data),
    enabled: isComplete(asked),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
  const changePeriod = (next: Period) => {
    setPeriod(next);
    settle(next);
  };
  const settled = isComplete(period) && samePeriod(period, asked) && !query.isPlaceholderData;
  return { period, changePeriod, currency, setCurrency, settled, query };
}
