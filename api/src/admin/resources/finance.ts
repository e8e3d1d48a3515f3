import { ProductRevenueSplit } from '../../finance/models';
import { MonthClose } from '../../finance/month-close/models';
import { MonthParam } from '../../finance/month-close/schemas';
import { Payout, PayoutRecipient } from '../../finance/payouts/models';
import { recipientHasUnpaidPayouts } from '../../finance/payouts/recipient-guard';
import { AppError } from '../../shared/errors';
import { PayoutRecipientCreate, PayoutRecipientUpdate, SplitCreate, SplitUpdate } from '../schemas/finance';
import { defineResource, type Trx } from '../resource';
import { derived, instant, money, text } from '../../http/csv-columns';
import { percentage, person, productNamed } from '../lists/export-lookups';

/**
 * Taken before the write: two edits of one product's splits queue here instead of deadlocking later. The row is
 * updated, not only locked: a fulfilment waiting on the same lock then finds a newer version of the product than its
 * snapshot had, and reads the splits again rather than the ones from before this edit.
 */
async function lockProduct(trx: Trx, productId: string): Promise<void> {
  await trx('products').where('id', productId).update({ updatedAt: trx.fn.now() });
}

/** A product's splits total at most 100 %, checked under the product lock so two edits cannot race past it. */
async function assertSplitsFit(trx: Trx, productId: string): Promise<void> {
  const [row] = (await trx('productRevenueSplits').where({ productId }).sum({ total: 'percent' })) as {
    total: string | number | null;
  }[];
  const sum = Number(row?.total ?? 0);
  if (sum > 1 + 1e-9) {
    const message = `the splits of this product would total ${(sum * 100).toFixed(2)} % (at most 100 %)`;
    throw new AppError('validation-failed', `percent: ${message}`, { percent: message });
  }
}

export const productRevenueSplits = defineResource({
  name: 'product-revenue-splits',
  model: ProductRevenueSplit,
  read: ['support', 'finance'],
  write: ['finance'],
  filterable: { id: 'id', productId: 'id', userId: 'id', type: 'enum', percent: 'number', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'percent', 'type'],
  searchable: [],
  defaultSort: ['createdAt', 'ASC'],
  export: {
    lookups: [productNamed('productId', 'product'), person('userId', 'recipient')],
    columns: [
      text('Product', 'product'),
      text('Type', 'type'),
      derived('Recipient email', (s) => s.recipientEmail ?? (s.userId ? null : 'Platform')),
      text('Recipient name', 'recipientName'),
      percentage('Share', 'percent'),
      instant('Created', 'createdAt'),
      text('Split id', 'id'),
    ],
  },
  exactCount: true,
  create: SplitCreate,
  update: SplitUpdate,
  remove: 'hard',
  constraintFields: {
    product_revenue_splits_user_matches_type: {
      field: 'userId',
      message: 'platform splits have no user; owner and contributor splits need one',
    },
  },
  async beforeWrite({ trx }, input, current) {
    await lockProduct(trx, (current?.productId ?? input.productId) as string);
    return input;
  },
  async afterWrite({ trx }, row) {
    await assertSplitsFit(trx, row.productId as string);
  },
});

/**
 * Payouts to revenue-split recipients, made by payout runs: they change only through their actions (mark paid, the
 * next run), never by editing fields. Few rows (one per recipient and currency a month).
 */
export const payouts = defineResource({
  name: 'payouts',
  model: Payout,
  read: ['finance'],
  write: ['finance'],
  filterable: {
    id: 'id',
    runId: 'id',
    recipientId: 'id',
    status: 'enum',
    method: 'enum',
    currency: 'enum',
    amount: 'number',
    createdAt: 'date',
    paidAt: 'date',
  },
  sortable: ['id', 'createdAt', 'amount', 'status', 'paidAt'],
  searchable: ['reference'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('recipientId', 'recipient')],
    columns: [
      text('Recipient email', 'recipientEmail'),
      text('Recipient name', 'recipientName'),
      money('Amount', 'amount'),
      text('Currency', 'currency'),
      text('Method', 'method'),
      text('Status', 'status'),
      text('Reference', 'reference'),
      text('Error', 'error'),
      instant('Created', 'createdAt'),
      instant('Paid', 'paidAt'),
      text('Run id', 'runId'),
      text('Payout id', 'id'),
    ],
  },
  exactCount: true,
});

/**
 * Closed months (docs/domain.md §21), keyed by their month (YYYY-MM) with their frozen figures: closed by
 * POST /api/admin/month-closes (api/src/finance/month-close/routes.ts), never edited nor reopened. A few rows a year.
 */
export const monthCloses = defineResource({
  name: 'month-closes',
  model: MonthClose,
  read: ['finance'],
  write: ['finance'],
  idColumn: 'month',
  idParam: MonthParam,
  sqlColumns: { id: 'month' },
  present: (row) => ({ id: row.month, ...row }),
  filterable: { id: 'text', month: 'text', closedAt: 'date' },
  sortable: ['id', 'month', 'closedAt'],
  searchable: [],
  defaultSort: ['month', 'DESC'],
  export: {
    columns: [text('Month', 'month'), instant('Closed', 'closedAt'), text('Closed by', 'closedByEmail')],
  },
  exactCount: true,
});

/** Recipients paid by Stripe Connect, with their connected account; everyone else is paid by hand. */
export const payoutRecipients = defineResource({
  name: 'payout-recipients',
  model: PayoutRecipient,
  read: ['finance'],
  write: ['finance'],
  filterable: { id: 'id', userId: 'id', stripeAccountId: 'text', createdAt: 'date' },
  sortable: ['id', 'createdAt'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('userId', 'recipient')],
    columns: [
      text('Recipient email', 'recipientEmail'),
      text('Recipient name', 'recipientName'),
      text('Stripe account', 'stripeAccountId'),
      instant('Created', 'createdAt'),
      text('Recipient id', 'userId'),
      text('Id', 'id'),
    ],
  },
  exactCount: true,
  create: PayoutRecipientCreate,
  update: PayoutRecipientUpdate,
  remove: 'hard',
  deleteGuards: [
    {
      code: 'payout-recipient-has-unpaid-payouts',
      message:
        'This recipient has Stripe payouts not yet paid: keep the account until a run sends them, or pay failed ones by hand.',
      blocks: recipientHasUnpaidPayouts,
    },
  ],
});
