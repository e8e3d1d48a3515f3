import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { ReadCaches } from '../cache/read-cache';
import { lessonAccess } from './access';
import type { ContentTree } from './content-tree';
import { coursePages } from './course-page';
import { courseReads } from './course-reads';
import { releaseSchedule } from './drip/schedule';
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
  const releases = releaseSchedule({ db, clock });
  const access = lessonAccess({ db, reads, clock, releases });
  return {
    lessonMinutesOfCourses: reads.lessonMinutesOfCourses,
    /** A course's outline as learners get it (cached): the release emails' sweep reads what opens when. */
    outlineOf: reads.outlineOf,
    isVisible: access.isVisible,
    assertVisible: access.assertVisible,
    assertOpen: access.assertOpen,
    ...coursePages({ db, reads, access, clock, releases }),
    ...lessonPages({ db, reads, videos, clock, releases }),
    ...lessonProgress({ db, reads, access, issueCertificate }),
  };
}

export type LearningService = ReturnType<typeof learningService>;
