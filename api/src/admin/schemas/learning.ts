import { z } from 'zod';
import { CONTENT_STATES, LINK_TIERS, RESOURCE_TYPES, VISIBILITIES, type ResourceType } from '../../shared/content';
import { LESSON_KIND_WRITE_FIELDS } from '../../learning/lesson-kinds.schemas';
import { oneRelease, RELEASE_FIELDS } from '../../learning/drip/release.schemas';
import { Id, Slug } from './fields';

const ResourceFields = z
  .object({
    title: z.string().trim().min(1, 'is required').max(200),
    slug: Slug.max(120).optional(),
    description: z.string().max(2000).nullable().optional(),
    body: z.string().max(500_000).nullable().optional(),
    state: z.enum(CONTENT_STATES).default('draft'),
    visibility: z.enum(VISIBILITIES).default('public'),
    /** A lesson's estimated length, shown and added up on sales pages. */
    durationMinutes: z
      .number('must be a whole number of minutes')
      .int('must be a whole number of minutes')
      .min(1, 'at least 1 minute')
      .max(1440, 'at most 1440 minutes (a day)')
      .nullable()
      .optional(),
    /** A course's: its certificate waits until every published quiz in it is passed (docs/domain.md §13). */
    quizzesRequired: z.boolean().optional(),
    ...LESSON_KIND_WRITE_FIELDS,
  })
  .strict();
export type ResourceFields = z.infer<typeof ResourceFields>;

export const ContentResourceCreate = z.object({ type: z.enum(RESOURCE_TYPES), fields: ResourceFields }).strict();
export const ContentResourceUpdate = z.object({ fields: ResourceFields }).partial().strict();

const LinkMetadata = oneRelease(z.object({ tier: z.enum(LINK_TIERS).optional(), ...RELEASE_FIELDS }).strict());

export const ContentLinkCreate = z
  .object({ resourceOfId: Id, resourceId: Id, position: z.number().default(0), metadata: LinkMetadata.default({}) })
  .strict()
  .refine((l) => l.resourceOfId !== l.resourceId, { message: 'cannot contain itself', path: ['resourceId'] });
export const ContentLinkUpdate = z.object({ position: z.number(), metadata: LinkMetadata }).partial().strict();

/**
 * New content made in place in an outline (POST /api/admin/content-resources/:id/children): anything but a course,
 * titled; its slug comes from the title. `position`: its index among the parent's children (the end when absent).
 */
export const AddChildBody = z
  .object({
    type: z.enum(RESOURCE_TYPES.filter((t) => t !== 'course') as [ResourceType, ...ResourceType[]]),
    title: ResourceFields.shape.title,
    position: z.number().int('must be a whole number').min(0).max(1000).optional(),
  })
  .strict();

/** A container's children in their new order. */
export const ReorderBody = z.object({ childIds: z.array(Id).max(1000) }).strict();
