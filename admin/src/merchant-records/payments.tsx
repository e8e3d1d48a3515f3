import type { MerchantChargeRecord } from '@contract/payments/schemas';
import type { Wire } from '@contract/shared/wire';
import type { DisputeStatus } from '@contract/shared/dispute-status';
import { FunctionField, SelectInput, useRecordContext, useTranslate } from 'react-admin';
import { chargeMoney, date, money, pick, ref, status, text } from '../common/columns';
import { REFUND_REASONS } from '../../../api/src/shared/refund-reasons';
import type { MerchantRefundRecord } from '@contract/payments/schemas';
import { choiceFilter, referenceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters, moneyRangeFilters } from '../common/inputs';
import { JsonBlock } from '../common/JsonBlock';
import { CURRENCY_CHOICES, formatMoney } from '../common/money';
import { RelatedRows } from '../common/Rows';
import { ACTIVE_INACTIVE, choicesOf, type ChipLook } from '../common/chipLooks';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { IdentifierTitle, merchantFilters } from '../common/MerchantRecord';
import type { MerchantRecordDefinition } from './screens';
import { DisputesAtStake } from './DisputesAtStake';
import { disputeRowSx, evidenceDue, type MerchantDispute } from './disputeDue';

export type MerchantCharge = Wire<MerchantChargeRecord>;

export const DISPUTE_STATUS_LOOKS: Record<DisputeStatus, ChipLook> = {
  open: { label: 'Open', color: 'warning' },
  won: { label: 'Won', color: 'success' },
  lost: { label: 'Lost', color: 'error' },
};

const account = ref('merchantAccountId', 'merchant-accounts');
const charge = ref('merchantChargeId', 'merchant-charges');

/** The purchase a charge paid for: below the charge, or below a refund or dispute of it (`source`). */
const purchaseOfCharge = (source?: string) => (
  <RelatedRows
    key="purchases"
    label="resources.merchant-charges.fields.purchase"
    reference="purchases"
    source={source}
    target="merchantChargeId"
    rows={<PurchaseRows empty="resources.merchant-charges.noPurchase" />}
  />
);

type MerchantRefund = Wire<MerchantRefundRecord>;

/** A refund's reason by its label ("Duplicate purchase"); refunds from before reasons were recorded say so. */
function RefundReasonText({ code }: { code: MerchantRefund['reasonCode'] }) {
  return <>{useTranslate()(`reports.reasons.${code ?? 'notRecorded'}`)}</>;
}

const refundReason = (
  <FunctionField<MerchantRefund>
    key="reasonCode"
    source="reasonCode"
    sortBy="reasonCode"
    label="resources.merchant-refunds.fields.reasonCode"
    render={(r) => <RefundReasonText code={r.reasonCode} />}
  />
);

const refundColumns = [
  date('createdAt'),
  chargeMoney('amount'),
  refundReason,
  text('reason', { emptyText: '—' }),
  ref('requestedById', 'users', { emptyText: 'resources.merchant-refunds.byProvider' }),
  charge,
  text('identifier'),
];

const disputeColumns = [
  evidenceDue(),
  status(DISPUTE_STATUS_LOOKS),
  money('amount'),
  text('reason', { emptyText: '—' }),
  ref('userId', 'users'),
  ref('purchaseId', 'purchases', { emptyText: '—' }),
  date('createdAt'),
  date('closedAt', { emptyText: '—' }),
  charge,
  text('identifier'),
];

/**
 * The disputes list: the charge is reached through its purchase, a dispute still open has no closing date, and when
 * it was opened and its provider id are on its page (the chart above shows the weeks; the id is searchable), so the
 * list fits a small laptop.
 */
const disputeListColumns = pick(disputeColumns, [
  'evidenceDueBy',
  'status',
  'amount',
  'reason',
  'userId',
  'purchaseId',
]);

const withoutCharge = (columns: typeof refundColumns) => columns.filter((c) => c !== charge);

/** The refunds or the disputes of a charge, as rows below the charge or its purchase. */
export function ChargeHistoryRows({
  what,
  source,
}: {
  what: 'merchant-refunds' | 'merchant-disputes';
  source?: string;
}) {
  return (
    <RelatedRows
      reference={what}
      source={source}
      target="merchantChargeId"
      paginated={Boolean(source)}
      label={`resources.merchant-charges.fields.${what === 'merchant-refunds' ? 'refunds' : 'disputes'}`}
      empty={`resources.${what}.noneForCharge`}
    >
      {withoutCharge(what === 'merchant-refunds' ? refundColumns : disputeColumns)}
    </RelatedRows>
  );
}

function ChargeTitle() {
  const record = useRecordContext<MerchantCharge>();
  const noun = useTranslate()('resources.merchant-charges.name', { smart_count: 1 });
  return <>{record ? `${noun} ${formatMoney(record.amount, record.currency)} · ${record.identifier}` : noun}</>;
}

const chargeColumns = [
  date('createdAt'),
  ref('userId', 'users'),
  money('amount'),
  money('fee', { sortable: false }),
  money('net'),
  money('refundAmount'),
  status(ACTIVE_INACTIVE),
  text('identifier'),
];

export const merchantCharges: MerchantRecordDefinition = {
  mirror: true,
  title: <ChargeTitle />,
  filters: merchantFilters(
    referenceFilter('userId', 'users', { alwaysOn: true }),
    referenceFilter('merchantProductId', 'merchant-products'),
    <SelectInput key="currency" source="currency" choices={CURRENCY_CHOICES} />,
    ...moneyRangeFilters('amount', 'Amount'),
    ...moneyRangeFilters('refundAmount', 'Refunded'),
  ),
  list: chargeColumns,
  show: [
    ...pick(chargeColumns, ['userId', 'amount', 'fee', 'net', 'refundAmount']),
    <FunctionField<MerchantCharge>
      key="kept"
      label="resources.merchant-charges.fields.kept"
      render={(c) => formatMoney(c.amount - c.refundAmount, c.currency)}
    />,
    text('currency'),
    ref('merchantProductId', 'merchant-products'),
    ref('merchantCustomerId', 'merchant-customers', { emptyText: '—' }),
    account,
    ...pick(chargeColumns, ['identifier', 'status', 'createdAt']),
    purchaseOfCharge(),
    <ChargeHistoryRows key="refunds" what="merchant-refunds" />,
    <ChargeHistoryRows key="disputes" what="merchant-disputes" />,
    <FunctionField<MerchantCharge>
      key="metadata"
      source="metadata"
      render={(c) => <JsonBlock value={c.metadata} label="resources.merchant-charges.metadataLabel" />}
    />,
    text('id'),
  ],
  edit: pick(chargeColumns, ['amount', 'userId']),
};

export const merchantRefunds: MerchantRecordDefinition = {
  title: <IdentifierTitle noun="resources.merchant-refunds.title" />,
  filters: [
    searchFilter('resources.merchant-records.search'),
    referenceFilter('merchantChargeId', 'merchant-charges', { alwaysOn: true }),
    choiceFilter(
      'reasonCode',
      REFUND_REASONS.map((code) => ({ id: code, name: `reports.reasons.${code}` })),
      false,
    ),
    referenceFilter('requestedById', 'users'),
    ...moneyRangeFilters('amount', 'Amount'),
    referenceFilter('merchantAccountId', 'merchant-accounts', { select: true }),
    ...dateRangeFilters('createdAt', 'Created'),
  ],
  list: refundColumns,
  show: [
    ...pick(refundColumns, ['amount', 'reasonCode', 'reason']),
    ref('requestedById', 'users', { emptyText: 'resources.merchant-refunds.byProviderThere' }),
    charge,
    purchaseOfCharge('merchantChargeId'),
    date('createdAt'),
    // Booked on the first instant of the open month for a month already closed (docs/domain.md §21).
    text('belongsToMonth', { emptyText: '—' }),
    text('identifier'),
    text('idempotencyKey'),
    account,
    text('id'),
  ],
};

export const merchantDisputes: MerchantRecordDefinition = {
  title: <IdentifierTitle noun="resources.merchant-disputes.title" />,
  filters: [
    searchFilter('resources.merchant-records.search'),
    choiceFilter('status', choicesOf(DISPUTE_STATUS_LOOKS)),
    referenceFilter('userId', 'users'),
    referenceFilter('merchantChargeId', 'merchant-charges'),
    ...moneyRangeFilters('amount', 'Amount'),
    referenceFilter('merchantAccountId', 'merchant-accounts', { select: true }),
    ...dateRangeFilters('evidenceDueBy', 'Evidence due'),
    ...dateRangeFilters('createdAt', 'Opened'),
    ...dateRangeFilters('closedAt', 'Closed'),
  ],
  list: disputeListColumns,
  // The most urgent first: open disputes by their evidence deadline (those without one last).
  sort: { field: 'evidenceDueBy', order: 'ASC' },
  filterDefaultValues: { status: 'open' },
  rowSx: (record) => disputeRowSx(record as MerchantDispute),
  above: <DisputesAtStake />,
  show: [
    ...pick(disputeColumns, ['status', 'evidenceDueBy', 'amount', 'reason', 'userId', 'merchantChargeId']),
    purchaseOfCharge('merchantChargeId'),
    date('createdAt'),
    date('closedAt', { emptyText: 'resources.merchant-disputes.stillOpen' }),
    text('belongsToMonth', { emptyText: '—' }),
    text('identifier'),
    account,
    text('id'),
  ],
};
