import { Typography } from '@mui/material';
import {
  Datagrid,
  DateField,
  DeleteButton,
  EditButton,
  FunctionField,
  Pagination,
  ReferenceField,
  ReferenceManyField,
  SelectField,
  Show,
  TabbedShowLayout,
  TextField,
  useListContext,
  usePermissions,
  useRecordContext,
} from 'react-admin';
import { CreateRelatedButton } from '../common/CreateRelatedButton';
import { NoneFound } from '../common/EmptyState';
import { formatPercent } from '../common/money';
import { MoneyField, PercentField } from '../common/MoneyField';
import { section } from '../common/Section';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';
import { CouponStateField } from '../coupons/CouponStateField';
import { canRead, canWrite } from '../permissions';
import { PRICE_STATUS_LOOKS } from '../prices/choices';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { SPLIT_TYPE_CHOICES } from '../product-revenue-splits/choices';
import { PRODUCT_STATUS_LOOKS, PRODUCT_TYPE_CHOICES, seatsLabel, type Product } from './choices';

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
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={
          <NoneFound>
            No revenue splits: the whole net goes to no one in particular (100 % remaining). Finance can add them.
          </NoneFound>
        }
      >
        <SelectField source="type" choices={SPLIT_TYPE_CHOICES} />
        <ReferenceField source="userId" reference="users" link="show" emptyText="The platform" sortable={false} />
        <PercentField source="percent" />
        <DateField source="createdAt" />
        {writable ? <EditButton /> : null}
        {writable ? (
          <DeleteButton
            mutationMode="pessimistic"
            redirect={false}
            confirmTitle="Delete this revenue split?"
            confirmContent="Future charges are split without it. Lines already computed for past charges stay as they are."
          />
        ) : null}
      </Datagrid>
      <SplitTotal />
    </>
  );
}

function UpgradeRows({ other, empty }: { other: 'upgradableToId' | 'upgradableFromId'; empty: string }) {
  const { permissions } = usePermissions();
  const writable = canWrite(permissions, 'upgradable-products');
  return (
    <Datagrid rowClick={false} bulkActionButtons={false} empty={<NoneFound>{empty}</NoneFound>}>
      <ReferenceField source={other} reference="products" link="show" sortable={false} />
      <DateField source="createdAt" showTime />
      {writable ? (
        <DeleteButton
          mutationMode="pessimistic"
          redirect={false}
          label="Remove"
          confirmTitle="Remove this upgrade path?"
          confirmContent="Buyers of the first product will no longer get upgrade credit towards the second."
        />
      ) : null}
    </Datagrid>
  );
}

function MerchantPricesOf() {
  return (
    <ReferenceManyField
      reference="merchant-prices"
      target="merchantProductId"
      sort={{ field: 'createdAt', order: 'DESC' }}
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No provider prices for this provider product.</NoneFound>}
      >
        <TextField source="identifier" sortable={false} />
        <ReferenceField source="priceId" reference="prices" link="show" emptyText="—" sortable={false}>
          <MoneyField source="unitAmount" />
        </ReferenceField>
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </ReferenceManyField>
  );
}

export function ProductShow() {
  const { permissions } = usePermissions();
  return (
    <Show title={<ProductTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Summary">
          <TextField source="name" />
          <SelectField source="productType" choices={PRODUCT_TYPE_CHOICES} />
          <StatusChipField source="status" looks={PRODUCT_STATUS_LOOKS} />
          <FunctionField<Product> source="quantityAvailable" render={(p) => seatsLabel(p.quantityAvailable)} />
          <DateField source="enrollmentOpensAt" showTime emptyText="Open (no start)" />
          <DateField source="enrollmentClosesAt" showTime emptyText="Never closes" />
          <TextField source="key" emptyText="—" />
          <TextField source="slug" emptyText="—" />
          <TextField source="description" emptyText="—" />
          <DateField source="createdAt" showTime />
          <DateField source="updatedAt" showTime />
          <TextField source="id" />
        </TabbedShowLayout.Tab>

        <TabbedShowLayout.Tab label="Prices" path="prices">
          <PricesSection label={false} />
        </TabbedShowLayout.Tab>

        {canRead(permissions, 'merchant-products') && (
          <TabbedShowLayout.Tab label="Payment provider" path="merchant">
            {section(
              'Provider products',
              null,
              <ReferenceManyField
                reference="merchant-products"
                target="productId"
                sort={{ field: 'createdAt', order: 'DESC' }}
              >
                <Datagrid
                  rowClick="show"
                  bulkActionButtons={false}
                  expand={<MerchantPricesOf />}
                  expandSingle={false}
                  empty={<NoneFound>Not yet created at the payment provider: the first checkout creates it.</NoneFound>}
                >
                  <ReferenceField
                    source="merchantAccountId"
                    reference="merchant-accounts"
                    link="show"
                    sortable={false}
                  />
                  <TextField source="identifier" sortable={false} />
                  <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
                  <DateField source="createdAt" showTime />
                </Datagrid>
              </ReferenceManyField>,
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

        {canRead(permissions, 'purchases') && (
          <TabbedShowLayout.Tab label="Purchases" path="purchases">
            <ReferenceManyField
              label={false}
              reference="purchases"
              target="productId"
              sort={{ field: 'createdAt', order: 'DESC' }}
              pagination={<Pagination />}
            >
              <PurchaseRows hide={['productId']} empty="Nobody has bought this product yet." />
            </ReferenceManyField>
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'coupons') && (
          <TabbedShowLayout.Tab label="Coupons" path="coupons">
            <ReferenceManyField
              label={false}
              reference="coupons"
              target="restrictedToProductId"
              sort={{ field: 'createdAt', order: 'DESC' }}
              pagination={<Pagination />}
            >
              <Datagrid
                rowClick="show"
                bulkActionButtons={false}
                empty={
                  <NoneFound>
                    No coupon is restricted to this product (site-wide coupons apply to every product).
                  </NoneFound>
                }
              >
                <TextField source="code" emptyText="(no code)" />
                <PercentField source="percentageDiscount" />
                <FunctionField
                  source="usedCount"
                  render={(c: { usedCount: number; maxUses: number }) =>
                    `${c.usedCount} / ${c.maxUses === -1 ? '∞' : c.maxUses}`
                  }
                />
                <DateField source="expires" showTime emptyText="Never" />
                <CouponStateField label="resources.coupons.fields.status" sortable={false} />
              </Datagrid>
            </ReferenceManyField>
          </TabbedShowLayout.Tab>
        )}
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
    <ReferenceManyField
      reference="prices"
      target="productId"
      sort={{ field: 'createdAt', order: 'DESC' }}
      pagination={<Pagination />}
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No price yet: the product cannot be bought until it has one.</NoneFound>}
      >
        <MoneyField source="unitAmount" />
        <TextField source="currency" sortable={false} />
        <TextField source="nickname" emptyText="—" sortable={false} />
        <StatusChipField source="status" looks={PRICE_STATUS_LOOKS} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </ReferenceManyField>,
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
    <ReferenceManyField
      reference="product-revenue-splits"
      target="productId"
      sort={{ field: 'createdAt', order: 'ASC' }}
      pagination={<Pagination />}
    >
      <SplitRows />
    </ReferenceManyField>,
    'How the net of each charge is shared: the platform share first, the rest in proportion among owners and contributors. At most 100 % in total.',
  );
}

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
        <ReferenceManyField
          reference="upgradable-products"
          target="upgradableFromId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <UpgradeRows other="upgradableToId" empty="No upgrade path starts from this product." />
        </ReferenceManyField>,
        'Owners of this product get what they paid for it as credit towards these products.',
      )}
      <div style={{ height: 24 }} />
      {section(
        'Upgrades to this product',
        null,
        <ReferenceManyField
          reference="upgradable-products"
          target="upgradableToId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <UpgradeRows other="upgradableFromId" empty="No product upgrades to this one." />
        </ReferenceManyField>,
        'Owners of these products get credit when they buy this one.',
      )}
    </div>
  );
}
