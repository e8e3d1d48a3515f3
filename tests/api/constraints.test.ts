import { describe, expect, it } from 'vitest';
import {
  AuditLog,
  Coupon,
  DeviceVerification,
  LessonProgress,
  MerchantAccount,
  MerchantCustomer,
  Price,
  Product,
  Purchase,
  Session,
} from '../support/models';
import {
  createCoupon,
  createCourse,
  createProduct,
  createPurchase,
  createRevenueSplit,
  createUser,
} from '../../seeds/factories';
import { useTestDatabase } from '../support/db';

/** The Postgres error a write fails with: its SQLSTATE and constraint name. */
async function failure(write: PromiseLike<unknown>): Promise<{ code: string; constraint?: string }> {
  try {
    await write;
  } catch (error) {
    const native = ((error as { nativeError?: unknown }).nativeError ?? error) as { code: string; constraint?: string };
    return { code: native.code, constraint: native.constraint };
  }
  throw new Error('the write succeeded but should have been refused');
}

const CHECK = '23514';
const UNIQUE = '23505';
// ON DELETE RESTRICT: PostgreSQL 18 says restrict_violation, older versions foreign_key_violation.
const RESTRICTED = expect.stringMatching(/^(23001|23503)$/);

describe('database constraints', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  it('refuses unknown statuses and enum values', async () => {
    const user = await createUser(db());
    const product = await createProduct(db());
    expect(await failure(createPurchase(db(), { user, product, status: 'Pending' as never }))).toMatchObject({
      code: CHECK,
      constraint: 'purchases_status_known',
    });
    expect(await failure(Product.query(db()).insert({ name: 'Bad', productType: 'ebook' as never }))).toMatchObject({
      code: CHECK,
      constraint: 'products_type_known',
    });
    expect(await failure(Product.query(db()).insert({ name: 'X' }))).toMatchObject({
      code: CHECK,
      constraint: 'products_name_length',
    });
    expect(await failure(createCoupon(db(), { status: 'paused' as never }))).toMatchObject({
      code: CHECK,
      constraint: 'coupons_status_known',
    });
    expect(await failure(createCoupon(db(), { percentageDiscount: 0 }))).toMatchObject({
      code: CHECK,
      constraint: 'coupons_percentage_range',
    });
    expect(await failure(createCoupon(db(), { percentageDiscount: 1.5 }))).toMatchObject({
      code: CHECK,
      constraint: 'coupons_percentage_range',
    });
    expect(await failure(createUser(db(), { roles: ['superuser' as never] }))).toMatchObject({
      code: CHECK,
      constraint: 'users_roles_known',
    });
    expect(
      await failure(
        db()('purchaseUserTransfers').insert({
          purchaseId: (await createPurchase(db(), { user, product })).id,
          sourceUserId: user.id,
          transferState: 'DONE',
          expiresAt: new Date(),
        }),
      ),
    ).toMatchObject({ code: CHECK, constraint: 'purchase_user_transfers_state_known' });
    expect(await failure(Price.query(db()).insert({ productId: product.id, unitAmount: -1 }))).toMatchObject({
      code: CHECK,
    });
  });

  it('keeps coupon codes unique regardless of case', async () => {
    await createCoupon(db(), { code: 'SPRING' });
    expect(await failure(createCoupon(db(), { code: 'spring' }))).toMatchObject({
      code: UNIQUE,
      constraint: 'coupons_code_unique',
    });
  });

  it('never lets a coupon be used more than its maximum', async () => {
    const coupon = await createCoupon(db(), { maxUses: 1 });
    await Coupon.query(db()).patch({ usedCount: 1 }).where('id', coupon.id);
    expect(await failure(Coupon.query(db()).patch({ usedCount: 2 }).where('id', coupon.id))).toMatchObject({
      code: CHECK,
      constraint: 'coupons_used_count_range',
    });
  });

  it('keeps one active price per product', async () => {
    const product = await createProduct(db());
    expect(
      await failure(Price.query(db()).insert({ productId: product.id, unitAmount: 100, status: 'active' })),
    ).toMatchObject({
      code: UNIQUE,
      constraint: 'prices_one_active_per_product',
    });
    await Price.query(db()).insert({ productId: product.id, unitAmount: 100, status: 'archived' });
  });

  it('keeps one progress row per user and lesson', async () => {
    const user = await createUser(db());
    const { lessons } = await createCourse(db(), {
      title: 'C',
      modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L', body: '<p>x</p>' }] }] }],
    });
    await LessonProgress.query(db()).insert({ userId: user.id, lessonId: lessons[0]!.id });
    expect(
      await failure(LessonProgress.query(db()).insert({ userId: user.id, lessonId: lessons[0]!.id })),
    ).toMatchObject({ code: UNIQUE });
  });

  it('keeps session tokens, verification tokens and device codes unique', async () => {
    const user = await createUser(db());
    const expires = new Date(Date.now() + 60_000);
    await Session.query(db()).insert({ sessionToken: 'hash-1', userId: user.id, expires });
    expect(
      await failure(Session.query(db()).insert({ sessionToken: 'hash-1', userId: user.id, expires })),
    ).toMatchObject({ code: UNIQUE });
    await db()('verificationTokens').insert({ token: 'vt-1', identifier: user.email, expires });
    expect(
      await failure(db()('verificationTokens').insert({ token: 'vt-1', identifier: user.email, expires })),
    ).toMatchObject({ code: UNIQUE });
    await DeviceVerification.query(db()).insert({ deviceCode: 'dc-1', userCode: 'BCDFGHJK', expires });
    expect(
      await failure(DeviceVerification.query(db()).insert({ deviceCode: 'dc-2', userCode: 'BCDFGHJK', expires })),
    ).toMatchObject({ code: UNIQUE });
    expect(
      await failure(DeviceVerification.query(db()).insert({ deviceCode: 'dc-3', userCode: 'AEIOU123', expires })),
    ).toMatchObject({ code: CHECK });
  });

  it('keeps merchant identifiers unique per account, not across accounts', async () => {
    const user = await createUser(db());
    const stripe = await MerchantAccount.query(db()).insertAndFetch({ label: 'stripe', identifier: 'acct_1' });
    const other = await MerchantAccount.query(db()).insertAndFetch({ label: 'other', identifier: 'acct_2' });
    await MerchantCustomer.query(db()).insert({ merchantAccountId: stripe.id, identifier: 'cus_1', userId: user.id });
    await MerchantCustomer.query(db()).insert({ merchantAccountId: other.id, identifier: 'cus_1', userId: user.id });
    expect(
      await failure(
        MerchantCustomer.query(db()).insert({ merchantAccountId: stripe.id, identifier: 'cus_1', userId: user.id }),
      ),
    ).toMatchObject({
      code: UNIQUE,
    });
  });

  it('requires a user for owner and contributor splits and none for the platform', async () => {
    const product = await createProduct(db());
    const user = await createUser(db());
    expect(
      await failure(createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.5 })),
    ).toMatchObject({ code: CHECK });
    expect(
      await failure(
        createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.5, userId: user.id }),
      ),
    ).toMatchObject({ code: CHECK });
  });

  it('protects history: a product or user with purchases cannot be deleted; sessions go with their user', async () => {
    const buyer = await createUser(db());
    const product = await createProduct(db());
    await createPurchase(db(), { user: buyer, product });
    expect(await failure(Product.query(db()).deleteById(product.id))).toMatchObject({ code: RESTRICTED });
    expect(await failure(db()('users').where('id', buyer.id).delete())).toMatchObject({ code: RESTRICTED });

    const visitor = await createUser(db());
    await Session.query(db()).insert({ sessionToken: 'hash-v', userId: visitor.id, expires: new Date() });
    await db()('users').where('id', visitor.id).delete();
    expect(await Session.query(db()).where('userId', visitor.id).resultSize()).toBe(0);
  });

  it('records a purchase upgrading another at most once', async () => {
    const user = await createUser(db());
    const basic = await createProduct(db());
    const pro = await createProduct(db());
    const first = await createPurchase(db(), { user, product: basic });
    await Purchase.query(db()).insert({ userId: user.id, productId: pro.id, upgradedFromId: first.id });
    expect(
      await failure(Purchase.query(db()).insert({ userId: user.id, productId: pro.id, upgradedFromId: first.id })),
    ).toMatchObject({ code: UNIQUE });
  });

  it('makes the audit log append-only', async () => {
    const entry = await AuditLog.query(db()).insertAndFetch({
      action: 'update',
      resource: 'products',
      recordId: 'x',
      before: { a: 1 },
      after: { a: 2 },
    });
    expect(await failure(AuditLog.query(db()).patch({ action: 'delete' }).where('id', entry.id))).toMatchObject({
      code: CHECK,
    });
    expect(await failure(AuditLog.query(db()).deleteById(entry.id))).toMatchObject({ code: CHECK });
    expect((await AuditLog.query(db()).findById(entry.id))?.after).toEqual({ a: 2 });
  });

  it('fills updated_at on every update', async () => {
    const product = await createProduct(db());
    await new Promise((r) => setTimeout(r, 5));
    const [updated] = await db()('products').where('id', product.id).update({ name: 'Renamed product' }).returning('*');
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThan(product.updatedAt.getTime());
  });
});
