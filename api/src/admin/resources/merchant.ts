import { MerchantStatusUpdate } from '../schemas/merchant';
import {
  MerchantAccount,
  MerchantCharge,
  MerchantCoupon,
  MerchantCustomer,
  MerchantDispute,
  MerchantPrice,
  MerchantProduct,
  MerchantRefund,
  MerchantSession,
} from '../../payments/models';
import type { FieldKind } from '../../list-query/schemas';
import { defineResource, type AdminResource, type ExportLookup, type ListExport } from '../resource';
import { derived, instant, labelled, money, text } from '../../http/csv-columns';
import { REFUND_REASON_LABELS } from '../../shared/refund-reasons';
import { percentage, person, productNamed } from '../lists/export-lookups';

/** The provider account a record belongs to, by its label. */
const accountLabel: ExportLookup = {
  from: 'merchantAccountId',
  table: 'merchantAccounts',
  fields: { account: 'label' },
};
/** The charge a refund or a dispute is of: its provider id and its currency (theirs too). */
const chargeOf: ExportLookup = {
  from: 'merchantChargeId',
  table: 'merchantCharges',
  fields: { charge: 'identifier', chargeCurrency: 'currency' },
};
/** What every mirror's export ends with: its provider id, its status, when, and its own id. */
const identified = [
  text('Identifier', 'identifier'),
  text('Status', 'status'),
  instant('Created', 'createdAt'),
  text('Id', 'id'),
];

/** Mirrors of the payment provider's objects: written by checkout and fulfilment, read-only here but for status. */
function merchantResource(
  name: string,
  model: AdminResource['model'],
  listExport: ListExport,
  extra: { filterable?: Record<string, FieldKind>; sortable?: string[]; exactCount?: boolean } = {},
): AdminResource {
  return defineResource({
    name,
    model,
    read: ['support', 'finance'],
    filterable: {
      id: 'id',
      status: 'enum',
      merchantAccountId: 'id',
      identifier: 'text',
      createdAt: 'date',
      ...extra.filterable,
    },
    sortable: ['id', 'createdAt', 'status', ...(extra.sortable ?? [])],
    searchable: ['identifier'],
    defaultSort: ['createdAt', 'DESC'],
    exactCount: extra.exactCount,
    export: listExport,
    update: MerchantStatusUpdate,
  });
}

export const merchantAccounts = defineResource({
  ...merchantResource(
    'merchant-accounts',
    MerchantAccount,
    { columns: [text('Label', 'label'), ...identified] },
    {
      exactCount: true,
    },
  ),
  // The accounts themselves: no account above them.
  filterable: { id: 'id', status: 'enum', label: 'enum', identifier: 'text', createdAt: 'date' },
});
export const merchantProducts = merchantResource(
  'merchant-products',
  MerchantProduct,
  {
    lookups: [productNamed('productId', 'product'), accountLabel],
    columns: [text('Product', 'product'), text('Account', 'account'), ...identified],
  },
  {
    filterable: { productId: 'id' },
    // One a product per account: a few hundred rows.
    exactCount: true,
  },
);
export const merchantPrices = merchantResource(
  'merchant-prices',
  MerchantPrice,
  {
    lookups: [
      {
        from: 'merchantProductId',
        table: 'merchantProducts',
        fields: { merchantProduct: 'identifier', productId: 'productId' },
      },
      productNamed('productId', 'product'),
      { from: 'priceId', table: 'prices', fields: { unitAmount: 'unitAmount', currency: 'currency' } },
      accountLabel,
    ],
    columns: [
      text('Product', 'product'),
      text('Provider product', 'merchantProduct'),
      money('Price', 'unitAmount'),
      text('Currency', 'currency'),
      text('Account', 'account'),
      ...identified,
    ],
  },
  {
    filterable: { merchantProductId: 'id', priceId: 'id' },
    // One a price per account: a few hundred rows.
    exactCount: true,
  },
);
export const merchantCustomers = merchantResource(
  'merchant-customers',
  MerchantCustomer,
  {
    lookups: [person('userId', 'customer'), accountLabel],
    columns: [text('Email', 'customerEmail'), text('Name', 'customerName'), text('Account', 'account'), ...identified],
  },
  {
    filterable: { userId: 'id' },
  },
);
export const merchantCoupons = merchantResource(
  'merchant-coupons',
  MerchantCoupon,
  {
    lookups: [accountLabel],
    columns: [
      percentage('Discount', 'percentageDiscount'),
      text('Type', 'type'),
      text('Account', 'account'),
      ...identified,
    ],
  },
  {
    filterable: { percentageDiscount: 'number' },
    // One a discount the school offers: a few dozen rows.
    exactCount: true,
  },
);
export const merchantSessions = merchantResource('merchant-sessions', MerchantSession, {
  lookups: [accountLabel],
  columns: [text('Account', 'account'), ...identified],
});
export const merchantCharges = merchantResource(
  'merchant-charges',
  MerchantCharge,
  {
    lookups: [person('userId', 'buyer')],
    columns: [
      instant('Date', 'createdAt'),
      text('Buyer email', 'buyerEmail'),
      text('Buyer name', 'buyerName'),
      money('Amount', 'amount'),
      money('Fee', 'fee'),
      money('Net', 'net'),
      money('Refunded', 'refundAmount'),
      text('Currency', 'currency'),
      text('Status', 'status'),
      text('Identifier', 'identifier'),
      text('Id', 'id'),
    ],
  },
  {
    filterable: {
      userId: 'id',
      merchantProductId: 'id',
      merchantCustomerId: 'id',
      amount: 'number',
      refundAmount: 'number',
      currency: 'enum',
    },
    sortable: ['amount', 'refundAmount', 'net'],
  },
);

/** Refunds asked of the provider (who asked, why, how much): written only by the refund action, read-only here. */
export const merchantRefunds = defineResource({
  name: 'merchant-refunds',
  model: MerchantRefund,
  read: ['support', 'finance'],
  filterable: {
    id: 'id',
    merchantAccountId: 'id',
    merchantChargeId: 'id',
    requestedById: 'id',
    identifier: 'text',
    reasonCode: 'enum',
    status: 'enum',
    amount: 'number',
    createdAt: 'date',
  },
  sortable: ['id', 'createdAt', 'amount', 'reasonCode'],
  searchable: ['identifier'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [chargeOf, person('requestedById', 'requester')],
    columns: [
      instant('Date', 'createdAt'),
      money('Amount', 'amount', 'chargeCurrency'),
      text('Currency', 'chargeCurrency'),
      labelled('Reason', 'reasonCode', REFUND_REASON_LABELS),
      text('Note', 'reason'),
      derived('Requested by', (r) => r.requesterEmail ?? (r.requestedById ? null : 'Payment provider')),
      text('Charge', 'charge'),
      text('Identifier', 'identifier'),
      text('Id', 'id'),
    ],
  },
});

const disputeFields = {
  id: 'id',
  merchantAccountId: 'id',
  merchantChargeId: 'id',
  identifier: 'text',
  status: 'enum',
  amount: 'number',
  createdAt: 'date',
  closedAt: 'date',
  evidenceDueBy: 'date',
} as const satisfies Record<string, FieldKind>;

/**
 * Disputes (chargebacks) as the provider reports them: written only by its events, read-only here. Each carries its
 * charge's currency and buyer and the purchase the charge paid for, so the list says who disputed what; the most
 * urgent evidence deadline comes first (disputes without one last).
 */
export const merchantDisputes = defineResource({
  name: 'merchant-disputes',
  model: MerchantDispute,
  read: ['support', 'finance'],
  baseQuery: (db) =>
    MerchantDispute.query(db)
      .join('merchantCharges as disputedCharge', 'disputedCharge.id', 'merchantDisputes.merchantChargeId')
      .select(
        'merchantDisputes.*',
        'disputedCharge.currency as currency',
        'disputedCharge.userId as userId',
        db.raw(`(SELECT p.id FROM purchases p WHERE p.merchant_charge_id = merchant_disputes.merchant_charge_id
                  ORDER BY p.created_at LIMIT 1) AS "purchaseId"`),
      ) as never,
  sqlColumns: {
    ...Object.fromEntries(Object.keys(disputeFields).map((field) => [field, `merchantDisputes.${field}`])),
    userId: 'disputedCharge.userId',
  },
  filterable: { ...disputeFields, userId: 'id' },
  sortable: ['id', 'createdAt', 'amount', 'status', 'closedAt', 'evidenceDueBy'],
  searchable: ['identifier'],
  defaultSort: ['evidenceDueBy', 'ASC'],
  // Disputes are a few in a thousand charges: sorted and counted in full.
  exactCount: true,
  export: {
    lookups: [person('userId', 'buyer'), chargeOf],
    columns: [
      instant('Evidence due', 'evidenceDueBy'),
      text('Status', 'status'),
      money('Amount', 'amount'),
      text('Currency', 'currency'),
      text('Reason', 'reason'),
      text('Buyer email', 'buyerEmail'),
      text('Buyer name', 'buyerName'),
      text('Purchase id', 'purchaseId'),
      instant('Opened', 'createdAt'),
      instant('Closed', 'closedAt'),
      text('Charge', 'charge'),
      text('Identifier', 'identifier'),
      text('Id', 'id'),
    ],
  },
});
