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
import type { FieldKind } from '../schemas/list-query';
import { defineResource, type AdminResource } from '../resource';

/** Mirrors of the payment provider's objects: written by checkout and fulfilment, read-only here but for status. */
function merchantResource(
  name: string,
  model: AdminResource['model'],
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
    update: MerchantStatusUpdate,
  });
}

export const merchantAccounts = defineResource({
  ...merchantResource('merchant-accounts', MerchantAccount, { exactCount: true }),
  // The accounts themselves: no account above them.
  filterable: { id: 'id', status: 'enum', label: 'enum', identifier: 'text', createdAt: 'date' },
});
export const merchantProducts = merchantResource('merchant-products', MerchantProduct, {
  filterable: { productId: 'id' },
});
export const merchantPrices = merchantResource('merchant-prices', MerchantPrice, {
  filterable: { merchantProductId: 'id', priceId: 'id' },
});
export const merchantCustomers = merchantResource('merchant-customers', MerchantCustomer, {
  filterable: { userId: 'id' },
});
export const merchantCoupons = merchantResource('merchant-coupons', MerchantCoupon, {
  filterable: { percentageDiscount: 'number' },
});
export const merchantSessions = merchantResource('merchant-sessions', MerchantSession);
export const merchantCharges = merchantResource('merchant-charges', MerchantCharge, {
  filterable: {
    userId: 'id',
    merchantProductId: 'id',
    merchantCustomerId: 'id',
    amount: 'number',
    refundAmount: 'number',
    currency: 'enum',
  },
  sortable: ['amount', 'refundAmount', 'net'],
});

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
});
