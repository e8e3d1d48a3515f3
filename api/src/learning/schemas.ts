import { z } from 'zod';
import { MAX_COMMENT_LENGTH } from '../shared/comments';
import type { ContentState, LinkTier, ResourceType, Visibility } from '../shared/content';
import type { PurchaseStatus } from '../shared/purchase-status';
import type { LessonKindContent } from './lesson-kinds.schemas';
import type { Opening, Release } from './drip/release';
import { STAFF_REASON_MAX } from '../shared/staff-reason';

export const Slug = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(200)
  .regex(/^[\w-]+$/, 'must be a slug or an id');
const Id = z.uuid('must be an id');

export const CourseParam = z.object({ course: Slug });
export const LessonParams = z.object({ course: Slug, lesson: Slug });
export const ModuleParams = z.object({ course: Slug, moduleId: Id });
export const LessonIdParam = z.object({ lessonId: Id });
export const ProgressBody = z.object({ course: Slug.optional() }).strict();
export const BookmarkBody = z
  .object({
    course: z
      .object({ slug: Slug.nullable(), title: z.string().max(300) })
      .nullable()
      .optional(),
  })
  .strict();
const CommentText = z
  .string()
  .trim()
  .min(1, 'write something first')
  .max(MAX_COMMENT_LENGTH, `at most ${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters`)
  // PostgreSQL's text holds no NUL: refused here, with its field, before the comment is counted against the limit.
  .refine((text) => !text.includes('\u0000'), 'a comment cannot contain a NUL character (U+0000)');
export const CommentBody = z.object({ text: CommentText }).strict();
/** A new comment: with `parentId`, a reply to a top-level comment of the same lesson. */
export const NewCommentBody = z.object({ text: CommentText, parentId: Id.nullable().optional() }).strict();
export const HideBody = z
  .object({ reason: z.string().trim().max(STAFF_REASON_MAX, `at most ${STAFF_REASON_MAX} characters`).optional() })
  .strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the learning endpoints answer, as the services build them (dates as `Date`); the apps read them as
// `Wire<…>` (api/src/shared/wire.ts). Type-only: the apps' typecheck reads this file, so no Node module here.

/** Lessons done out of all, and the rounded percentage. */
export interface Progress {
  completed: number;
  total: number;
  percent: number;
}

export interface LessonLink {
  id: string;
  title: string;
  slug: string | null;
}

export interface CourseRef {
  id: string;
  title: string;
  slug: string | null;
}

/** A product on sale that grants a course. */
export interface ProductRef {
  id: string;
  name: string;
  slug: string | null;
}

/**
 * Why a learner cannot open the paid lessons of a course (docs/domain.md §11), with what they need to know to fix it.
 */
export type Lock =
  | { reason: 'sign-in' }
  | { reason: 'purchase' }
  /** A regional-price (Restricted) purchase used outside the country it was bought for. */
  | { reason: 'region'; purchaseCountry: string | null }
  /** The purchase was refunded, disputed or banned. */
  | { reason: 'ended'; status: PurchaseStatus };

export interface LessonItem extends LessonLink {
  /** Open to everyone (marked free, or the first lesson of its module). */
  free: boolean;
  /** Open to this learner. */
  open: boolean;
  completed: boolean;
  /** Its ready video's length rounded up, else the length staff gave it; null when unknown. */
  durationMinutes: number | null;
  /** While its scheduled release keeps it closed to this reader: when it opens (drip/release.ts); else null. */
  opens: Opening | null;
}

export interface CourseSection {
  id: string;
  title: string;
  progress: Progress;
  lessons: LessonItem[];
}

export interface CourseModule {
  id: string;
  title: string;
  slug: string | null;
  progress: Progress;
  /** Lessons placed in the module itself, outside any section. */
  lessons: LessonItem[];
  sections: CourseSection[];
  /** While the module's own scheduled release keeps it closed to this reader: when it opens; else null. */
  opens: Opening | null;
}

/** GET /api/store/courses/:course */
export interface CourseView {
  course: CourseRef & { description: string | null };
  /** The products on sale that grant the course. */
  products: ProductRef[];
  access: { full: true } | ({ full: false } & Lock);
  progress: Progress;
  /** The lessons' minutes; null when a lesson's length is unknown (a partial sum is never given). */
  totalMinutes: number | null;
  /** The minutes of the lessons this learner has not completed (all of them when signed out). */
  minutesLeft: number | null;
  modules: CourseModule[];
  /** Where to continue; null when signed out, or nothing is left to study. */
  continue: LessonLink | null;
}

/** A lesson video's state (api/src/video/models.ts). */
export type VideoState = 'queued' | 'processing' | 'ready' | 'failed';

/** One caption file, for the player's <track>. */
export interface CaptionTrack {
  /** BCP 47 ('en', 'pt-BR'). */
  language: string;
  label: string;
  /** A signed link to the WebVTT file. */
  src: string;
}

/** A caption file's cues, in seconds: the transcript under the video. */
export interface Transcript {
  language: string;
  label: string;
  cues: { start: number; end: number; text: string }[];
}

/**
 * The `video` of a lesson's answer. Links (`hls`, `poster`, captions' `src`) are short-lived and same-origin, and
 * given only when the lesson is open to the viewer and the video is ready; otherwise null, and no captions or
 * transcript.
 */
export interface LessonVideoView {
  status: VideoState;
  /** The HLS master playlist. */
  hls: string | null;
  poster: string | null;
  captions: CaptionTrack[];
  durationSeconds: number | null;
  /** The signed-in learner's saved position (0 when signed out or never played). */
  positionSeconds: number;
  transcript: Transcript[];
}

/** GET /api/store/courses/:course/lessons/:lesson */
export interface LessonView {
  course: CourseRef;
  module: { id: string; title: string };
  section: { id: string; title: string } | null;
  lesson: LessonLink & { free: boolean };
  open: boolean;
  lock: Lock | null;
  /** While its scheduled release keeps it closed (body, video and kind withheld): when it opens; else null. */
  opens: Opening | null;
  /** Rich text already sanitized by the API (no scripts, no event handlers); null when the lesson is locked. */
  body: string | null;
  /** The lesson's kind and what it adds to the page (api/src/learning/lesson-kinds.schemas.ts); null when locked. */
  content: LessonKindContent | null;
  /** What to buy, when it is locked (none when open). */
  products: ProductRef[];
  completed: boolean;
  bookmarked: boolean;
  /** The lesson's video; null when it has none. Its links are there only when the lesson is open and it is ready. */
  video: LessonVideoView | null;
  previous: LessonLink | null;
  next: LessonLink | null;
}

/** A module's progress, and its sections'. */
export interface ModuleProgress extends Progress {
  moduleId: string;
  sections: ({ id: string } & Progress)[];
}

/** PUT/DELETE /api/store/progress/lessons/:lessonId */
export interface ProgressAnswer {
  lessonId: string;
  completed: boolean;
  /** The course's certificate, when this write leaves a course the learner holds complete (issued now or before). */
  certificate: { id: string } | null;
  module: ModuleProgress;
  /** The course the progress counts in, and its progress after this write (all done: the course is complete). */
  course: CourseRef & { progress: Progress };
}

/** GET /api/store/courses/:course/next */
export interface NextLesson {
  course: CourseRef;
  next: LessonLink | null;
  progress: Progress;
}

/** GET /api/store/learning (in `data`): a course the learner owns or studied. */
export interface MyCourse {
  course: CourseRef;
  progress: Progress;
  continue: LessonLink | null;
  lastStudiedAt: Date | null;
}

/** GET /api/store/bookmarks (in `data`). */
export interface Bookmark {
  id: string;
  lesson: LessonLink;
  course: { slug: string | null; title: string | null } | null;
  createdAt: Date;
}

/** PUT/DELETE /api/store/bookmarks/:lessonId */
export interface BookmarkState {
  lessonId: string;
  bookmarked: boolean;
}

/** A comment under a lesson, as learners see it. */
export interface LessonComment {
  id: string;
  /** The top-level comment this one replies to (one level of replies); null when it starts a thread. */
  parentId: string | null;
  text: string;
  /** `name` is the author's display name ("Learner 4F2A" without one: shared/shown-name.ts); `instructor` marks who teaches the lesson. */
  author: { id: string; name: string; instructor: boolean };
  createdAt: Date;
  updatedAt: Date;
  editedAt: Date | null;
  mine: boolean;
  /** Hidden by staff: only its author still sees it. */
  hidden: { reason: string | null } | null;
}

/** A comment as the console sees it (the `comments` resource, and what the moderation actions answer in `data`). */
export interface CommentRecord {
  id: string;
  userId: string;
  /** The comment this one replies to, if it is a reply. */
  parentId: string | null;
  text: string;
  /** The lesson commented on, and an optional category. */
  context: { resourceId?: string; category?: string; [key: string]: unknown };
  /** Set while the comment is hidden: learners no longer see it; its author does, with the reason. */
  hiddenAt: Date | null;
  hiddenById: string | null;
  hiddenReason: string | null;
  /** When its author last edited it. */
  editedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** GET /api/admin/content-resources/:id/tree: children ordered by position. */
export interface TreeNode {
  id: string;
  type: string;
  title: string;
  slug: string | null;
  state: string | null;
  /** The link to the parent (absent on the root): its id, position, tier and scheduled release (drip/release.ts). */
  link?: { id: string; position: number; tier: string | null; release?: Release | null };
  children: TreeNode[];
}

export type { ResourceType };

/** The content fields of a resource as stored (all optional; others may be kept). */
export interface ResourceFields {
  title?: string;
  slug?: string;
  description?: string;
  /** Rich text (HTML), sanitized by the API on every write. */
  body?: string;
  state?: ContentState;
  visibility?: Visibility;
  [key: string]: unknown;
}

/** A course, module, section, lesson … as the console sees it (the `content-resources` resource). */
export interface ContentResourceRecord {
  id: string;
  type: ResourceType;
  createdById: string | null;
  fields: ResourceFields;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  /** Set for a contributor reading another author's content: its body is left out (only its author and staff read it). */
  bodyWithheld?: true;
}

/** A place of content inside other content (the `content-resource-resources` resource): the outline's edges. */
export interface ContentLinkRecord {
  id: string;
  /** The parent. */
  resourceOfId: string;
  /** The child. */
  resourceId: string;
  position: number;
  /** Its tier, and its scheduled release: days after the learner's start or a cohort's date (drip/release.ts). */
  metadata: {
    tier?: LinkTier;
    releaseAfterDays?: number | null;
    releaseOn?: string | null;
    [key: string]: unknown;
  };
  createdAt: Date;
  updatedAt: Date;
}
