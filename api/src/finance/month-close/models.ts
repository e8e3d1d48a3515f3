import { table } from '../../db/base-model';
import type { CurrencyFigures } from './schemas';

/** A closed month (YYYY-MM) and the figures frozen when it closed; never changed afterwards. */
export class MonthClose extends table('monthCloses', { idColumn: 'month', jsonAttributes: ['figures'] }) {
  declare month: string;
  declare closedAt: Date;
  declare closedById: string | null;
  declare closedByEmail: string | null;
  declare figures: CurrencyFigures[];
}
