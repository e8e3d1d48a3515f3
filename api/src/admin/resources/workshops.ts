import { AppError } from '../../shared/errors';
import { WorkshopSession } from '../../catalog/workshops/models';
import { WorkshopSessionCreate, WorkshopSessionUpdate } from '../schemas/workshops';
import { defineResource } from '../resource';
import { instant, text } from '../../http/csv-columns';
import { productNamed } from '../lists/export-lookups';

/** A live workshop's sessions, edited from its product's Sessions tab. */
export const workshopSessions = defineResource({
  name: 'workshop-sessions',
  model: WorkshopSession,
  read: ['support', 'finance'],
  write: ['support'],
  filterable: { id: 'id', productId: 'id', startsAt: 'date', endsAt: 'date', createdAt: 'date' },
  sortable: ['id', 'title', 'startsAt', 'endsAt', 'createdAt', 'updatedAt'],
  searchable: ['title'],
  defaultSort: ['startsAt', 'ASC'],
  export: {
    lookups: [productNamed('productId', 'product')],
    columns: [
      text('Product', 'product'),
      text('Title', 'title'),
      instant('Starts', 'startsAt'),
      instant('Ends', 'endsAt'),
      text('Time zone', 'timeZone'),
      text('Join link', 'joinUrl'),
      text('Session id', 'id'),
    ],
  },
  exactCount: true,
  create: WorkshopSessionCreate,
  update: WorkshopSessionUpdate,
  remove: 'hard',
  constraintFields: {
    workshop_sessions_ends_after_start: { field: 'endsAt', message: 'must be after the start' },
    workshop_sessions_join_url_https: { field: 'joinUrl', message: 'must be an https:// link' },
    workshop_sessions_time_zone_shape: { field: 'timeZone', message: 'must be a time zone name such as Europe/Berlin' },
  },
  async beforeWrite(hook, input, current) {
    if (current) return input;
    // Sessions belong to live workshops: a self-paced course has no schedule to show.
    const product = await hook.trx('products').where({ id: input.productId }).first('productType');
    if (!product) throw new AppError('validation-failed', 'No such product.', { productId: 'is not a product' });
    if (product.productType !== 'live')
      throw new AppError('validation-failed', 'Only live workshops have sessions.', {
        productId: 'must be a live workshop',
      });
    return input;
  },
});
