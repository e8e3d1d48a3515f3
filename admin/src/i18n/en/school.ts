/** Labels of the school's settings page: its fields (resources.school) and the page's own words (console.school). */
export const schoolResource = {
  name: 'School settings',
  fields: {
    name: 'School name',
    legalName: 'Legal name',
    address: 'Postal address',
    supportEmail: 'Support email',
    accentColor: 'Accent colour (hex)',
    logoKey: 'Logo',
    termsHtml: 'Terms of sale',
    privacyHtml: 'Privacy notice',
    taxCountry: 'Established in (for tax)',
    taxId: 'Tax ID',
    taxEuOss: 'Registered for the EU One-Stop Shop (OSS)',
    taxInclusiveCurrencies: 'Prices include tax in',
  },
  help: {
    legalName: 'The company or person selling, as the terms, invoices and the contact page name it.',
    address: 'One line per line. Shown on the contact page and at the foot of every email.',
    supportEmail:
      'Replies to every email the school sends go here, and the storefront shows it. Without it, replies reach the sending address, which nobody reads.',
    accentColor: 'Six hex digits, like #1d4ed8.',
    logoKey: 'JPEG, PNG, WebP or AVIF, up to 10 MB; shown at 320 px wide in the storefront’s header and in emails.',
    taxCountry:
      'The country the school is established in. Empty: no tax is charged anywhere. Buyers in this country always pay its rate.',
    taxId:
      'Printed on every invoice, so needed once a country is set: in the EU and the UK, the school’s VAT number with its country prefix, like DE123456789; elsewhere its tax number (ABN, GST number, EIN).',
    taxEuOss:
      'Consumers elsewhere in the EU then pay their own country’s VAT. Without it, an EU school charges its own rate across the EU.',
    taxInclusiveCurrencies:
      'In these currencies the price shown is what the buyer pays, tax inside it. In the others, tax is added at checkout.',
  },
  notifications: {
    updated: 'School settings saved: pages and new emails use them now.',
  },
};

export const schoolLabels = {
  menu: 'School settings',
  title: 'School settings',
  intro:
    'What the storefront, every email and every certificate say about the school. Emails keep the settings they were written with.',
  identity: 'Name and contact',
  brand: 'Brand',
  tax: 'Tax',
  taxIntro: 'Where the school collects tax, and how its prices show it.',
  taxNote:
    'Registrations in other countries and US states, and the rate of each place, are under Tax in the menu. Business buyers with a VAT number of another EU country are reverse-charged.',
  noTax: 'Not set up: no tax',
  legal: 'Legal texts',
  legalIntro: 'Shown on the storefront’s Terms and Privacy pages.',
  legalNote: 'Write them with a lawyer’s advice: the storefront shows them as they are here.',
  pickColour: 'Pick the accent colour',
  preview: 'A button in the accent colour %{colour}',
  sampleButton: 'Start the course',
  previewNote: 'Buttons and the header bar in this colour, in emails and on the storefront.',
  logoAlt: 'The school’s logo',
};
