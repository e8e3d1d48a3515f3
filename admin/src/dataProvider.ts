import simpleRestProvider from 'ra-data-simple-rest';
import { HttpError, fetchUtils, type DataProvider } from 'react-admin';
import type { Dashboard } from '@contract/admin/schemas/dashboard';
import type { FinanceSummaryAnswer, PeriodQuery } from '@contract/finance/schemas';
import type { Wire } from '@contract/shared/wire';
import { withCsrf } from './csrf';

const API = '/api/admin';

/** Every request is same-origin with the session cookie, and echoes the CSRF cookie in X-CSRF-Token. */
export function httpClient(url: string, options: fetchUtils.Options = {}) {
  return fetchUtils.fetchJson(url, { ...options, headers: withCsrf(options.headers), credentials: 'same-origin' });
}

/** What react-query hands a query function: its signal aborts the request once nobody waits for the answer. */
interface QueryOptions {
  signal?: AbortSignal;
}

/** A GET of one of the console's own endpoints, its answer in react-admin's `{ data }` envelope. */
async function getAnswer<T>(path: string, query: Record<string, string>, { signal }: QueryOptions = {}) {
  const { json } = await httpClient(`${API}${path}?${new URLSearchParams(query)}`, { signal });
  return { data: json as T };
}

/** The console's endpoints beyond CRUD (react-admin's custom dataProvider methods). */
export interface ConsoleApi {
  /** POST /api/admin/outbox-emails/:id/retry: the API decides whether the email may be retried (409 if not failed). */
  retryOutboxEmail: (id: string) => Promise<{ data: { id: string; status: string } }>;
  /** GET /api/admin/dashboard (api/src/admin/dashboard.ts): the last `days` days' sales; cents, UTC days. */
  getDashboard: (days: number, options?: QueryOptions) => Promise<{ data: Wire<Dashboard> }>;
  /** GET /api/admin/finance/summary (api/src/finance/summary.ts): the split ledger over whole UTC days, at most 366. */
  getFinanceSummary: (
    period: Pick<PeriodQuery, 'from' | 'to'>,
    options?: QueryOptions,
  ) => Promise<{ data: Wire<FinanceSummaryAnswer> }>;
}

export type ConsoleDataProvider = DataProvider & ConsoleApi;

/** The API speaks ra-data-simple-rest's contract; business rules stay on the server. */
export const dataProvider: ConsoleDataProvider = {
  ...simpleRestProvider(API, httpClient),
  retryOutboxEmail: (id) =>
    httpClient(`${API}/outbox-emails/${encodeURIComponent(id)}/retry`, { method: 'POST', body: '{}' }).then(
      ({ json }) => ({
        data: json as { id: string; status: string },
      }),
    ),
  getDashboard: (days, options) => getAnswer('/dashboard', { days: String(days) }, options),
  getFinanceSummary: ({ from, to }, options) => getAnswer('/finance/summary', { from, to }, options),
};

/**
 * react-query's `retry` for these queries: an answer from the API (a refusal, an error) is final, as it was before
 * react-query; only a request that got no answer (a dropped connection) is tried again, twice at most.
 */
export const retryUnanswered = (failures: number, error: unknown) => failures < 2 && !(error instanceof HttpError);
