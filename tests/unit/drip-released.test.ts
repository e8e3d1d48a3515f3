import { describe, expect, it } from 'vitest';
import { releasedIn } from '../../api/src/learning/drip/release-emails';
import type { Release } from '../../api/src/learning/drip/release';
import type { CourseOutline, OutlineLesson } from '../../api/src/learning/outline';

// What a release email announces and where its link lands (docs/domain.md §11).
describe('releases announced in a course', () => {
  const week: Release = { afterDays: 7 };
  const lessonOf = (id: string, index: number, releases: Release[]): OutlineLesson => ({
    id,
    title: id,
    slug: id,
    moduleId: 'week-two',
    sectionId: null,
    free: index === 0,
    index,
    releases,
  });
  const outline = (lessons: OutlineLesson[]): CourseOutline => ({
    id: 'course',
    title: 'Course',
    slug: 'course',
    modules: [
      {
        id: 'week-two',
        title: 'Week two',
        slug: null,
        lessonIds: lessons.map((l) => l.id),
        sections: [],
        release: week,
      },
    ],
    lessons,
  });

  it("lands a module's email on its first lesson that opens with it, not on one still waiting for its own day", () => {
    const released = releasedIn(
      outline([lessonOf('live-call', 0, [week, { afterDays: 10 }]), lessonOf('reading', 1, [week])]),
    );
    expect(released.map((r) => [r.what, r.contentId, r.lesson.id])).toEqual([
      ['module', 'week-two', 'reading'],
      ['lesson', 'live-call', 'live-call'],
    ]);
  });

  it("lands on the module's first lesson when every lesson waits longer than the module", () => {
    const released = releasedIn(outline([lessonOf('a', 0, [week, { afterDays: 9 }])]));
    expect(released[0]!.lesson.id).toBe('a');
  });
});
