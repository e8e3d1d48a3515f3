import { date, money, percent, pick, ref, status, text } from '../common/columns';
import { choiceFilter, referenceFilter, searchFilter } from '../common/filters';
import { PercentInput } from '../common/inputs';
import { RelatedRows } from '../common/Rows';
import { ACTIVE_INACTIVE, ACTIVE_INACTIVE_CHOICES } from '../common/chipLooks';
import { merchantFilters } from '../common/MerchantRecord';
import type { MerchantRecordDefinition } from './screens';

// The provider's mirrors of the catalog and of its buyers: each record names the console record it mirrors.

const account = ref('merchantAccountId', 'merchant-accounts');
/** The columns every mirror ends with, and its show page too (before its id). */
const identified = [text('identifier'), status(ACTIVE_INACTIVE), date('createdAt')];
const id = text('id');

const chargeColumns = [
  date('createdAt'),
  ref('userId', 'users'),
  money('amount'),
  money('refundAmount'),
  text('identifier'),
];

/** The charges of a customer or a product record (`owner`), newest first. */
const chargesOf = (owner: string, target: string, columns: string[]) => (
  <RelatedRows
    key="charges"
    label={`resources.${owner}.fields.charges`}
    reference="merchant-charges"
    target={target}
    paginated
    empty="resources.merchant-charges.noneHere"
  >
    {pick(chargeColumns, columns)}
  </RelatedRows>
);

const priceColumns = [
  ref('merchantProductId', 'merchant-products'),
  ref('priceId', 'prices', { emptyText: '—' }),
  account,
  ...identified,
];

export const merchantPrices: MerchantRecordDefinition = {
  mirror: true,
  filters: merchantFilters(referenceFilter('merchantProductId', 'merchant-products')),
  list: priceColumns,
  show: [...priceColumns, id],
  edit: pick(priceColumns, ['priceId']),
};

/** A price record's columns below its product record, its price or its product (`withPrice`: the price too). */
export const merchantPriceColumns = (withPrice: boolean) =>
  pick(
    priceColumns,
    withPrice
      ? ['identifier', 'priceId', 'status', 'createdAt']
      : ['merchantAccountId', 'identifier', 'status', 'createdAt'],
  );

const productColumns = [ref('productId', 'products'), account, ...identified];

export const merchantProducts: MerchantRecordDefinition = {
  mirror: true,
  filters: merchantFilters(referenceFilter('productId', 'products', { alwaysOn: true })),
  list: productColumns,
  show: [
    ...productColumns,
    <RelatedRows
      key="prices"
      label="resources.merchant-products.fields.prices"
      reference="merchant-prices"
      target="merchantProductId"
      empty="resources.merchant-prices.noneHere"
    >
      {merchantPriceColumns(true)}
    </RelatedRows>,
    chargesOf('merchant-products', 'merchantProductId', ['createdAt', 'userId', 'amount', 'refundAmount']),
    id,
  ],
  edit: pick(productColumns, ['productId']),
};

const customerColumns = [ref('userId', 'users'), account, ...identified];

export const merchantCustomers: MerchantRecordDefinition = {
  mirror: true,
  filters: merchantFilters(referenceFilter('userId', 'users', { alwaysOn: true })),
  list: customerColumns,
  show: [
    ...customerColumns,
    chargesOf('merchant-customers', 'merchantCustomerId', ['createdAt', 'amount', 'refundAmount', 'identifier']),
    id,
  ],
  edit: pick(customerColumns, ['userId']),
};

const couponColumns = [
  text('identifier'),
  percent('percentageDiscount', { sortable: false }),
  text('type', { emptyText: '—' }),
  ...pick(identified, ['status', 'createdAt']),
];

export const merchantCoupons: MerchantRecordDefinition = {
  mirror: true,
  filters: merchantFilters(
    <PercentInput
      key="percentageDiscount_gte"
      source="percentageDiscount_gte"
      label="resources.merchant-coupons.fields.percentageDiscount_gte"
    />,
    <PercentInput
      key="percentageDiscount_lte"
      source="percentageDiscount_lte"
      label="resources.merchant-coupons.fields.percentageDiscount_lte"
    />,
  ),
  list: couponColumns,
  show: [...couponColumns, id],
  edit: pick(couponColumns, ['percentageDiscount']),
};

const sessionColumns = [date('createdAt'), text('identifier'), account, status(ACTIVE_INACTIVE)];

export const merchantSessions: MerchantRecordDefinition = {
  mirror: true,
  filters: merchantFilters(),
  list: sessionColumns,
  show: [...pick(sessionColumns, ['identifier', 'merchantAccountId', 'status', 'createdAt']), id],
};

const accountColumns = [text('label'), ...identified];

export const merchantAccounts: MerchantRecordDefinition = {
  filters: [searchFilter('resources.merchant-records.search'), choiceFilter('status', ACTIVE_INACTIVE_CHOICES)],
  list: accountColumns,
  show: [...accountColumns, id],
  edit: pick(accountColumns, ['label']),
};
