import { REFUND_REASON_LABELS, NOT_RECORDED } from '../../../../api/src/shared/refund-reasons';

/** Labels of the money-back reports: refunds by reason and product, disputes at stake, and the refund reasons. */
export const reports = {
  /** Each refund reason's label (the API's list), and refunds made before reasons were recorded. */
  reasons: { ...REFUND_REASON_LABELS, notRecorded: NOT_RECORDED },
  refunds: {
    title: 'Refunds',
    intro:
      'The refunds that went through in the period (each partial refund counts once), by reason and by product. Amounts in the chosen currency.',
    forbidden: 'The refunds report is for support, finance and admins.',
    currency: 'Currency',
    total: 'Refunded in the period',
    totalText: '%{amount} in %{count} refunds',
    byReason: 'By reason',
    byReasonDescription: 'The money refunded in the period for each reason, as horizontal bars.',
    byProduct: 'By product',
    byProductDescription: 'The money refunded in the period for each product, as horizontal bars.',
    reason: 'Reason',
    product: 'Product',
    count: 'Refunds',
    amount: 'Amount',
    none: 'No refund went through in this period.',
    export: 'Export the refunds (CSV)',
    exportHelp: 'Every refund of the period, all currencies: date, reason and note, product, buyer, amount, who asked.',
    exporting: 'Exporting… %{rows} rows',
    exported: 'Saved %{filename} (%{rows} rows).',
    cancel: 'Cancel',
  },
  disputes: {
    atStake: 'At stake now',
    open: 'Open disputes',
    openText: '%{amount} in %{count} open disputes',
    overdue: 'Evidence overdue',
    dueSoon: 'Evidence due within 3 days',
    chart: 'Disputes opened per week (last 12 weeks), by where they stand now',
    chartDescription: 'Stacked bars of the disputes opened each week, split into open, won and lost.',
    week: 'Week of',
    statuses: { open: 'Open', won: 'Won', lost: 'Lost' },
    none: 'No dispute was opened in these weeks.',
  },
};
