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

/** One attempt at a quiz lesson (docs/domain.md §11): numbered per learner and quiz, graded when it was sent. */
export class QuizAttempt extends table('quizAttempts', { jsonAttributes: ['answers', 'results'] }) {
  declare id: string;
  declare lessonId: string;
  declare userId: string;
  declare number: number;
  declare seed: number;
  declare correct: number;
  declare total: number;
  declare score: number;
  declare passPercent: number;
  declare passed: boolean;
  declare answers: Record<string, string | string[]>;
  declare results: { questionId: string; correct: boolean }[];
  declare createdAt: Date;
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

/** A scheduled release announced to a learner, once per course and released module or lesson (drip/release-emails.ts). */
export class ReleaseEmail extends table('releaseEmails', { idColumn: ['userId', 'courseId', 'contentId'] }) {
  declare userId: string;
  declare courseId: string;
  declare contentId: string;
  /** When it opened for them, in their zone's midnight. */
  declare openedAt: Date;
  declare emailId: string | null;
  declare createdAt: Date;
}

/** A file attached to a lesson for its readers to download (attachments/attachments.ts): bytes in media storage. */
export class LessonAttachment extends table('lessonAttachments') {
  declare id: string;
  declare lessonId: string;
  declare storageKey: string;
  /** As uploaded, in any script: shown, and sent back as the download's name. */
  declare fileName: string;
  declare contentType: string;
  /** A bigint: the driver answers it as a string. */
  declare sizeBytes: string | number;
  declare position: number;
  declare createdById: string | null;
  declare createdAt: Date;
}

/** Stored bytes still to remove once their file's row is gone (attachments/: retried by deleted-lesson-files). */
export class LessonFileRemoval extends table('lessonFileRemovals', { idColumn: 'storageKey' }) {
  declare storageKey: string;
  declare createdAt: Date;
}

/** How far the release-email sweep has read a course's released module or lesson (drip/release-emails.ts). */
export class ReleaseSweepMark extends table('releaseSweepMarks', { idColumn: ['courseId', 'contentId'] }) {
  declare courseId: string;
  declare contentId: string;
  /** The schedule the mark was read under ("+3d", "2026-11-10"): another is read again from 3 days back. */
  declare schedule: string;
  declare sweptUntil: Date;
}
