import type { Knex } from 'knex';
import type { ChargeFacts } from '../../finance/ledger';
import type { MerchantCharge } from '../../payments/models';
import type { Settlement } from '../../payments/provider';
import type { TaxColumns } from '../../tax/models';
import { byColumns, rowsInsert, type RowsInsert } from '../../db/rows-together';
import { insertRow, type Conn } from './checkout-rows';

/** The SQL of a settlement's money: the charge it records, and the refund of one that cannot be fulfilled. */

export interface NewCharge {
  /** Chosen before: the writes sent with the charge name it. */
  id: string;
  accountId: string;
  customerIdentifier: string;
  userId: string;
  /** `settlement`: what the processor settled for it, when it told (docs/domain.md §20). */
  charge: { identifier: string; amount: number; fee: number; settlement?: Settlement | null };
  currency: string;
  merchantProductId: string;
  metadata: Record<string, unknown>;
  /** The tax the charge carried: inside its amount, never revenue. */
  tax: TaxColumns;
}

/**
 * The provider's customer (recorded, or active again), the charge and `also` (its ledger lines), in one statement; the
 * money it recorded.
 */
export async function insertCharge(
  trx: Knex.Transaction,
  input: NewCharge,
  also: Knex.QueryBuilder[] = [],
): Promise<Omit<ChargeFacts, 'productId'> | null> {
  let write = trx.with('customer', customerInsert(trx, input));
  also.forEach((query, i) => (write = write.with(`also_${i}`, query)));
  const [inserted] = await write
    .into('merchantCharges')
    .insert({ ...chargeRow(input), merchantCustomerId: trx('customer').select('id') })
    .returning(['id', 'amount', 'taxAmount', 'fee', 'currency']);
  return inserted ?? null;
}

/**
 * The charges of a batch of settlements as statement parts of a fixed text whatever their number (see rows-together):
 * the new buyers' accounts, the provider's customers (recorded, or active again), the charges (each naming its
 * customer by identifier) and their ledger lines.
 */
export function chargesTogether(
  trx: Knex.Transaction,
  batch: { buyers: { id: string; email: string }[]; charges: NewCharge[]; lines: Record<string, unknown>[] },
): [string, Knex.Raw][] {
  const customers = batch.charges.map((input) => ({
    merchantAccountId: input.accountId,
    identifier: input.customerIdentifier,
    userId: input.userId,
  }));
  const charges = batch.charges.map((input) => ({
    ...chargeRow(input),
    metadata: input.metadata,
    customerIdentifier: input.customerIdentifier,
  }));
  const named = (name: string, specs: RowsInsert[]) =>
    specs.map((spec, n): [string, Knex.Raw] => [`${name}_${n}`, rowsInsert(trx, spec)]);
  return [
    ...named('buyers', byColumns({ table: 'users', rows: batch.buyers })),
    [
      'customers',
      rowsInsert(trx, {
        table: 'merchantCustomers',
        rows: customers,
        suffix: `ON CONFLICT (merchant_account_id, identifier) DO UPDATE SET status = 'active' RETURNING id, identifier`,
      }),
    ],
    ...named(
      'charges',
      byColumns({
        table: 'merchantCharges',
        rows: charges,
        computed: {
          merchantCustomerId: `(SELECT c.id FROM customers c WHERE c.identifier = e.v->>'customer_identifier')`,
        },
        extras: ['customerIdentifier'],
      }),
    ),
    ...named('lines', byColumns({ table: 'splitLines', rows: batch.lines })),
  ];
}

const customerInsert = (trx: Knex.Transaction, input: NewCharge) =>
  trx('merchantCustomers')
    .insert({ merchantAccountId: input.accountId, identifier: input.customerIdentifier, userId: input.userId })
    .onConflict(['merchantAccountId', 'identifier'])
    .merge({ status: 'active' })
    .returning('id');

const chargeRow = (input: NewCharge) => ({
  id: input.id,
  merchantAccountId: input.accountId,
  identifier: input.charge.identifier,
  amount: input.charge.amount,
  fee: input.charge.fee,
  net: input.charge.amount - input.charge.fee,
  currency: input.currency,
  userId: input.userId,
  merchantProductId: input.merchantProductId,
  metadata: JSON.stringify(input.metadata),
  ...input.tax,
  ...settlementColumns(input.charge.settlement),
});

/** What the processor settled for the charge, as its columns; none when it did not tell. */
const settlementColumns = (settlement: Settlement | null | undefined) =>
  settlement
    ? {
        settlementIdentifier: settlement.identifier,
        settlementAmount: settlement.amount,
        settlementFee: settlement.fee,
        settlementCurrency: settlement.currency,
        settlementExchangeRate: settlement.exchangeRate,
      }
    : {};

/** What is left of a charge to refund: its amount less what was refunded and what refunds under way reserve. */
export async function refundableOf(trx: Knex.Transaction, chargeId: string): Promise<number> {
  const charge = (await trx('merchantCharges').where({ id: chargeId }).first('amount', 'refundAmount')) as Pick<
    MerchantCharge,
    'amount' | 'refundAmount'
  >;
  const [pending] = await trx('merchantRefunds')
    .where({ merchantChargeId: chargeId })
    .whereNot({ status: 'succeeded' })
    .sum({ amount: 'amount' });
  return charge.amount - charge.refundAmount - Number(pending?.amount ?? 0);
}

export async function insertRefund(
  trx: Knex.Transaction,
  refund: {
    merchantAccountId: string;
    merchantChargeId: string;
    amount: number;
    reason: string;
    idempotencyKey: string;
  },
): Promise<string> {
  // The system's own refund: a payment that could not be fulfilled.
  return insertRow(trx, 'merchantRefunds', { ...refund, reasonCode: 'not-fulfilled' });
}

/** A join shape no model has: the refund beside its buyer's email and its product's name, for the apology. */
type StalledRefund = {
  id: string;
  chargeId: string;
  reason: string;
  amount: number;
  email: string;
  productName: string;
};

/**
 * A refund of an unfulfillable checkout (by its key) that failed, or has stood pending long enough that the call
 * asking for it is gone, on a charge not refunded in full meanwhile; with what its apology needs.
 */
export const stalledRefund = (db: Conn, idempotencyKey: string) =>
  db('merchantRefunds as r')
    .join('purchases as p', 'p.merchantChargeId', 'r.merchantChargeId')
    .join('products as pr', 'pr.id', 'p.productId')
    .join('users as u', 'u.id', 'p.userId')
    .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
    .where('r.idempotencyKey', idempotencyKey)
    .where((q) =>
      q
        .where('r.status', 'failed')
        .orWhere('r.status', 'pending')
        .where('r.createdAt', '<', db.raw(`now() - interval '2 minutes'`)),
    )
    .whereRaw('c.refund_amount < c.amount')
    .first(
      'r.id',
      'r.merchantChargeId as chargeId',
      'r.reason',
      'r.amount',
      'u.email',
      'pr.name as productName',
    ) as Promise<StalledRefund | undefined>;

export const markRefundPending = (db: Conn, refundId: string) =>
  db('merchantRefunds').where({ id: refundId, status: 'failed' }).update({ status: 'pending' });
