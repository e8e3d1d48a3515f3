import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { ReadCaches } from '../cache/read-cache';
import { lessonAccess } from './access';
import type { ContentTree } from './content-tree';
import { coursePages } from './course-page';
import { courseReads } from './course-reads';
import { lessonPages, type LessonVideoViews } from './lesson-page';
import { lessonProgress, type IssueCertificate } from './progress';

/**
 * What learners see of courses (docs/domain.md §11), built from its parts: the cached course reads, access, course
 * and lesson pages, and progress. Drafts and private content do not exist for learners (404).
 */
export function learningService({
  db,
  tree,
  caches,
  videos,
  issueCertificate,
  clock,
}: {
  db: Db;
  clock: Clock;
  tree: ContentTree;
  caches: ReadCaches;
  videos: LessonVideoViews;
  issueCertificate: IssueCertificate;
}) {
  const reads = courseReads({ db, tree, caches });
  const access = lessonAccess({ db, reads, clock });
  return {
    lessonMinutesOfCourses: reads.lessonMinutesOfCourses,
    isVisible: access.isVisible,
    assertVisible: access.assertVisible,
    assertOpen: access.assertOpen,
    ...coursePages({ db, reads, access, clock }),
    ...lessonPages({ db, reads, videos, clock }),
    ...lessonProgress({ db, reads, access, issueCertificate }),
  };
}

export type LearningService = ReturnType<typeof learningService>;
