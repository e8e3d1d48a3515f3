import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebouncedEvent, useDataProvider } from 'react-admin';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import type { FinanceSummary } from './api';
import { isComplete, samePeriod, type Period } from './period';

/** How long the dates stand still before they are asked about: typing a year makes a valid date at each digit. */
const SETTLE_MS = 250;

/**
 * The page's period and currency and the split ledger's summary of them. The dates show at once; the query follows
 * once they settle, keeping the figures it has until the new ones come (react-query cancels the request nobody waits
 * for). Until a currency is chosen, the figures are in the one the API picks.
 */
export function useFinanceSummary(initial: () => Period) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [period, setPeriod] = useState(initial);
  const [currency, setCurrency] = useState<string>();
  const [asked, setAsked] = useState(period);
  const settle = useDebouncedEvent(setAsked, SETTLE_MS);
  const query = useQuery<FinanceSummary>({
    queryKey: ['finance', 'getFinanceSummary', asked, currency],
    queryFn: ({ signal }) =>
      dataProvider.getFinanceSummary({ ...asked, currency }, { signal }).then(({ data }) => data),
    enabled: isComplete(asked),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
  const changePeriod = (next: Period) => {
    setPeriod(next);
    settle(next);
  };
  /** The figures are those of the dates in the inputs (not of dates being typed, nor of the previous ones). */
  const settled = isComplete(period) && samePeriod(period, asked) && !query.isPlaceholderData;
  return { period, changePeriod, currency, setCurrency, settled, query };
}
