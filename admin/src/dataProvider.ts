import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'react-admin';
import { withCsrf } from './csrf';

const API = '/api/admin';

/** Every request is same-origin with the session cookie, and echoes the CSRF cookie in X-CSRF-Token. */
export function httpClient(url: string, options: fetchUtils.Options = {}) {
  return fetchUtils.fetchJson(url, { ...options, headers: withCsrf(options.headers), credentials: 'same-origin' });
}

export interface OutboxEmailsApi {
  /** POST /api/admin/outbox-emails/:id/retry: the API decides whether the email may be retried (409 if not failed). */
  retryOutboxEmail: (id: string) => Promise<{ data: { id: string; status: string } }>;
}

export type ConsoleDataProvider = DataProvider & OutboxEmailsApi;

/** The API speaks ra-data-simple-rest's contract; business rules stay on the server. */
export const dataProvider: ConsoleDataProvider = {
  ...simpleRestProvider(API, httpClient),
  retryOutboxEmail: (id) =>
    httpClient(`${API}/outbox-emails/${encodeURIComponent(id)}/retry`, { method: 'POST', body: '{}' }).then(
      ({ json }) => ({
        data: json as { id: string; status: string },
      }),
    ),
};
