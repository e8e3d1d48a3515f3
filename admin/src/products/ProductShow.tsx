import {
  DeleteButton,
  EditButton,
  FunctionField,
  ReferenceField,
  SelectField,
  Show,
  TabbedShowLayout,
  TabbedShowLayoutTabs,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { CreateRelatedButton } from '../common/CreateRelatedButton';
import { STAMPS, date, percent, pick, ref, status, text } from '../common/columns';
import { MoneyField } from '../common/MoneyField';
import { RelatedRows, Rows } from '../common/Rows';
import { relatedTab } from '../common/RelatedTab';
import { section } from '../common/Section';
import { ACTIVE_INACTIVE } from '../common/chipLooks';
import { couponColumns } from '../coupons/CouponList';
import { canRead, canWrite } from '../permissions';
import { paymentPlanColumns } from '../payment-plans/PaymentPlanList';
import { priceColumns } from '../prices/PriceList';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { SPLIT_TYPE_CHOICES } from '../product-revenue-splits/choices';
import { SplitExample } from '../product-revenue-splits/SplitExample';
import { type Product } from './choices';
import { productColumns } from './ProductList';
import { SessionsSection } from './SessionsSection';
import { WaitlistCount } from '../waitlist-entries/WaitlistCount';

function ProductTitle() {
  const product = useRecordContext<Product>();
  const translate = useTranslate();
  return (
    <>
      {product
        ? translate('resources.products.title', { name: product.name })
        : translate('resources.products.titleLoading')}
    </>
  );
}

function SplitRows() {
  const { permissions } = usePermissions();
  const writable = canWrite(permissions, 'product-revenue-splits');
  return (
    <>
      <Rows empty="resources.product-revenue-splits.noneForProduct">
        <SelectField source="type" choices={SPLIT_TYPE_CHOICES} />
        {ref('userId', 'users', { emptyText: 'resources.product-revenue-splits.platform' })}
        {percent('percent')}
        {date('createdAt', { showTime: false })}
        {writable ? <EditButton /> : null}
        {writable ? (
          <DeleteButton
            mutationMode="pessimistic"
            redirect={false}
            confirmTitle="resources.product-revenue-splits.deleteTitle"
            confirmContent="resources.product-revenue-splits.deleteContent"
          />
        ) : null}
      </Rows>
      <SplitExample />
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
          label="resources.upgradable-products.remove"
          confirmTitle="resources.upgradable-products.removeTitle"
          confirmContent="resources.upgradable-products.removeContentShort"
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
      empty="resources.merchant-prices.noneForProduct"
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
  const translate = useTranslate();
  return (
    <Show title={<ProductTitle />}>
      {/* Eight tabs do not fit a phone: the bar scrolls rather than the page (and takes no width from its tabs). */}
      <TabbedShowLayout
        tabs={<TabbedShowLayoutTabs variant="scrollable" scrollButtons="auto" sx={{ width: 0, minWidth: '100%' }} />}
      >
        <TabbedShowLayout.Tab label="resources.products.tabs.summary">
          {pick(productColumns, ['name', 'productType', 'status', 'quantityAvailable'])}
          {date('enrollmentOpensAt', { emptyText: 'resources.products.opensEmpty' })}
          {date('enrollmentClosesAt', { emptyText: 'resources.products.closesEmpty' })}
          <WaitlistCount label={false} />
          {text('key', { emptyText: '—' })}
          {text('slug', { emptyText: '—' })}
          {text('description', { emptyText: '—' })}
          {STAMPS}
        </TabbedShowLayout.Tab>

        <TabbedShowLayout.Tab label="resources.products.tabs.prices" path="prices">
          <PricesSection label={false} />
          <PaymentPlansSection label={false} />
        </TabbedShowLayout.Tab>

        {canRead(permissions, 'merchant-products') && (
          <TabbedShowLayout.Tab label="resources.products.tabs.merchant" path="merchant">
            {section(
              translate('resources.merchant-products.ofProduct'),
              null,
              <RelatedRows
                reference="merchant-products"
                target="productId"
                expand={<MerchantPricesOf />}
                expandSingle={false}
                empty="resources.merchant-products.noneForProduct"
              >
                {ref('merchantAccountId', 'merchant-accounts')}
                {text('identifier')}
                {status(ACTIVE_INACTIVE)}
                {date('createdAt')}
              </RelatedRows>,
              translate('resources.merchant-products.ofProductNote'),
            )}
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'product-revenue-splits') && (
          <TabbedShowLayout.Tab label="resources.products.tabs.splits" path="splits">
            <SplitsSection label={false} />
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'upgradable-products') && (
          <TabbedShowLayout.Tab label="resources.products.tabs.upgrades" path="upgrades">
            <UpgradesSection label={false} />
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'workshop-sessions') && (
          <TabbedShowLayout.Tab label="resources.products.tabs.sessions" path="sessions">
            <SessionsSection label={false} />
          </TabbedShowLayout.Tab>
        )}

        {relatedTab(permissions, 'resources.products.tabs.purchases', 'purchases', {
          label: false,
          reference: 'purchases',
          target: 'productId',
          rows: <PurchaseRows hide={['productId']} empty="resources.products.noPurchases" />,
        })}

        {relatedTab(permissions, 'resources.products.tabs.coupons', 'coupons', {
          label: false,
          reference: 'coupons',
          target: 'restrictedToProductId',
          empty: 'resources.products.noCoupons',
          children: productCouponColumns,
        })}
      </TabbedShowLayout>
    </Show>
  );
}

function PricesSection(_props: { label?: false }) {
  const product = useRecordContext<Product>();
  const translate = useTranslate();
  if (!product) return null;
  return section(
    translate('resources.prices.ofProduct'),
    <CreateRelatedButton resource="prices" record={{ productId: product.id }} label="resources.prices.add" />,
    <RelatedRows reference="prices" target="productId" paginated empty="resources.prices.noneForProduct">
      {priceColumns(false)}
    </RelatedRows>,
    translate('resources.prices.ofProductNote'),
  );
}

/** A course's payment plans (docs/domain.md §23), beside its prices; a membership is never sold in instalments. */
function PaymentPlansSection(_props: { label?: false }) {
  const product = useRecordContext<Product>();
  const translate = useTranslate();
  if (!product || product.productType === 'membership') return null;
  return section(
    translate('resources.payment-plans.ofProduct'),
    <CreateRelatedButton
      resource="payment-plans"
      record={{ productId: product.id }}
      label="resources.payment-plans.add"
    />,
    <RelatedRows reference="payment-plans" target="productId" paginated empty="resources.payment-plans.noneForProduct">
      {paymentPlanColumns(false)}
    </RelatedRows>,
    translate('resources.payment-plans.ofProductNote'),
  );
}

function SplitsSection(_props: { label?: false }) {
  const product = useRecordContext<Product>();
  const translate = useTranslate();
  if (!product) return null;
  return section(
    translate('resources.product-revenue-splits.ofProduct'),
    <CreateRelatedButton
      resource="product-revenue-splits"
      record={{ productId: product.id }}
      label="resources.product-revenue-splits.add"
    />,
    <RelatedRows
      reference="product-revenue-splits"
      target="productId"
      sort={{ field: 'createdAt', order: 'ASC' }}
      paginated
      rows={<SplitRows />}
    />,
    translate('resources.product-revenue-splits.ofProductNote'),
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
  const translate = useTranslate();
  if (!product) return null;
  return (
    <div style={{ width: '100%' }}>
      {section(
        translate('resources.upgradable-products.fromProduct'),
        <CreateRelatedButton
          resource="upgradable-products"
          record={{ upgradableFromId: product.id }}
          label="resources.upgradable-products.create"
        />,
        upgradesOf('upgradableFromId', 'resources.upgradable-products.noneFromProduct'),
        translate('resources.upgradable-products.fromProductNote'),
      )}
      <div style={{ height: 24 }} />
      {section(
        translate('resources.upgradable-products.toProduct'),
        null,
        upgradesOf('upgradableToId', 'resources.upgradable-products.noneToProduct'),
        translate('resources.upgradable-products.toProductNote'),
      )}
    </div>
  );
}
