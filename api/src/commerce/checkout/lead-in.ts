import type { Knex } from 'knex';
import { coursesOfProducts } from '../../catalog/service';
import { RECEIPT_SIGN_IN_DAYS, signInLinkWrite } from '../../identity/sign-in/email-sign-in';

/*
 * Where emails and the thank-you page lead a buyer or a member: the course a purchase opens (the right one when a
 * product grants several), the team page for a team's buyer, and the receipt's sign-in link that lands there.
 */

type Conn = Knex | Knex.Transaction;

export interface LeadInCourse {
  id: string;
  slug: string | null;
  title: string;
}

/** The storefront's address of a course, as its pages make it. */
export const coursePathOf = (course: Pick<LeadInCourse, 'id' | 'slug'>) =>
  `/courses/${encodeURIComponent(course.slug ?? course.id)}`;

export const teamPathOf = (teamId: string) => `/teams/${encodeURIComponent(teamId)}`;

/**
 * The course a purchase of the product opens. A product that grants several (Pro: its own course and Fundamentals,
 * which it upgrades from) opens its own: the first, in the product's order, that no product it upgrades from also
 * grants; else its first. Null when it grants no published course.
 */
export async function courseOfProduct(db: Conn, productId: string): Promise<LeadInCourse | null> {
  const courses = (await coursesOfProducts(db as Knex, [productId])).get(productId) ?? [];
  if (courses.length <= 1) return courses[0] ?? null;
  const inherited = (
    (await db('productContentResources as pc')
      .join('upgradableProducts as u', 'u.upgradableFromId', 'pc.productId')
      .where('u.upgradableToId', productId)
      .whereIn(
        'pc.resourceId',
        courses.map((c) => c.id),
      )
      .select('pc.resourceId as id')) as { id: string }[]
  ).map((row) => row.id);
  return courses.find((c) => !inherited.includes(c.id)) ?? courses[0]!;
}

/** Where a purchase of the product leads: its course, else My purchases (a product with no course yet). */
export async function leadInPath(db: Conn, productId: string): Promise<string> {
  const course = await courseOfProduct(db, productId);
  return course ? coursePathOf(course) : '/purchases';
}

/** `leadInPath` for several products (a batch of settlements): one read, unless a product grants several courses. */
export async function leadInPaths(db: Conn, productIds: string[]): Promise<Map<string, string>> {
  const courses = await coursesOfProducts(db as Knex, [...new Set(productIds)]);
  const paths = new Map<string, string>();
  for (const productId of productIds) {
    const granted = courses.get(productId) ?? [];
    const course = granted.length <= 1 ? (granted[0] ?? null) : await courseOfProduct(db, productId);
    paths.set(productId, course ? coursePathOf(course) : '/purchases');
  }
  return paths;
}

/**
 * The receipt's way in: a sign-in link for the buyer's address that lasts RECEIPT_SIGN_IN_DAYS, works once (the
 * Continue button's POST uses it; opening it does not) and finishes on `path`. Written in the settlement's
 * transaction.
 */
export async function receiptSignInLink(
  trx: Conn,
  input: { publicUrl: string; email: string; path: string; now: Date },
): Promise<string> {
  const { link, insert } = receiptSignInLinkWrite(trx, input);
  await insert;
  return link;
}

/** `receiptSignInLink`'s link and the insert of its token, for the caller to send with its purchase. */
export function receiptSignInLinkWrite(
  trx: Conn,
  input: { publicUrl: string; email: string; path: string; now: Date },
) {
  return signInLinkWrite(trx, {
    publicUrl: input.publicUrl,
    email: input.email,
    redirectTo: input.path,
    now: input.now,
    lifetimeMs: RECEIPT_SIGN_IN_DAYS * 86_400_000,
  });
}

/** The team a team purchase belongs to (a purchase of more seats belongs to the first one's): its page and invite. */
export async function teamOfTeamPurchase(
  db: Conn,
  purchaseId: string,
): Promise<{ teamId: string; inviteCode: string } | undefined> {
  return db('purchases as p')
    .join('coupons as c', 'c.id', 'p.bulkCouponId')
    .where('p.id', purchaseId)
    .first('c.bulkPurchaseId as teamId', 'c.inviteCode');
}

export const inviteUrlOf = (publicUrl: string, inviteCode: string) =>
  new URL(`/invites/${encodeURIComponent(inviteCode)}`, publicUrl).toString();
