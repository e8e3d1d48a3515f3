import type { Knex } from 'knex';
import type { User } from '../api/src/identity/models';
import type { Role } from '../api/src/shared/roles';
import type { ScenarioInput, ScenarioOutcome } from '../api/src/pricing-simulator/schemas';
import {
  createCoupon,
  createCourse,
  createProduct,
  createRevenueSplit,
  createUser,
  createWorkshopSession,
  makeUpgradable,
  quizLesson,
  type CourseOutline,
} from './factories';
import pricingScenarios from './pricing-scenarios.json';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** One person per role; admin@example.com is the administrator. */
export const DEMO_USERS: { email: string; name: string; roles: Role[] }[] = [
  { email: 'admin@example.com', name: 'Ada Admin', roles: ['admin'] },
  { email: 'support@example.com', name: 'Sam Support', roles: ['support'] },
  { email: 'finance@example.com', name: 'Fin Finance', roles: ['finance'] },
  { email: 'contributor@example.com', name: 'Cora Contributor', roles: ['contributor'] },
  { email: 'learner@example.com', name: 'Lee Learner', roles: ['learner'] },
];

export const DEMO_PRODUCTS = {
  fundamentals: { key: 'typescript-fundamentals', name: 'TypeScript Fundamentals', unitAmount: 4900 },
  pro: { key: 'typescript-pro', name: 'TypeScript Pro', unitAmount: 19900 },
  workshop: { key: 'type-level-workshop', name: 'Live Workshop: Type-Level TypeScript', unitAmount: 39900 },
  allAccess: { key: 'all-access', slug: 'all-access', name: 'All access', unitAmount: 2900, yearlyAmount: 29000 },
} as const;

/** TypeScript Pro's payment plan: three monthly payments of $69. */
export const DEMO_PAYMENT_PLAN = { instalments: 3, instalmentAmount: 6900, currency: 'usd' } as const;

const lesson = (title: string, paragraphs: string[], free = false) => ({
  title,
  free,
  body: [`<h2>${title}</h2>`, ...paragraphs.map((p) => `<p>${p}</p>`)].join('\n'),
});

/** A quiz on unions (docs/domain.md §11): one question of each type, open to everyone as its lesson is free. */
const UNION_QUIZ = quizLesson([
  {
    id: 'union-meaning',
    kind: 'single',
    prompt: 'What may a value of type string | number be?',
    explanation: 'A union holds a value of any one of its members.',
    choices: [
      { id: 'either', text: 'A string or a number', correct: true, explanation: 'Either member will do.' },
      {
        id: 'both',
        text: 'A string and a number at once',
        correct: false,
        explanation: 'That is an intersection.',
      },
      { id: 'neither', text: 'Only null', correct: false },
    ],
  },
  {
    id: 'narrowing-tools',
    kind: 'multiple',
    prompt: 'Which of these narrow a union?',
    explanation: 'Each check tells the compiler which member a value is in its branch.',
    choices: [
      { id: 'typeof', text: 'A typeof check', correct: true },
      { id: 'in', text: 'An in check', correct: true },
      { id: 'comment', text: 'A comment naming the type', correct: false, explanation: 'Comments are not read.' },
    ],
  },
  {
    id: 'never-name',
    kind: 'short',
    prompt: 'Which type has no values at all (it proves a switch exhaustive)?',
    explanation: 'A value of type never cannot exist, so reaching one means a case was missed.',
    accepted: ['never'],
    pattern: null,
  },
  {
    id: 'narrowing-order',
    kind: 'ordering',
    prompt: 'Put the steps of narrowing a union in order.',
    explanation: 'Declare the union, check the value, then use what the check proved.',
    items: [
      { id: 'declare', text: 'Declare a value of a union type' },
      { id: 'check', text: 'Check which member it is' },
      { id: 'use', text: 'Use the member-specific methods' },
    ],
  },
]);

const COURSE: CourseOutline = {
  title: 'TypeScript Fundamentals',
  description: 'From plain JavaScript to confident, typed code in two modules.',
  modules: [
    {
      title: 'Getting started',
      sections: [
        {
          title: 'Why types',
          lessons: [
            lesson(
              'Welcome',
              ['What this course covers and how to study it.', 'Each lesson ends with a short exercise.'],
              true,
            ),
            lesson('Types catch mistakes early', [
              'A type checker reads your code before it runs.',
              'We compare a <strong>runtime</strong> error with a <em>compile-time</em> one.',
            ]),
          ],
        },
        {
          title: 'Your first types',
          lessons: [
            lesson('Primitive types', ['<code>string</code>, <code>number</code>, <code>boolean</code> and friends.']),
            lesson('Arrays and tuples', ['Lists of one type, and fixed-length lists of several.']),
          ],
        },
      ],
    },
    {
      title: 'Modelling data',
      sections: [
        {
          title: 'Objects',
          lessons: [
            lesson('Interfaces and type aliases', ['Two ways to name a shape, and when each fits.']),
            lesson('Optional and readonly', ['Say which fields may be missing and which never change.']),
          ],
        },
        {
          title: 'Unions',
          lessons: [
            { ...lesson('Union types', ['A value that is one of several types.'], true), fields: UNION_QUIZ },
            lesson('Narrowing', ['<code>typeof</code>, <code>in</code> and discriminated unions.']),
            lesson('Exhaustive checks', ['Let the compiler tell you when a case is missing.']),
          ],
        },
      ],
    },
  ],
};

/**
 * A course run as a cohort, open to the All Access membership (it holds the whole catalog; no product sells it
 * alone): its second week opens 7 days after each subscriber starts (scheduled release, docs/domain.md §11), so the
 * demo shows "Opens on …" and sends the email when it opens.
 */
async function createCohortCourse(trx: Knex.Transaction, authorId: string): Promise<void> {
  const { course } = await createCourse(
    trx,
    {
      title: 'Generics Cohort',
      description: 'Generics and type-level programming, one week at a time.',
      modules: [
        {
          title: 'Week one: generics',
          sections: [
            {
              title: 'Generic functions',
              lessons: [
                lesson('Type parameters', ['Write a function once for every type it serves.']),
                lesson('Constraints', ['<code>extends</code> says what a type parameter must have.']),
              ],
            },
          ],
        },
        {
          title: 'Week two: type-level programming',
          sections: [
            {
              title: 'Types from types',
              lessons: [
                lesson('Mapped types', ['Make a type from the keys of another.']),
                lesson('Conditional types', ['Choose a type by asking a question of another.']),
              ],
            },
          ],
        },
      ],
    },
    { createdById: authorId },
  );
  await trx('contentResourceResources')
    .where({ resourceOfId: course.id, position: 1 })
    .update({ metadata: JSON.stringify({ releaseAfterDays: 7 }) });
}

/**
 * Pricing scenarios on the demo catalog, by stable handles (product keys, emails), with the answers expected:
 * `npm run cli -- export-pricing-scenarios` prints the console's saved ones in this shape.
 */
export const DEMO_PRICING_SCENARIOS = pricingScenarios as unknown as {
  name: string;
  input: ScenarioInput;
  expected: ScenarioOutcome;
}[];

/**
 * The demo school: a name, a way to reach it and legal texts an administrator replaces with the school's own. It is
 * established in Germany and registered for the EU's One-Stop Shop (DEMO_TAX).
 */
export const DEMO_SCHOOL = {
  name: 'Typed Academy',
  legalName: 'Typed Academy GmbH',
  address: 'Beispielstraße 1\n10115 Berlin\nGermany',
  supportEmail: 'support@example.com',
  accentColor: '#1d4ed8',
  termsHtml: [
    '<h2>Who we are</h2>',
    '<p>Typed Academy GmbH sells the courses and workshops on this site. Write to support@example.com with any question.</p>',
    '<h2>Your purchase</h2>',
    '<p>A purchase gives the buyer (or the people they give seats to) lasting access to the course it names.</p>',
    '<h2>Refunds</h2>',
    '<p>Ask within 30 days of buying and we refund you in full, no questions asked.</p>',
  ].join(''),
  privacyHtml: [
    '<h2>What we keep</h2>',
    '<p>Your email address, your name if you give one, your purchases and your progress in each course.</p>',
    '<h2>Your rights</h2>',
    '<p>Download everything we hold about you, or delete your account, from your Settings page at any time.</p>',
  ].join(''),
};

/**
 * The demo school's tax: established in Germany with a German VAT number, on the One-Stop Shop (EU consumers pay their
 * own country's VAT), registered also in the UK, Australia, Canada and two US states; prices include tax in every
 * currency the demo sells in. The rates are the reference seed's.
 */
export const DEMO_TAX = {
  taxCountry: 'DE',
  taxId: 'DE123456789',
  taxEuOss: true,
  registrations: [
    { country: 'GB', region: null },
    { country: 'AU', region: null },
    { country: 'CA', region: null },
    { country: 'US', region: 'WA' },
    { country: 'US', region: 'TX' },
  ],
};

async function seedDemoTax(trx: Knex.Transaction): Promise<void> {
  const currencies = (await trx('prices').distinct('currency').orderBy('currency')).map((p) => p.currency as string);
  await trx('schoolSettings').update({
    taxCountry: DEMO_TAX.taxCountry,
    taxId: DEMO_TAX.taxId,
    taxEuOss: DEMO_TAX.taxEuOss,
    taxInclusiveCurrencies: currencies,
  });
  await trx('taxRegistrations').insert(DEMO_TAX.registrations);
}

/** The demo catalog, course, coupons and one user per role. Loaded once, on a database's first start. */
export async function seedDemoData(trx: Knex.Transaction): Promise<void> {
  // One transaction is one connection: queries run one after another.
  await trx('schoolSettings').update(DEMO_SCHOOL);
  let contributor: User | undefined;
  for (const person of DEMO_USERS) {
    const user = await createUser(trx, { ...person, emailVerified: new Date() });
    if (person.roles.includes('contributor')) contributor = user;
  }
  if (!contributor) throw new Error('the demo needs a contributor');

  const fundamentals = await createProduct(trx, {
    ...DEMO_PRODUCTS.fundamentals,
    description: 'The essentials of TypeScript, self-paced: types, objects, unions and narrowing.',
  });
  const pro = await createProduct(trx, {
    ...DEMO_PRODUCTS.pro,
    description: 'Everything in Fundamentals plus generics, type-level programming and real-world projects.',
  });
  const workshop = await createProduct(trx, {
    ...DEMO_PRODUCTS.workshop,
    productType: 'live',
    quantityAvailable: 20,
    enrollmentOpensAt: new Date(Date.now() - DAY),
    enrollmentClosesAt: new Date(Date.now() + 30 * DAY),
    description: 'Two live half-days with exercises and a Q&A. Twenty seats.',
  });
  // A membership over every course, those added later too, monthly or yearly (docs/domain.md §22).
  const allAccess = await createProduct(trx, {
    ...DEMO_PRODUCTS.allAccess,
    productType: 'membership',
    billingInterval: 'month',
    grantsWholeCatalog: true,
    description: 'Every course in the school, new ones included, for as long as you stay subscribed.',
  });
  await makeUpgradable(trx, fundamentals, pro);
  // TypeScript Pro also in three monthly instalments, beside its one-time price (docs/domain.md §23).
  await trx('paymentPlans').insert({ productId: pro.id, ...DEMO_PAYMENT_PLAN });
  // The workshop's two half-days, two weeks out, organised from New York (learners see their own times).
  const workshopDay = Math.floor(Date.now() / DAY) * DAY + 14 * DAY;
  for (const [day, title] of [
    'Day 1: Conditional and mapped types',
    'Day 2: Template literal types and Q&A',
  ].entries()) {
    const startsAt = new Date(workshopDay + day * DAY + 17 * HOUR);
    await createWorkshopSession(trx, {
      product: workshop,
      title,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3 * HOUR),
      timeZone: 'America/New_York',
      joinUrl: 'https://meet.example.com/type-level-workshop',
    });
  }

  await createCourse(trx, COURSE, { createdById: contributor.id, products: [fundamentals, pro] });
  await createCohortCourse(trx, contributor.id);

  await createCoupon(trx, {
    default: true,
    code: null,
    percentageDiscount: 0.2,
    expires: new Date(Date.now() + 14 * DAY),
  });
  await createCoupon(trx, { code: 'WELCOME10', percentageDiscount: 0.1, maxUses: 100 });

  for (const product of [fundamentals, pro, workshop, allAccess]) {
    await createRevenueSplit(trx, { productId: product.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(trx, { productId: product.id, type: 'owner', percent: 0.7, userId: contributor.id });
  }

  await seedDemoTax(trx);

  // The pricing simulator's saved scenarios on this catalog (CI replays the same file: tests/api/pricing-scenarios.test.ts).
  for (const scenario of DEMO_PRICING_SCENARIOS)
    await trx('pricingScenarios').insert({
      name: scenario.name,
      input: JSON.stringify(scenario.input),
      expected: JSON.stringify(scenario.expected),
    });
}
