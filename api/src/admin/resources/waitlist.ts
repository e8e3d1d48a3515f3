import { WaitlistEntry } from '../../catalog/waitlist/models';
import { defineResource } from '../resource';
import { instant, number, text } from '../../http/csv-columns';
import { productNamed } from '../lists/export-lookups';

/**
 * Who waits for which product (joined on the storefront, emailed when it opens). Support reads it, exports it and
 * may remove someone who asks; the leave link's token hash is never selected.
 */
export const waitlistEntries = defineResource({
  name: 'waitlist-entries',
  model: WaitlistEntry,
  read: ['support'],
  write: ['support'],
  columns: ['id', 'productId', 'email', 'createdAt', 'notifiedAt', 'notifiedOpening', 'outboxEmailId'],
  filterable: { id: 'id', productId: 'id', email: 'text', createdAt: 'date', notifiedAt: 'date' },
  sortable: ['id', 'email', 'createdAt', 'notifiedAt'],
  searchable: ['email'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [productNamed('productId', 'product')],
    columns: [
      text('Product', 'product'),
      text('Email', 'email'),
      instant('Joined', 'createdAt'),
      instant('Notified', 'notifiedAt'),
      number('Notified of opening', 'notifiedOpening'),
      text('Entry id', 'id'),
    ],
  },
  remove: 'hard',
});
