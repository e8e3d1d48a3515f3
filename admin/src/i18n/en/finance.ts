/** Labels of the dashboard and the Finance page: cards, charts, periods and exports. */
export const finance = {
  /** The figures' building blocks (admin/src/common/Figures.tsx), shared by the dashboard and the Finance page. */
  figures: {
    totals: 'Totals',
    loading: 'Loading the figures',
    loadingChart: 'Loading the chart',
    showTable: 'Show the figures as a table',
    failed: 'The figures could not be loaded: %{message}',
    failedUnknown: 'The figures could not be loaded.',
    retry: 'Try again',
  },
  dashboard: {
    title: 'Console',
    welcome: 'Welcome',
    welcomeName: 'Welcome, %{name}',
    roles: 'Roles: %{roles}.',
    noRoles: 'none',
    contributor: 'Your courses and lessons are in the menu, under Learning.',
    noStaffRole:
      'This account has no staff role (admin, support or finance), so the console has nothing to show. Ask an administrator for access, or sign out from the account menu.',
    sales: 'Sales',
    period: 'Period',
    lastDays: 'Last %{smart_count} day |||| Last %{smart_count} days',
    revenue: 'Revenue',
    revenueHint: 'Gross charged',
    netRevenue: 'Net revenue',
    netRevenueHint:
      'After %{fees} in fees, %{refunded} refunded and %{disputed} disputed: the Finance page’s total for these days',
    purchases: 'Purchases',
    purchasesHint: 'Paid ones: seats taken from a team and free purchases aside',
    refunds: 'Refunds',
    refundsHint: 'Made in these days, in part or in full',
    activeLearners: 'Active learners',
    activeLearnersHint: 'With lesson progress',
    chartTitle: 'Revenue per day, last %{smart_count} day |||| Revenue per day, last %{smart_count} days',
    chartCaption: 'Gross charged and refunds made per day (UTC). %{summary}',
    summary:
      'Since %{since}: %{gross} gross, %{refunded} refunded, %{net} net, from %{smart_count} paid purchase. |||| Since %{since}: %{gross} gross, %{refunded} refunded, %{net} net, from %{smart_count} paid purchases.',
    noRevenue: 'No revenue in this period yet. Paid checkouts appear here the day they are charged.',
    day: 'Day (UTC)',
    gross: 'Gross',
    refunded: 'Refunded',
    net: 'Net',
    topProducts: 'Top products',
    product: 'Product',
    noProducts: 'No product sold in this period.',
  },
  page: {
    title: 'Finance',
    intro:
      'Revenue as the split ledger records it: each sale net of the provider’s fee, refunds and disputes as negative lines, shared among the platform, owners and contributors.',
    forbidden: 'The Finance page is for finance and admins.',
    pickPeriod: 'Pick a period to see its figures.',
    datesRefused: 'No figures for these dates: see the date inputs above.',
  },
  period: {
    legend: 'Period (UTC days, both included)',
    presetsLabel: 'Period presets',
    presets: {
      'this-month': 'This month',
      'last-month': 'Last month',
      'last-30-days': 'Last 30 days',
      'this-year': 'This year',
    },
    from: 'From',
    to: 'To',
    incomplete: 'Enter a complete date.',
  },
  /** The split ledger's amounts: table heads, chart series and totals. */
  ledger: {
    sales: 'Net sales',
    refunds: 'Refunds',
    disputes: 'Disputes',
    total: 'Total',
    nothing: 'No sales, refunds or disputes in this period.',
  },
  totals: {
    salesHint: 'After provider fees',
    disputesHint: 'Lost, less those won back',
    totalHint: 'What the recipients share',
  },
  overTime: {
    title: { day: 'Revenue per day', week: 'Revenue per week', month: 'Revenue per month' },
    head: { day: 'Day (UTC)', week: 'Week (from Monday, UTC)', month: 'Month (UTC)' },
    caption:
      '%{span} (UTC): %{sales} net sales, %{refunds} refunds, %{disputes} disputes, %{total} in total. Sales above the line, refunds and disputes below.',
    description: {
      day: 'Net sales, refunds and disputes per day, %{span}.',
      week: 'Net sales, refunds and disputes per week, %{span}.',
      month: 'Net sales, refunds and disputes per month, %{span}.',
    },
    weekOf: 'Week of %{day}',
  },
  products: {
    title: 'Revenue per product',
    head: 'Product',
    caption:
      '%{smart_count} product; the most: %{name}, %{total} in total. |||| %{smart_count} products; the most: %{name}, %{total} in total.',
    description: 'Net sales, refunds and disputes per product, %{span}.',
  },
  recipients: {
    title: 'Revenue per recipient',
    head: 'Recipient',
    type: 'Type',
    share: 'Share',
    caption: "Each recipient's share of the %{total} total; the largest: %{name}, %{share}.",
    belowZero: 'Recipients below zero for the period are only in the table.',
    noneAboveZero: 'No recipient ends this period above zero: see the table.',
    description: "Each recipient's share of the total, %{span}.",
    types: { platform: 'Platform', owner: 'Owner', contributor: 'Contributor' },
    /** A recipient's role in a split, inside a sentence: "Cora Contributor (owner)". */
    roles: { owner: 'owner', contributor: 'contributor' },
    withRole: '%{name} (%{role})',
    unknown: 'Unknown recipient',
  },
  exports: {
    title: 'Exports',
    intro:
      'CSV files for the dates above (UTC days, both included), in UTF-8 with a byte-order mark so spreadsheets read them right. Amounts are in cents.',
    kinds: {
      charges: {
        label: 'Charges',
        object: 'charges',
        what: 'Every charge with its refunds, provider fee, net and the buyer’s country',
      },
      'split-lines': {
        label: 'Split lines',
        object: 'split lines',
        what: 'Every ledger line per recipient: sales, refunds and disputes',
      },
      recipients: {
        label: 'Per-recipient summary',
        object: 'per-recipient summary',
        what: 'Each recipient’s totals per day, week or month',
      },
    },
    grouped: 'Grouped',
    groupings: { day: 'Per day', week: 'Per week', month: 'Per month' },
    done: '%{label} exported: %{filename}, %{rows} row. |||| %{label} exported: %{filename}, %{rows} rows.',
    canceled: '%{label} export canceled: nothing was saved.',
    refusedDates: 'The API refused these dates: see the date inputs above.',
    forbidden: 'Only finance and admins may export.',
    httpFailed: 'The export failed (HTTP %{status}).',
    failed: 'The export failed: %{message}',
    failedUnknown: 'The export failed.',
  },
};
