import { PaymentPlan } from '../../commerce/models';
import { instant, money, number, text } from '../../http/csv-columns';
import { AppError } from '../../shared/errors';
import { productNamed } from '../lists/export-lookups';
import { defineResource, type WriteHook } from '../resource';
import { PaymentPlanCreate, PaymentPlanUpdate } from '../schemas/payment-plans';

const STAFF = ['support', 'finance'] as const;

/** A membership is billed by its own terms (§22), not in instalments; the product's current plan is archived. */
async function makeRoomForNewPlan({ trx, audit }: WriteHook, productId: string): Promise<void> {
  const product = (await trx('products').where({ id: productId }).forUpdate().first('productType')) as
    { productType: string } | undefined;
  if (!product) throw new AppError('validation-failed', 'No such product.', { productId: 'must be a product' });
  if (product.productType === 'membership')
    throw new AppError('validation-failed', 'A membership is not sold in instalments.', {
      productId: 'must not be a membership',
    });
  const archived = await trx('paymentPlans')
    .where({ productId, status: 'active' })
    .update({ status: 'archived' })
    .returning('id');
  for (const { id } of archived as { id: string }[])
    await audit({ action: 'update', resource: 'payment-plans', recordId: id, after: { status: 'archived' } });
}

/** A course's payment plans (docs/domain.md §23): the one it offers now, and those archived. */
export const paymentPlans = defineResource({
  name: 'payment-plans',
  model: PaymentPlan,
  read: STAFF,
  filterable: { id: 'id', productId: 'id', status: 'enum', currency: 'enum', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'instalments', 'instalmentAmount', 'status'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [productNamed('productId', 'product')],
    columns: [
      text('Product', 'product'),
      number('Instalments', 'instalments'),
      money('Each instalment', 'instalmentAmount'),
      text('Currency', 'currency'),
      text('Status', 'status'),
      instant('Created', 'createdAt'),
      text('Payment plan id', 'id'),
    ],
  },
  exactCount: true,
  create: PaymentPlanCreate,
  update: PaymentPlanUpdate,
  async beforeWrite(hook, input, current) {
    if (current) return input;
    await makeRoomForNewPlan(hook, input.productId as string);
    return { ...input, status: 'active' };
  },
});
