import { relatedTab } from '../common/RelatedTab';
import { KindField } from '../invoices/InvoiceScreens';
import { Alert, Box, Link as MuiLink, Stack, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import {
  DateField,
  FunctionField,
  Labeled,
  Link,
  ReferenceField,
  Show,
  TabbedShowLayout,
  TextField,
  useCreatePath,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { formatMoney } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { StatusChipField } from '../common/StatusChipField';
import { ChargeHistoryRows } from '../merchant-records/payments';
import type { MerchantCharge } from '../merchant-records/payments';
import { canRead, isStaff } from '../permissions';
import { Timeline } from '../timeline/Timeline';
import { TransfersOfPurchase } from '../purchase-user-transfers/TransferRows';
import { PURCHASE_STATUS_LOOKS, purchaseKind, type Purchase } from './choices';
import { PurchaseActions } from './PurchaseActions';

function PurchaseTitle() {
  const purchase = useRecordContext<Purchase>();
  const translate = useTranslate();
  return (
    <>
      {purchase
        ? translate('resources.purchases.title', {
            amount: formatMoney(purchase.totalAmount, purchase.currency),
            date: new Date(purchase.createdAt).toLocaleDateString(),
          })
        : translate('resources.purchases.titleLoading')}
    </>
  );
}

/** The provider's charge in figures, inside a ReferenceField (the charge's record context). */
function ChargeSummary() {
  const charge = useRecordContext<MerchantCharge>();
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (!charge) return null;
  const rows: [string, string][] = [
    [translate('resources.purchases.charge.amount'), formatMoney(charge.amount, charge.currency)],
    [translate('resources.purchases.charge.fee'), formatMoney(charge.fee, charge.currency)],
    [translate('resources.purchases.charge.net'), formatMoney(charge.net, charge.currency)],
    [translate('resources.purchases.charge.refunded'), formatMoney(charge.refundAmount, charge.currency)],
  ];
  return (
    <Box>
      <Table size="small" aria-label={translate('resources.purchases.charge.amounts')} sx={{ width: 'auto' }}>
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row" sx={{ pl: 0 }}>
                {label}
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {value}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <MuiLink
        component={Link}
        to={createPath({ resource: 'merchant-charges', id: charge.id, type: 'show' })}
        variant="body2"
      >
        {translate('resources.purchases.charge.open', { identifier: charge.identifier })}
      </MuiLink>
    </Box>
  );
}

function TeamInfo(_props: { label?: false }) {
  const purchase = useRecordContext<Purchase>();
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (!purchase) return null;
  if (purchase.bulkCouponId) {
    return (
      <Typography variant="body2">
        {translate('resources.purchases.team.bought')}{' '}
        <MuiLink component={Link} to={createPath({ resource: 'bulk-purchases', id: purchase.id, type: 'show' })}>
          {translate('resources.purchases.team.openTeam')}
        </MuiLink>
      </Typography>
    );
  }
  if (purchase.redeemedBulkCouponId) {
    return (
      <Box>
        <Typography variant="body2" gutterBottom>
          {translate('resources.purchases.team.seat')}
        </Typography>
        <ReferenceField source="redeemedBulkCouponId" reference="coupons" link={false}>
          <ReferenceField source="bulkPurchaseId" reference="bulk-purchases" link="show">
            <FunctionField render={() => translate('resources.purchases.team.openTeamPurchase')} />
          </ReferenceField>
        </ReferenceField>
      </Box>
    );
  }
  return (
    <Typography variant="body2" color="text.secondary">
      {translate('resources.purchases.team.individual')}
    </Typography>
  );
}

/** Why staff banned or refunded the purchase, only when they said so. */
function StatusReason(_props: { label?: false }) {
  const purchase = useRecordContext<Purchase>();
  if (!purchase?.statusReason) return null;
  return (
    <Labeled>
      <TextField source="statusReason" />
    </Labeled>
  );
}

/** A course staff gave (a comp): why, and who gave it. */
function CompGiven(_props: { label?: false }) {
  const purchase = useRecordContext<Purchase>();
  if (purchase?.kind !== 'comp') return null;
  return (
    <Stack spacing={1}>
      <Labeled>
        <TextField source="compReason" />
      </Labeled>
      <Labeled>
        <ReferenceField source="compedById" reference="users" link="show" emptyText="—" />
      </Labeled>
    </Stack>
  );
}

/** A partial refund leaves the purchase Valid: said next to its status, so it is not missed. */
function PartlyRefunded(_props: { label?: false }) {
  const purchase = useRecordContext<Purchase>();
  const translate = useTranslate();
  if (!purchase || purchase.refundedAmount <= 0 || purchase.status === 'Refunded') return null;
  return (
    <Alert severity="info" sx={{ my: 1 }}>
      {translate('resources.purchases.partlyRefunded', {
        refunded: formatMoney(purchase.refundedAmount, purchase.currency),
        paid: formatMoney(purchase.totalAmount, purchase.currency),
      })}
    </Alert>
  );
}

/** The refunds and disputes of the purchase's charge (none without a charge). */
function ChargeHistory({ what }: { what: 'merchant-refunds' | 'merchant-disputes'; label?: false }) {
  const purchase = useRecordContext<Purchase>();
  const translate = useTranslate();
  if (!purchase?.merchantChargeId) return null;
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mt: 1 }}>
        {translate(`resources.merchant-charges.fields.${what === 'merchant-refunds' ? 'refunds' : 'disputes'}`)}
      </Typography>
      <ChargeHistoryRows what={what} source="merchantChargeId" />
    </Box>
  );
}

function PurchaseTimeline(_props: { label?: false }) {
  const purchase = useRecordContext<Purchase>();
  return purchase ? <Timeline of="purchases" id={purchase.id} /> : null;
}

export function PurchaseShow() {
  const { permissions } = usePermissions();
  return (
    <Show title={<PurchaseTitle />} actions={<PurchaseActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="resources.purchases.tabs.summary">
          <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} />
          <StatusReason label={false} />
          <PartlyRefunded label={false} />
          <ReferenceField source="productId" reference="products" link="show" />
          <ReferenceField source="userId" reference="users" link="show" />
          <MoneyField source="totalAmount" />
          <FunctionField<Purchase> label="resources.purchases.fields.kind" render={purchaseKind} />
          <CompGiven label={false} />
          <ReferenceField source="couponId" reference="coupons" link="show" emptyText="resources.purchases.noCoupon" />
          <ReferenceField source="upgradedFromId" reference="purchases" link="show" emptyText="—" />
          <DateField source="createdAt" showTime />
          <DateField source="updatedAt" showTime />
          <TextField source="country" emptyText="—" />
          <TextField source="state" emptyText="—" />
          <TextField source="city" emptyText="—" />
          <TextField source="ipAddress" emptyText="—" />
          <TextField source="id" />
        </TabbedShowLayout.Tab>

        {canRead(permissions, 'merchant-charges') && (
          <TabbedShowLayout.Tab label="resources.purchases.tabs.payment" path="payment">
            <ReferenceField
              source="merchantChargeId"
              reference="merchant-charges"
              link={false}
              emptyText="resources.purchases.charge.none"
            >
              <ChargeSummary />
            </ReferenceField>
            <ReferenceField source="merchantSessionId" reference="merchant-sessions" link="show" emptyText="—" />
            {canRead(permissions, 'merchant-refunds') && <ChargeHistory what="merchant-refunds" label={false} />}
            {canRead(permissions, 'merchant-disputes') && <ChargeHistory what="merchant-disputes" label={false} />}
          </TabbedShowLayout.Tab>
        )}

        <TabbedShowLayout.Tab label="resources.purchases.tabs.team" path="team">
          <TeamInfo label={false} />
        </TabbedShowLayout.Tab>

        {isStaff(permissions) && (
          <TabbedShowLayout.Tab label="console.timeline.tab" path="timeline">
            <PurchaseTimeline label={false} />
          </TabbedShowLayout.Tab>
        )}

        {relatedTab(permissions, 'resources.purchases.tabs.invoices', 'invoices', {
          reference: 'invoices',
          target: 'merchantChargeId',
          source: 'merchantChargeId',
          sort: { field: 'issuedAt', order: 'ASC' },
          empty: 'resources.purchases.noInvoices',
          children: [
            <TextField key="number" source="number" />,
            <KindField key="kind" label="resources.invoices.fields.kind" />,
            <DateField key="issuedAt" source="issuedAt" showTime />,
            <MoneyField key="total" source="total" />,
          ],
        })}

        {canRead(permissions, 'purchase-user-transfers') && (
          <TabbedShowLayout.Tab label="resources.purchases.tabs.transfers" path="transfers">
            <TransfersOfPurchase label={false} empty="resources.purchases.noTransfers" />
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
}
