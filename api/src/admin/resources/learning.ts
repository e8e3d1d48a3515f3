import type { AnyQueryBuilder } from 'objection';
import { AppError } from '../../shared/errors';
import { mayEditAnyContent, mayReadWholeContent, NOT_YOUR_CONTENT, readsAllContent } from '../../learning/authorship';
import { sanitizeRichText } from '../../learning/sanitize';
import { kindFieldsOf, lessonKindOf } from '../../shared/lesson-kinds';
import {
  Bookmark,
  Comment,
  ContentResource,
  ContentResourceResource,
  LessonProgress,
  QuizAttempt,
} from '../../learning/models';
import {
  ContentLinkCreate,
  ContentLinkUpdate,
  ContentResourceCreate,
  ContentResourceUpdate,
  type ResourceFields,
} from '../schemas/learning';
import { defineResource, type Row, type WriteActor, type WriteHook } from '../resource';
import { derived, instant, number, text, yesIfSet, yesNo } from '../../http/csv-columns';
import { person } from '../lists/export-lookups';

/** A content record's title, from its fields (the row's own, or a looked-up record's). */
const titleIn = (fields: unknown): string | null => (fields as { title?: string } | null)?.title ?? null;
/** The content record `from` points at: `<as>` holds its fields (its title among them). */
const contentOf = (from: string, as: string) => ({ from, table: 'contentResources', fields: { [as]: 'fields' } });

const READERS = ['support', 'finance', 'contributor'] as const;
const EDITORS = ['support', 'contributor'] as const;

const mayEditAny = (actor: WriteActor) => mayEditAnyContent(actor.roles);
const NOT_YOURS = NOT_YOUR_CONTENT;

/**
 * A contributor sees their own content whole, other authors' published content without its body (a paid lesson's
 * body is what learners pay for), and other authors' drafts and archived content not at all (learning/authorship's
 * mayReadContent, here in SQL).
 */
const readableBy = (alias: string, reader: WriteActor) => ({
  sql: `(${alias}.created_by_id = ? OR ${alias}.fields->>'state' = 'published')`,
  bindings: [reader.id],
});

const contributorsRead = {
  readScope(query: AnyQueryBuilder, reader: WriteActor) {
    if (readsAllContent(reader.roles)) return;
    const { sql, bindings } = readableBy('content_resources', reader);
    query.whereRaw(sql, bindings);
  },
  presentTo(row: Row, reader: WriteActor): Row {
    if (mayReadWholeContent({ createdById: (row.createdById as string | null) ?? null }, reader)) return row;
    const fields = row.fields as ResourceFields;
    // A lesson's kind keeps more of what learners pay for (a quiz's questions): withheld with the body.
    const withheld = new Set(kindFieldsOf(lessonKindOf(fields)));
    const kept = Object.fromEntries(Object.entries(fields).filter(([name]) => !withheld.has(name)));
    return { ...row, fields: { ...kept, body: null }, bodyWithheld: true };
  },
};

/** Contributors work on content they created; support and admins on any. */
async function checkAuthor({ actor }: WriteHook, _operation: string, _input: Row, current: Row | null): Promise<void> {
  if (current && !mayEditAny(actor) && current.createdById !== actor.id) throw new AppError('forbidden', NOT_YOURS);
}

/**
 * A link belongs to its parent: contributors may add, move, retier or remove links only under their own content,
 * and link in (or retier) only content they created too (docs/domain.md §11): nobody's paid lesson lands in a course
 * they control.
 */
async function checkLinkAuthor(
  { trx, actor }: WriteHook,
  operation: string,
  input: Row,
  current: Row | null,
): Promise<void> {
  if (mayEditAny(actor)) return;
  const parent = (current?.resourceOfId ?? input.resourceOfId) as string;
  // Taking a link out of one's own content is always theirs to do; adding or retiering one touches both ends.
  const ends = operation === 'delete' ? [parent] : [parent, (current?.resourceId ?? input.resourceId) as string];
  const authors = await trx('contentResources').whereIn('id', ends).select('id', 'createdById');
  const own = (id: string) =>
    authors.some((a: { id: string; createdById: string | null }) => a.id === id && a.createdById === actor.id);
  if (!ends.every(own))
    throw new AppError('forbidden', 'Contributors can link only content they created into content they created.');
}

/** A contributor reads the links of an outline they may read, to content they may read (the outline's rule). */
function linksRead(query: AnyQueryBuilder, reader: WriteActor): void {
  if (readsAllContent(reader.roles)) return;
  for (const end of ['resource_of_id', 'resource_id']) {
    const { sql, bindings } = readableBy('c', reader);
    query.whereRaw(
      `EXISTS (SELECT 1 FROM content_resources c WHERE c.id = content_resource_resources.${end} AND ${sql})`,
      bindings,
    );
  }
}

/** Links to or from deleted content are gone with it. */
const LINK_TO_LIVE_CONTENT = `NOT EXISTS (SELECT 1 FROM content_resources gone WHERE gone.deleted_at IS NOT NULL
  AND gone.id IN (content_resource_resources.resource_id, content_resource_resources.resource_of_id))`;

export const contentResources = defineResource({
  name: 'content-resources',
  model: ContentResource,
  read: READERS,
  write: EDITORS,
  sqlColumns: {
    title: { expression: "content_resources.fields->>'title'" },
    slug: { expression: "content_resources.fields->>'slug'" },
    state: { expression: "content_resources.fields->>'state'" },
  },
  filterable: {
    id: 'id',
    type: 'enum',
    createdById: 'id',
    state: 'enum',
    slug: 'text',
    createdAt: 'date',
    updatedAt: 'date',
  },
  sortable: ['id', 'type', 'title', 'createdAt', 'updatedAt'],
  searchable: ['title', 'slug'],
  defaultSort: ['updatedAt', 'DESC'],
  // A school's courses, sections and lessons: thousands at most, sorted and counted in full.
  exactCount: true,
  export: {
    lookups: [person('createdById', 'author')],
    columns: [
      derived('Title', (c) => titleIn(c.fields)),
      text('Type', 'type'),
      derived('State', (c) => (c.fields as { state?: string } | null)?.state),
      text('Author', 'authorName'),
      instant('Updated', 'updatedAt'),
      text('Content id', 'id'),
    ],
  },
  create: ContentResourceCreate,
  update: ContentResourceUpdate,
  checkWrite: checkAuthor,
  ...contributorsRead,
  remove: 'soft',
  constraintFields: {
    content_resources_slug_unique: { field: 'fields.slug', message: 'is already used by other content' },
  },
  async beforeWrite({ actor }, input, current) {
    const fields = input.fields as ResourceFields | undefined;
    const safe = fields
      ? { fields: { ...fields, body: fields.body ? sanitizeRichText(fields.body) : fields.body } }
      : {};
    // New content belongs to whoever wrote it (contributors may later edit only their own).
    return current ? { ...input, ...safe } : { ...input, ...safe, createdById: actor.id };
  },
});

export const contentResourceResources = defineResource({
  name: 'content-resource-resources',
  model: ContentResourceResource,
  idColumn: 'id',
  read: READERS,
  write: EDITORS,
  filterable: { id: 'id', resourceOfId: 'id', resourceId: 'id', position: 'number' },
  sortable: ['id', 'position', 'createdAt'],
  searchable: [],
  defaultSort: ['position', 'ASC'],
  export: {
    lookups: [contentOf('resourceOfId', 'parent'), contentOf('resourceId', 'child')],
    columns: [
      derived('In', (l) => titleIn(l.parent)),
      derived('Content', (l) => titleIn(l.child)),
      number('Position', 'position'),
      derived('Tier', (l) => (l.metadata as { tier?: string } | null)?.tier),
      instant('Created', 'createdAt'),
      text('Link id', 'id'),
    ],
  },
  exactCount: true,
  create: ContentLinkCreate,
  update: ContentLinkUpdate,
  remove: 'soft',
  checkWrite: checkLinkAuthor,
  scope: (query) => query.whereRaw(LINK_TO_LIVE_CONTENT),
  readScope: linksRead,
  constraintFields: { content_resource_resources_pkey: { field: 'resourceId', message: 'is already linked here' } },
  async beforeWrite({ trx }, input, current) {
    // Linking again what was unlinked replaces the removed link (the audit log keeps its story).
    if (!current)
      await trx('contentResourceResources')
        .where({ resourceOfId: input.resourceOfId, resourceId: input.resourceId })
        .whereNotNull('deletedAt')
        .delete();
    return input;
  },
});

export const lessonProgress = defineResource({
  name: 'lesson-progress',
  model: LessonProgress,
  read: ['support'],
  filterable: {
    id: 'id',
    userId: 'id',
    lessonId: 'id',
    moduleId: 'id',
    sectionId: 'id',
    completedAt: 'date',
    updatedAt: 'date',
  },
  sortable: ['id', 'updatedAt', 'completedAt', 'createdAt'],
  searchable: ['lessonSlug'],
  defaultSort: ['updatedAt', 'DESC'],
  export: {
    lookups: [person('userId', 'learner'), contentOf('lessonId', 'lesson')],
    columns: [
      text('Learner email', 'learnerEmail'),
      text('Learner name', 'learnerName'),
      derived('Lesson', (p) => titleIn(p.lesson) ?? p.lessonSlug),
      instant('Completed', 'completedAt'),
      instant('Updated', 'updatedAt'),
      text('Progress id', 'id'),
    ],
  },
});

/** Learners' attempts at quiz lessons (docs/domain.md §11): read-only, learners send them from the storefront. */
export const quizAttempts = defineResource({
  name: 'quiz-attempts',
  model: QuizAttempt,
  read: ['support'],
  filterable: { id: 'id', userId: 'id', lessonId: 'id', createdAt: 'date' },
  sortable: ['id', 'createdAt'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('userId', 'learner'), contentOf('lessonId', 'lesson')],
    columns: [
      text('Learner email', 'learnerEmail'),
      text('Learner name', 'learnerName'),
      derived('Quiz', (a) => titleIn(a.lesson)),
      number('Attempt', 'number'),
      number('Score percent', 'score'),
      number('Pass mark percent', 'passPercent'),
      yesNo('Passed', 'passed'),
      number('Right', 'correct'),
      number('Questions', 'total'),
      instant('Sent', 'createdAt'),
      text('Attempt id', 'id'),
    ],
  },
});

export const comments = defineResource({
  name: 'comments',
  model: Comment,
  read: ['support'],
  sqlColumns: {
    resourceId: { expression: "comments.context->>'resourceId'" },
    hidden: { expression: '(comments.hidden_at IS NOT NULL)' },
  },
  filterable: { id: 'id', userId: 'id', resourceId: 'id', hidden: 'boolean', createdAt: 'date', hiddenAt: 'date' },
  sortable: ['id', 'createdAt', 'updatedAt', 'hiddenAt'],
  searchable: ['text'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('userId', 'author')],
    columns: [
      text('Author email', 'authorEmail'),
      text('Author name', 'authorName'),
      text('Comment', 'text'),
      yesIfSet('Hidden', 'hiddenAt'),
      instant('Created', 'createdAt'),
      text('Comment id', 'id'),
    ],
  },
});

export const bookmarks = defineResource({
  name: 'bookmarks',
  model: Bookmark,
  read: ['support'],
  filterable: { id: 'id', userId: 'id', resourceId: 'id', type: 'enum', createdAt: 'date' },
  sortable: ['id', 'createdAt'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('userId', 'owner'), contentOf('resourceId', 'content')],
    columns: [
      text('Email', 'ownerEmail'),
      text('Name', 'ownerName'),
      derived('Content', (b) => titleIn(b.content)),
      text('Type', 'type'),
      instant('Created', 'createdAt'),
      text('Bookmark id', 'id'),
    ],
  },
});
