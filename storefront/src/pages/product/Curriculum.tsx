import { Link } from 'wouter';
import type { CurriculumCourse, CurriculumLesson } from '../../api/catalog';
import { coursePath, lessonPath } from '../../api/learning';
import { formatMinutes } from './salesText';
import { courseLength } from '../../../../api/src/shared/course-length';
import { plural } from '../../../../api/src/shared/words';

/**
 * What the product teaches: each granted course's modules and lessons with their lengths, free previews marked and
 * openable (their lesson pages are readable signed out). Modules fold (<details>): the first one starts open.
 */
export function Curriculum({ courses }: { courses: CurriculumCourse[] }) {
  const lessons = courses.reduce((sum, c) => sum + c.lessonCount, 0);
  if (lessons === 0) return null;
  const modules = courses.reduce((sum, c) => sum + c.modules.length, 0);
  // A length only when every course has one (shared/course-length.ts): otherwise the lessons' count says it.
  const minutes = courseLength(courses.map((c) => c.durationMinutes));
  const free = courses.reduce((sum, c) => sum + c.freeLessonCount, 0);
  const summary = [
    courses.length > 1 ? plural(courses.length, 'course') : null,
    plural(modules, 'module'),
    plural(lessons, 'lesson'),
    minutes ? formatMinutes(minutes) : null,
    free > 0 ? plural(free, 'free preview') : null,
  ].filter(Boolean);
  return (
    <section className="sales-section curriculum" aria-labelledby="curriculum-heading">
      <h2 id="curriculum-heading">Curriculum</h2>
      <p className="curriculum-summary">{summary.join(' · ')}</p>
      {courses.map((course, c) => (
        <CourseCurriculum key={course.id} course={course} titled={courses.length > 1} openFirst={c === 0} />
      ))}
    </section>
  );
}

function CourseCurriculum({
  course,
  titled,
  openFirst,
}: {
  course: CurriculumCourse;
  titled: boolean;
  openFirst: boolean;
}) {
  return (
    <div className="curriculum-course">
      {titled && (
        <div className="curriculum-course-head">
          <h3>{course.title}</h3>
          <p className="hint">
            {plural(course.lessonCount, 'lesson')}
            {course.durationMinutes ? ` · ${formatMinutes(course.durationMinutes)}` : null}
          </p>
        </div>
      )}
      <ol className="curriculum-modules">
        {course.modules.map((module, m) => (
          <li key={module.id}>
            <details className="curriculum-module" open={openFirst && m === 0}>
              <summary>
                <span className="curriculum-module-title">{module.title}</span>
                <span className="curriculum-meta">
                  {plural(module.lessonCount, 'lesson')}
                  {module.durationMinutes ? ` · ${formatMinutes(module.durationMinutes)}` : null}
                </span>
              </summary>
              {module.lessons.length > 0 && <LessonList course={course} lessons={module.lessons} />}
              {module.sections.map((section) => (
                <div key={section.id} className="curriculum-section">
                  <p className="curriculum-section-title">{section.title}</p>
                  <LessonList course={course} lessons={section.lessons} />
                </div>
              ))}
            </details>
          </li>
        ))}
      </ol>
      {/* Its outline page: free lessons open to everyone, the rest to those who hold it. */}
      <p className="curriculum-outline-link">
        <Link to={coursePath(course)}>{titled ? `Go to ${course.title}` : 'Go to the course'}</Link>
      </p>
    </div>
  );
}

function LessonList({ course, lessons }: { course: CurriculumCourse; lessons: CurriculumLesson[] }) {
  return (
    <ol className="curriculum-lessons">
      {lessons.map((lesson) => (
        <li key={lesson.id} className={lesson.free ? 'curriculum-lesson is-free' : 'curriculum-lesson'}>
          <span className="curriculum-lesson-icon" aria-hidden="true">
            {lesson.free ? '▶' : '•'}
          </span>
          <span className="curriculum-lesson-title">
            {lesson.free ? (
              <>
                <Link to={lessonPath(course, lesson)}>{lesson.title}</Link>{' '}
                <span className="badge badge-free">Free preview</span>
              </>
            ) : (
              lesson.title
            )}
          </span>
          {lesson.durationMinutes !== null && (
            <span className="curriculum-lesson-duration">{formatMinutes(lesson.durationMinutes)}</span>
          )}
        </li>
      ))}
    </ol>
  );
}
