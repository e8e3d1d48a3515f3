import type { Db } from '../db/connection';
import type { LearningService } from '../learning/learning';
import type { LessonItem } from '../learning/schemas';
import { avatarFields } from '../media/images';
import { AppError } from '../shared/errors';
import { courseLength } from '../shared/course-length';
import type { CurriculumCourse, CurriculumLesson, Instructor } from './schemas';

/** The product's owners and contributors (its revenue splits) who show a name; owners first, then by share. */
export async function instructorsOf(db: Db, productIds: string[]): Promise<Map<string, Instructor[]>> {
  const rows: { productId: string; name: string; bio: string | null; avatarKey: string | null; owner: boolean }[] =
    productIds.length
      ? await db('productRevenueSplits as s')
          .join('users as u', 'u.id', 's.userId')
          .whereIn('s.productId', productIds)
          .whereIn('s.type', ['owner', 'contributor'])
          .whereNotNull('u.name')
          .groupBy('s.productId', 'u.id', 'u.name', 'u.bio', 'u.avatarKey')
          .select(
            's.productId',
            'u.name',
            'u.bio',
            'u.avatarKey',
            db.raw(`bool_or(s.type = 'owner') AS owner`),
            db.raw('max(s.percent) AS share'),
          )
          .orderByRaw(`s.product_id, bool_or(s.type = 'owner') DESC, max(s.percent) DESC, u.name`)
      : [];
  const byProduct = new Map<string, Instructor[]>();
  for (const r of rows) {
    const instructor: Instructor = {
      name: r.name,
      bio: r.bio,
      role: r.owner ? 'owner' : 'contributor',
      avatar: avatarFields(r.avatarKey),
    };
    byProduct.set(r.productId, [...(byProduct.get(r.productId) ?? []), instructor]);
  }
  return byProduct;
}

/** A course's published outline as the sales page lists it: titles, free previews and lengths, never bodies. */
async function curriculumOf(learning: LearningService, course: { id: string }): Promise<CurriculumCourse | null> {
  let view;
  try {
    // As a signed-out visitor sees it: what is free is decided inside the course (docs/domain.md §11).
    view = await learning.course(course.id, { user: null, country: '' });
  } catch (error) {
    if (error instanceof AppError && error.code === 'not-found') return null; // private: not on the sales page
    throw error;
  }
  const items = view.modules.flatMap((m) => [...m.lessons, ...m.sections.flatMap((s) => s.lessons)]);
  // Lengths as the course outline gives them (a ready video's, else the length staff typed): one query for both.
  const lesson = (item: LessonItem): CurriculumLesson => ({
    id: item.id,
    slug: item.slug,
    title: item.title,
    free: item.free,
    durationMinutes: item.durationMinutes,
  });
  const modules = view.modules.map((m) => {
    const lessons = m.lessons.map(lesson);
    const sections = m.sections.map((s) => ({ id: s.id, title: s.title, lessons: s.lessons.map(lesson) }));
    const all = [...lessons, ...sections.flatMap((s) => s.lessons)];
    return {
      id: m.id,
      title: m.title,
      lessons,
      sections,
      lessonCount: all.length,
      durationMinutes: courseLength(all.map((l) => l.durationMinutes)),
    };
  });
  return {
    id: view.course.id,
    slug: view.course.slug,
    title: view.course.title,
    description: view.course.description,
    modules,
    lessonCount: items.length,
    freeLessonCount: items.filter((l) => l.free).length,
    durationMinutes: courseLength(items.map((l) => l.durationMinutes)),
  };
}

/** What a product's card says of its courses: how many lessons, and their length when every lesson has one. */
export function outlineFacts(curriculum: CurriculumCourse[]): { lessonCount: number; durationMinutes: number | null } {
  const lessons = curriculum.flatMap((c) =>
    c.modules.flatMap((m) => [...m.lessons, ...m.sections.flatMap((s) => s.lessons)]),
  );
  return lessonFacts(lessons.map((l) => l.durationMinutes));
}

/** How many lessons, and their length when every lesson has one, from each lesson's minutes. */
export function lessonFacts(minutes: (number | null)[]): { lessonCount: number; durationMinutes: number | null } {
  return { lessonCount: minutes.length, durationMinutes: courseLength(minutes) };
}

/** The published outlines of the courses a product grants, in its order (private ones left out). */
export async function curriculaOf(learning: LearningService, courses: { id: string }[]): Promise<CurriculumCourse[]> {
  const outlines = await Promise.all(courses.map((course) => curriculumOf(learning, course)));
  return outlines.filter((outline): outline is CurriculumCourse => outline !== null);
}
