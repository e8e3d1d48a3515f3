import { z } from 'zod';
import { MAX_ATTACHMENTS_PER_LESSON } from './file-types';

/** PUT …/attachments/order: every one of the lesson's files, in their new order. */
export const AttachmentOrderBody = z
  .object({ ids: z.array(z.uuid('must be an id')).min(1).max(MAX_ATTACHMENTS_PER_LESSON) })
  .strict();

/** GET /api/store/lessons/:lessonId/attachments?course=: the course the lesson is read in, when the page knows it. */
export const AttachmentLinksQuery = z
  .object({
    course: z
      .string()
      .trim()
      .max(200)
      .regex(/^[\w-]+$/, 'must be a slug or an id')
      .optional(),
  })
  .strip();

/** GET /media/attachments/:token/:name: the signed token (checked by its own rules) and the name, for the browser. */
export const DownloadParams = z.object({ token: z.string().max(200), name: z.string().max(1000) });
