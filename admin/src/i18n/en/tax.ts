/** Labels of the Tax section: the rate table and the school's registrations (the school's own tax is School settings'). */
export const tax = {
  'tax-rates': {
    name: 'Tax rate |||| Tax rates',
    fields: {
      country: 'Country',
      region: 'State or province',
      rateBp: 'Rate',
      name: 'Tax',
      createdAt: 'Created',
      updatedAt: 'Updated',
      id: 'Id',
    },
    emptyTitle: 'No tax rates yet',
    emptyNote:
      'The rate of each country (or US state, Canadian province) where the school charges tax on digital services. They start from the reference rates; the school changes them here.',
    noneFound: 'No rate matches these filters.',
    search: 'Search country, region or tax',
    ratePercent: 'Rate (%)',
    rateHelp: 'A percentage with up to three decimals, such as 19, 6.5 or 14.975.',
    rateFormat: 'Type a percentage with up to three decimals, such as 19 or 14.975.',
    rateRange: 'At most 50 %.',
    regionHelp: 'Only for a US state (WA) or a Canadian province (ON); empty for the whole country.',
    nameHelp: 'As invoices name it: VAT, GST, HST, Sales tax.',
    deleteTitle: 'Delete this tax rate?',
    deleteContent:
      'Checkouts in this place then charge no tax (or the country’s rate, for a state or province). Sales already made keep the tax they were charged. The next edition of the reference rates adds a reference place again: to stop charging tax here for good, set its rate to 0 % instead.',
  },
  'tax-registrations': {
    name: 'Tax registration |||| Tax registrations',
    fields: { country: 'Country', region: 'State or province', createdAt: 'Registered', id: 'Id' },
    emptyTitle: 'No registrations besides the school’s own country',
    emptyNote:
      'Where else the school is registered to collect tax: a country (the UK, Australia, Canada) or one US state. The school’s own country and the EU One-Stop Shop are set in School settings.',
    noneFound: 'No registration matches these filters.',
    wholeCountry: 'The whole country',
    regionHelp: 'Only for a US state (WA) or a Canadian province; empty for the whole country.',
    createNote:
      'Buyers in this place pay its rate from the next checkout on. Register only where the school is registered with the tax office.',
    deleteTitle: 'Remove this registration?',
    deleteContent: 'Buyers there are charged no tax from the next checkout on. Sales already made keep theirs.',
  },
};

/** The Tax section of the console's menu. */
export const taxMenu = { Tax: 'Tax' };
