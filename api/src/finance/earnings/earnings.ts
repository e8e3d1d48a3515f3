import { bindDeps } from '../../shared/bind-deps';
import type { EarningsDeps } from './deps';
import { earningsOverview } from './overview';
import { isPayee } from './queries';
import { monthlyStatement } from './statement';
import { statementCsv } from './statement-csv';
import { statementPdf } from './statement-pdf';

/** What an author or contributor sees of their money (docs/domain.md §19.1): the overview and monthly statements. */
export function earningsService(deps: EarningsDeps) {
  const bound = bindDeps(deps);
  const statement = bound(monthlyStatement);
  return {
    overview: bound(earningsOverview),
    isPayee: (userId: string) => isPayee(deps.db, userId),
    statementCsv: async (userId: string, month: string) => ({
      filename: `earnings-${month}.csv`,
      text: statementCsv(await statement(userId, month)),
    }),
    statementPdf: async (userId: string, month: string) => ({
      filename: `earnings-${month}.pdf`,
      bytes: await statementPdf(await statement(userId, month)),
    }),
  };
}

export type EarningsService = ReturnType<typeof earningsService>;
