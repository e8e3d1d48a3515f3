import { courseLength } from '../shared/course-length';
import type { Release } from './drip/release';
import type { LessonLink, Progress, TreeNode } from './schemas';

/** A lesson in course order, with where it sits and whether it is open to everyone. */
export interface OutlineLesson {
  id: string;
  title: string;
  slug: string | null;
  moduleId: string;
  sectionId: string | null;
  /** Marked free, or the first lesson of its module (docs/domain.md §11): open to everyone. */
  free: boolean;
  index: number;
  /** The scheduled releases it waits for: its module's, its section's and its own link's (drip/release.ts). */
  releases: Release[];
}

export interface OutlineSection {
  id: string;
  title: string;
  lessonIds: string[];
}

export interface OutlineModule {
  id: string;
  title: string;
  slug: string | null;
  /** Lessons placed in the module itself, outside any section. */
  lessonIds: string[];
  sections: OutlineSection[];
  /** The module's own scheduled release (its link in the course), if any. */
  release: Release | null;
}

export interface CourseOutline {
  id: string;
  title: string;
  slug: string | null;
  modules: OutlineModule[];
  lessons: OutlineLesson[];
}

const published = (node: TreeNode) => node.state === 'published';

/**
 * The learner's view of a course tree: published content only (a draft hides its whole branch), lessons in
 * reading order (module by module, section by section).
 */
export function courseOutline(tree: TreeNode): CourseOutline {
  const lessons: OutlineLesson[] = [];
  const modules: OutlineModule[] = [];
  const releasesOf = (...nodes: TreeNode[]) => nodes.flatMap((n) => (n.link?.release ? [n.link.release] : []));
  const addLesson = (node: TreeNode, above: TreeNode[], sectionId: string | null, firstInModule: boolean) => {
    const moduleId = above[0]!.id;
    lessons.push({
      id: node.id,
      title: node.title,
      slug: node.slug,
      moduleId,
      sectionId,
      free: firstInModule || node.link?.tier === 'free',
      index: lessons.length,
      releases: releasesOf(...above, node),
    });
    return node.id;
  };
  for (const moduleNode of tree.children.filter((n) => n.type === 'module' && published(n))) {
    const module: OutlineModule = {
      id: moduleNode.id,
      title: moduleNode.title,
      slug: moduleNode.slug,
      lessonIds: [],
      sections: [],
      release: moduleNode.link?.release ?? null,
    };
    let first = true;
    for (const child of moduleNode.children.filter(published)) {
      if (child.type === 'lesson') {
        module.lessonIds.push(addLesson(child, [moduleNode], null, first));
        first = false;
      } else if (child.type === 'section') {
        const section: OutlineSection = { id: child.id, title: child.title, lessonIds: [] };
        for (const lesson of child.children.filter((n) => n.type === 'lesson' && published(n))) {
          section.lessonIds.push(addLesson(lesson, [moduleNode, child], section.id, first));
          first = false;
        }
        module.sections.push(section);
      }
    }
    modules.push(module);
  }
  return { id: tree.id, title: tree.title, slug: tree.slug, modules, lessons };
}

export function progressOf(lessonIds: string[], completed: ReadonlySet<string>): Progress {
  const done = lessonIds.filter((id) => completed.has(id)).length;
  return {
    completed: done,
    total: lessonIds.length,
    percent: lessonIds.length ? Math.round((done / lessonIds.length) * 100) : 0,
  };
}

/** The minutes these lessons take: none for no lessons, unknown (null) when one's length is (shared/course-length.ts). */
export function minutesOf(lessonIds: string[], minutes: ReadonlyMap<string, number>): number | null {
  return lessonIds.length === 0 ? 0 : courseLength(lessonIds.map((id) => minutes.get(id) ?? null));
}

/** All lesson ids of a module, sections included, in order. */
export function moduleLessonIds(outline: CourseOutline, moduleId: string): string[] {
  return outline.lessons.filter((l) => l.moduleId === moduleId).map((l) => l.id);
}

/**
 * "Continue where you left off": the first incomplete lesson after the one completed last; from the start when
 * nothing after it is left; null when every lesson is complete.
 */
export function continueLesson(
  outline: CourseOutline,
  completed: ReadonlySet<string>,
  lastCompletedId: string | null,
): OutlineLesson | null {
  const incomplete = outline.lessons.filter((l) => !completed.has(l.id));
  if (incomplete.length === 0) return null;
  const last = outline.lessons.find((l) => l.id === lastCompletedId);
  return (last && incomplete.find((l) => l.index > last.index)) ?? incomplete[0]!;
}

/** A lesson as a link (previous, next, where to continue); null for none. */
export const lessonLink = (lesson: OutlineLesson | null | undefined): LessonLink | null =>
  lesson ? { id: lesson.id, title: lesson.title, slug: lesson.slug } : null;
