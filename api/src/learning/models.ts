import { Model } from 'objection';
import { BaseModel } from '../db/base-model';

export const RESOURCE_TYPES = ['course', 'module', 'section', 'lesson', 'solution', 'page'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface ResourceFields {
  title?: string;
  slug?: string;
  description?: string;
  body?: string; // rich text (HTML), sanitised when rendered
  state?: 'draft' | 'published' | 'archived';
  visibility?: 'public' | 'unlisted' | 'private';
  [key: string]: unknown;
}

export class ContentResource extends BaseModel {
  static override tableName = 'contentResources';
  static override jsonAttributes = ['fields'];
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

export class ContentResourceResource extends BaseModel {
  static override tableName = 'contentResourceResources';
  static override idColumn = ['resourceOfId', 'resourceId'];
  static override jsonAttributes = ['metadata'];
  declare id: string; // public handle for the console
  declare resourceOfId: string;
  declare resourceId: string;
  declare position: number;
  declare metadata: { tier?: 'free' | 'paid'; [key: string]: unknown };
  declare createdAt: Date;
  declare updatedAt: Date;
  declare deletedAt: Date | null;
}

export class ProductContentResource extends BaseModel {
  static override tableName = 'productContentResources';
  static override idColumn = ['productId', 'resourceId'];
  declare id: string; // public handle for the console
  declare productId: string;
  declare resourceId: string;
  declare position: number;
  declare createdAt: Date;
}

export class LessonProgress extends BaseModel {
  static override tableName = 'lessonProgress';
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

export class Comment extends BaseModel {
  static override tableName = 'comments';
  static override jsonAttributes = ['context'];
  declare id: string;
  declare userId: string;
  declare text: string;
  declare context: { resourceId?: string; category?: string; [key: string]: unknown };
  /** Hidden by staff: gone for everyone but its author, who sees why. */
  declare hiddenAt: Date | null;
  declare hiddenById: string | null;
  declare hiddenReason: string | null;
  declare editedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class Bookmark extends BaseModel {
  static override tableName = 'bookmarks';
  static override jsonAttributes = ['fields'];
  declare id: string;
  declare userId: string;
  declare resourceId: string;
  declare type: string;
  declare fields: Record<string, unknown>;
  declare createdAt: Date;
  declare updatedAt: Date;
}
