import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { financeExports } from '../../api/src/finance/exports';
import { csvLine, neutraliseFormula } from '../../api/src/http/csv';
import { createLogger } from '../../api/src/logger';
import { createProduct, createUser } from '../../seeds/factories';
import { useTestDatabase } from '../support/db';

/**
 * The charges export, written by PostgreSQL's COPY, holds awkward text as the exports always have: quotes, commas,
 * semicolons, tabs, line breaks, edge spaces, formula starts (= + - @) and non-Latin names come back from a CSV
 * parser as they were written (a formula start behind an apostrophe), each line byte for byte what csvLine writes;
 * negative amounts and a zero-decimal currency stay plain numbers.
 */
describe('finance: the charges export keeps awkward text and numbers as they are', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const period = { from: '2019-05-01', to: '2019-05-01', period: 'month' as const };
  const AWKWARD = [
    'Plain',
    'Quoted "title"',
    'Comma, then more',
    'Semi;colon',
    'Tab\there',
    'Two\nlines',
    'Carriage\r\nreturn',
    ' padded ',
    '=HYPERLINK("http://evil.example","x")',
    '+33 6 12',
    '-2+3',
    '@SUM(1)',
    '  =1+1',
    'Программирование',
    '東京の講座',
    'Café ✓',
  ];
  /** A buyer's country as the purchase has it, or none (an empty cell). */
  const country = (i: number) => ['DE', 'JP', null][i % 3]!;

  beforeAll(async () => {
    const [account] = await db()('merchantAccounts')
      .insert({ label: 'awkward', identifier: 'acct_awkward' })
      .returning('id');
    for (const [i, name] of AWKWARD.entries()) {
      const product = await createProduct(db(), { name, slug: `awkward-${i}` });
      const buyer = await createUser(db(), { email: `=buyer${i}@example.com` });
      const [merchantProduct] = await db()('merchantProducts')
        .insert({ merchantAccountId: account.id, identifier: `prod_awkward_${i}`, productId: product.id })
        .returning('id');
      const [charge] = await db()('merchantCharges')
        .insert({
          merchantAccountId: account.id,
          identifier: i % 2 ? `ch_awk,${i}` : `-ch_awk_${i}`,
          amount: 4000 + i,
          fee: 5000, // more than the amount: a negative net
          net: -1000 + i,
          currency: i % 3 ? 'usd' : 'jpy',
          userId: buyer.id,
          merchantProductId: merchantProduct.id,
          createdAt: new Date(Date.UTC(2019, 4, 1, 10, 0, i)),
        })
        .returning('id');
      await db()('purchases').insert({
        userId: buyer.id,
        productId: product.id,
        status: 'Valid',
        totalAmount: 4000 + i,
        currency: i % 3 ? 'usd' : 'jpy',
        country: country(i),
        merchantChargeId: charge.id,
        createdAt: new Date(Date.UTC(2019, 4, 1, 10, 0, i)),
      });
    }
  });

  it('reads back every awkward name as written, each line as csvLine writes it', async () => {
    const { total, body } = await financeExports({ db: db(), logger: createLogger('silent') }).open('charges', period);
    expect(total).toBe(AWKWARD.length);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
    const text = Buffer.concat(chunks).toString('utf8');
    const records = parse(text, { bom: true, columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
    expect(records.map((r) => r.Product)).toEqual(AWKWARD.map(neutraliseFormula));
    for (const [i, record] of records.entries()) {
      expect(record).toMatchObject({
        Date: new Date(Date.UTC(2019, 4, 1, 10, 0, i)).toISOString(),
        Charge: neutraliseFormula(i % 2 ? `ch_awk,${i}` : `-ch_awk_${i}`),
        'Buyer email': `'=buyer${i}@example.com`,
        'Buyer country': country(i) ?? '',
        'Gross (cents)': String(4000 + i),
        'Net (cents)': String(4000 + i - 5000),
        Currency: i % 3 ? 'usd' : 'jpy',
        Coupon: '',
      });
      // The line's bytes are csvLine's for the same values (text as text, amounts as numbers).
      const cells = Object.values(record).map((v) => (v === '' ? null : v.replace(/^'/, '')));
      const numbers = Object.keys(record).map((h) => h.endsWith('(cents)') || h === 'Seats');
      expect(text).toContain(`\r\n${csvLine(cells, numbers)}`);
    }
  });
});
