/** Labels of courses' payment plans in the console (docs/domain.md §23). */
export const paymentPlanLabels = {
  'payment-plans': {
    name: 'Payment plan |||| Payment plans',
    emptyTitle: 'No payment plans yet',
    emptyNote:
      "A payment plan sells a course in monthly instalments beside its price; add one from the product's page (Prices tab).",
    noneFound: 'No payment plan matches these filters.',
    title: '%{instalments} payments of %{amount}',
    titleLoading: 'Payment plan',
    newTitle: 'New payment plan',
    newNote:
      'The sales page offers the new plan under the one-time price at once; the plan offered now is archived. Learners paying a plan go on paying it as it was.',
    instalmentsHelp: 'How many monthly payments: 2 to 24. The first is paid when buying.',
    amountInput: 'Each instalment (in %{unit})',
    amountHelp: 'What each monthly payment charges, e.g. 210.00 dollars three times for a 600.00 course.',
    add: 'Add payment plan',
    ofProduct: 'Payment plan',
    ofProductNote:
      'Learners may pay the course in monthly instalments instead: the course opens with the first, and can be given away or upgraded once the last is paid.',
    noneForProduct: 'No payment plan: the course is sold in one payment only.',
    fields: {
      id: 'Id',
      productId: 'Product',
      instalments: 'Instalments',
      instalmentAmount: 'Each instalment',
      currency: 'Currency',
      status: 'Status',
      createdAt: 'Created',
    },
  },
};
