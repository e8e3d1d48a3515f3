import { Model, type ModelObject } from 'objection';
import { linkTable, table } from '../db/base-model';
import type { LinkTier, ResourceType } from '../shared/content';
import type { ResourceFields } from './schemas';

export type { ResourceType } from '../shared/content';
export type { ResourceFields } from './schemas';

export class ContentResource extends table('contentResources', { jsonAttributes: ['fields'] }) {
  declare id: string;
  declare type: ResourceType;
  declare createdById: string | null;
  declare fields: ResourceFields;
  declare createdAt: Date;
  declare updatedAt: Date;
  declare deletedAt: Date | null;
  /** Children in order, when fetched with the link's position and metadata. */
  declare resources?: (ContentResource & { position: number; metadata: ContentResourceResource['metadata'] })[];

  static override get relationMappings() {
    return {
      resources: {
        relation: Model.ManyToManyRelation,
        modelClass: ContentResource,
        join: {
          from: 'contentResources.id',
          through: {
            from: 'contentResourceResources.resourceOfId',
            to: 'contentResourceResources.resourceId',
            extra: ['position', 'metadata'],
          },
          to: 'contentResources.id',
        },
      },
    };
  }
}

/** A content row as knex reads it (the queries outside the console's resources). */
export type ContentRow = Omit<ModelObject<ContentResource>, 'resources'>;

export class ContentResourceResource extends linkTable(
  'contentResourceResources',
  ['resourceOfId', 'resourceId'],
  ['metadata'],
) {
  declare resourceOfId: string;
  declare resourceId: string;
  declare position: number;
  declare metadata: { tier?: LinkTier; [key: string]: unknown };
  declare updatedAt: Date;
  declare deletedAt: Date | null;
}

export class ProductContentResource extends linkTable('productContentResources', ['productId', 'resourceId']) {
  declare productId: string;
  declare resourceId: string;
  declare position: number;
}

export class LessonProgress extends table('lessonProgress') {
  declare id: string;
  declare userId: string;
  declare lessonId: string;
  declare sectionId: string | null;
  declare moduleId: string | null;
  declare lessonSlug: string | null;
  declare lessonVersion: string | null;
  declare completedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class Comment extends table('comments', { jsonAttributes: ['context'] }) {
  declare id: string;
  declare userId: string;
  declare text: string;
  declare context: { resourceId?: string; category?: string; [key: string]: unknown };
  /** The top-level comment this one replies to; null for a comment that starts a thread (one level of replies). */
  declare parentId: string | null;
  /** Hidden by staff: gone for everyone but its author, who sees why. */
  declare hiddenAt: Date | null;
  declare hiddenById: string | null;
  declare hiddenReason: string | null;
  declare editedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class Bookmark extends table('bookmarks', { jsonAttributes: ['fields'] }) {
  declare id: string;
  declare userId: string;
  declare resourceId: string;
  declare type: string;
  declare fields: Record<string, unknown>;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** How a reply's email to the author of the comment it answers was decided, once per reply (reply-emails/). */
export class CommentReplyEmail extends table('commentReplyEmails', { idColumn: 'replyId' }) {
  declare replyId: string;
  /** 'sent', or why nothing was: 'hidden', 'opted-out', 'not-open', 'account-deleted'. */
  declare outcome: string;
  declare outboxEmailId: string | null;
  declare createdAt: Date;
}
