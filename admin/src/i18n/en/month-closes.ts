/** Labels of the month-close screen: closed months, the close and its confirmation, the workbook. */
export const monthCloses = {
  'month-closes': {
    name: 'Month close |||| Month close',
    emptyTitle: 'No month closed yet',
    emptyNote:
      'Closing a month freezes its figures (sales, tax, fees, splits, payouts) for the accountant; anything dated in it afterwards is booked in the open month, marked as belonging to it. Months close in order, once they have ended (UTC), and are never reopened.',
    noneFound: 'No closed month matches these filters.',
    closed: 'Closed',
    download: 'Download %{month}.xlsx',
    next: {
      ended: '%{month} has ended and is open.',
      open: '%{month} is open until it ends (UTC).',
    },
    close: {
      button: 'Close %{month}',
      title: 'Close %{month}',
      question: 'Close %{month} and freeze these figures?',
      details:
        'Nothing can be written into the month afterwards: a late refund or dispute is booked on the first day of the next month, marked as belonging to it. A closed month is never reopened.',
      busy: 'Closing the month…',
      confirm: 'Close %{month}',
      failure: 'The month could not be closed.',
      done: '%{month} is closed',
    },
    figures: {
      title: 'Figures',
      none: 'No money in this month.',
      gross: 'Gross sales',
      tax: 'Tax in sales',
      fees: 'Fees',
      sales: 'Revenue',
      refunds: 'Refunds',
      disputes: 'Disputes',
      net: 'Net revenue',
      taxNet: 'Net tax',
      payoutsPaid: 'Payouts paid',
    },
    fields: {
      id: 'Month',
      month: 'Month',
      status: 'Status',
      closedAt: 'Closed',
      closedByEmail: 'Closed by',
      figures: 'Frozen figures',
      workbook: 'Workbook',
    },
  },
};
