import { Typography } from '@mui/material';
import {
  DeleteButton,
  EditButton,
  FunctionField,
  ReferenceField,
  SelectField,
  Show,
  TabbedShowLayout,
  useListContext,
  usePermissions,
  useRecordContext,
} from 'react-admin';
import { CreateRelatedButton } from '../common/CreateRelatedButton';
import { STAMPS, date, percent, pick, ref, status, text } from '../common/columns';
import { formatPercent } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { RelatedRows, Rows } from '../common/Rows';
import { relatedTab } from '../common/RelatedTab';
import { section } from '../common/Section';
import { ACTIVE_INACTIVE } from '../common/StatusChipField';
import { couponColumns } from '../coupons/CouponList';
import { canRead, canWrite } from '../permissions';
import { priceColumns } from '../prices/PriceList';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { SPLIT_TYPE_CHOICES } from '../product-revenue-splits/choices';
import { type Product } from './choices';
import { productColumns } from './ProductList';

function ProductTitle() {
  const product = useRecordContext<Product>();
  return <>{product ? `Product: ${product.name}` : 'Product'}</>;
}

/** Shares are fractions with at most four decimals: sums are rounded there, so 0.1 + 0.2 is 0.3. */
const fourDecimals = (n: number) => Math.round(n * 10_000) / 10_000;

/** The sum of the listed splits and what is left to assign, with a warning when it is not exactly 100 %. */
function SplitTotal() {
  const { data, total } = useListContext<{ id: string; percent: number }>();
  if (!data?.length) return null;
  const sum = fourDecimals(data.reduce((s, split) => s + Number(split.percent), 0));
  const remaining = fourDecimals(1 - sum);
  const partial = total !== undefined && total > data.length;
  return (
    <Typography variant="body2" sx={{ p: 2 }} color={remaining === 0 ? 'text.secondary' : 'warning.main'} role="status">
      Total: {formatPercent(sum)}
      {partial ? ' (this page)' : ''} · Remaining: {formatPercent(Math.max(remaining, 0))}
      {remaining > 0 ? ' — the shares do not add up to 100 %; the rest of each charge is unassigned.' : ''}
    </Typography>
  );
}

function SplitRows() {
  const { permissions } = usePermissions();
  const writable = canWrite(permissions, 'product-revenue-splits');
  return (
    <>
      <Rows empty="No revenue splits: the whole net goes to no one in particular (100 % remaining). Finance can add them.">
        <SelectField source="type" choices={SPLIT_TYPE_CHOICES} />
        {ref('userId', 'users', { emptyText: 'The platform' })}
        {percent('percent')}
        {date('createdAt', { showTime: false })}
        {writable ? <EditButton /> : null}
        {writable ? (
          <DeleteButton
            mutationMode="pessimistic"
            redirect={false}
            confirmTitle="Delete this revenue split?"
            confirmContent="Future charges are split without it. Lines already computed for past charges stay as they are."
          />
        ) : null}
      </Rows>
      <SplitTotal />
    </>
  );
}

function UpgradeRows({ other, empty }: { other: 'upgradableToId' | 'upgradableFromId'; empty: string }) {
  const { permissions } = usePermissions();
  return (
    <Rows rowClick={false} empty={empty}>
      {ref(other, 'products')}
      {date('createdAt')}
      {canWrite(permissions, 'upgradable-products') ? (
        <DeleteButton
          mutationMode="pessimistic"
          redirect={false}
          label="Remove"
          confirmTitle="Remove this upgrade path?"
          confirmContent="Buyers of the first product will no longer get upgrade credit towards the second."
        />
      ) : null}
    </Rows>
  );
}

/** A provider product's prices, below its row (expanded). */
function MerchantPricesOf() {
  return (
    <RelatedRows
      reference="merchant-prices"
      target="merchantProductId"
      empty="No provider prices for this provider product."
    >
      {text('identifier')}
      <ReferenceField source="priceId" reference="prices" link="show" emptyText="—" sortable={false}>
        <MoneyField source="unitAmount" />
      </ReferenceField>
      {status(ACTIVE_INACTIVE)}
      {date('createdAt')}
    </RelatedRows>
  );
}

/** The coupons restricted to a product: a coupon's columns, its uses counted against ∞ when unlimited. */
const productCouponColumns = [
  ...pick(couponColumns, ['code', 'percentageDiscount']),
  <FunctionField
    key="usedCount"
    source="usedCount"
    render={(c: { usedCount: number; maxUses: number }) => `${c.usedCount} / ${c.maxUses === -1 ? '∞' : c.maxUses}`}
  />,
  ...pick(couponColumns, ['expires', 'state']),
];

export function ProductShow() {
  const { permissions } = usePermissions();
  return (
    <Show title={<ProductTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Summary">
          {pick(productColumns, ['name', 'productType', 'status', 'quantityAvailable'])}
          {date('enrollmentOpensAt', { emptyText: 'Open (no start)' })}
          {date('enrollmentClosesAt', { emptyText: 'Never closes' })}
          {text('key', { emptyText: '—' })}
          {text('slug', { emptyText: '—' })}
          {text('description', { emptyText: '—' })}
          {STAMPS}
        </TabbedShowLayout.Tab>

        <TabbedShowLayout.Tab label="Prices" path="prices">
          <PricesSection label={false} />
        </TabbedShowLayout.Tab>

        {canRead(permissions, 'merchant-products') && (
          <TabbedShowLayout.Tab label="Payment provider" path="merchant">
            {section(
              'Provider products',
              null,
              <RelatedRows
                reference="merchant-products"
                target="productId"
                expand={<MerchantPricesOf />}
                expandSingle={false}
                empty="Not yet created at the payment provider: the first checkout creates it."
              >
                {ref('merchantAccountId', 'merchant-accounts')}
                {text('identifier')}
                {status(ACTIVE_INACTIVE)}
                {date('createdAt')}
              </RelatedRows>,
              'The product and its prices as the payment provider knows them. Expand a row to see its prices.',
            )}
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'product-revenue-splits') && (
          <TabbedShowLayout.Tab label="Revenue splits" path="splits">
            <SplitsSection label={false} />
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'upgradable-products') && (
          <TabbedShowLayout.Tab label="Upgrades" path="upgrades">
            <UpgradesSection label={false} />
          </TabbedShowLayout.Tab>
        )}

        {relatedTab(permissions, 'Purchases', 'purchases', {
          label: false,
          reference: 'purchases',
          target: 'productId',
          rows: <PurchaseRows hide={['productId']} empty="Nobody has bought this product yet." />,
        })}

        {relatedTab(permissions, 'Coupons', 'coupons', {
          label: false,
          reference: 'coupons',
          target: 'restrictedToProductId',
          empty: 'No coupon is restricted to this product (site-wide coupons apply to every product).',
          children: productCouponColumns,
        })}
      </TabbedShowLayout>
    </Show>
  );
}

function PricesSection(_props: { label?: false }) {
  const product = useRecordContext<Product>();
  if (!product) return null;
  return section(
    'Prices',
    <CreateRelatedButton resource="prices" record={{ productId: product.id }} label="Add price" />,
    <RelatedRows
      reference="prices"
      target="productId"
      paginated
      empty="No price yet: the product cannot be bought until it has one."
    >
      {priceColumns(false)}
    </RelatedRows>,
    'One price is current; a new price replaces it and the old one is kept, archived, for history.',
  );
}

function SplitsSection(_props: { label?: false }) {
  const product = useRecordContext<Product>();
  if (!product) return null;
  return section(
    'Revenue splits',
    <CreateRelatedButton
      resource="product-revenue-splits"
      record={{ productId: product.id }}
      label="Add revenue split"
    />,
    <RelatedRows
      reference="product-revenue-splits"
      target="productId"
      sort={{ field: 'createdAt', order: 'ASC' }}
      paginated
      rows={<SplitRows />}
    />,
    'How the net of each charge is shared: the platform share first, the rest in proportion among owners and contributors. At most 100 % in total.',
  );
}

/** The upgrade paths from (`upgradableFromId`) or to the product, listed by the product at their other end. */
const upgradesOf = (target: 'upgradableFromId' | 'upgradableToId', empty: string) => (
  <RelatedRows
    reference="upgradable-products"
    target={target}
    rows={<UpgradeRows other={target === 'upgradableFromId' ? 'upgradableToId' : 'upgradableFromId'} empty={empty} />}
  />
);

function UpgradesSection(_props: { label?: false }) {
  const product = useRecordContext<Product>();
  if (!product) return null;
  return (
    <div style={{ width: '100%' }}>
      {section(
        'Upgrades from this product',
        <CreateRelatedButton
          resource="upgradable-products"
          record={{ upgradableFromId: product.id }}
          label="Add upgrade path"
        />,
        upgradesOf('upgradableFromId', 'No upgrade path starts from this product.'),
        'Owners of this product get what they paid for it as credit towards these products.',
      )}
      <div style={{ height: 24 }} />
      {section(
        'Upgrades to this product',
        null,
        upgradesOf('upgradableToId', 'No product upgrades to this one.'),
        'Owners of these products get credit when they buy this one.',
      )}
    </div>
  );
}
