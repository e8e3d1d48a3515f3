import { listProducts } from '../../api/catalog';
import { isApiError } from '../../api/client';
import { getCourse, lessonPath, type CourseView, type LessonItem } from '../../api/learning';
import { AccessNotice } from '../../learning/AccessNotice';
import { LessonStatus } from '../../learning/LessonStatus';
import { OpensOnBadge } from '../../learning/drip/OpensOn';
import { isComplete, lessonsInOrder } from '../../learning/outlineProgress';
import { ProgressBar } from '../../learning/ProgressBar';
import { LoadStatus } from '../../LoadStatus';
import { Link, useParams } from 'wouter';
import { useSchool } from '../../school';
import { useSession } from '../../session';
import { useAsync } from '../../useAsync';
import { useHead } from '../../head';
import { courseHead } from '../../seo';
import { courseMinutes } from '../lesson/courseMinutes';
import { NotFoundPage } from '../NotFoundPage';
import { formatMinutes } from '../product/salesText';

/**
 * /courses/:course: the outline with progress, each lesson's minutes and the minutes left, where to continue, and
 * how to get access when it is locked.
 */
export function CoursePage() {
  const { course: slug = '' } = useParams();
  const { state } = useSession();
  const course = useAsync(() => getCourse(slug), [slug]);
  const school = useSchool();
  // The prices of the products that grant it, for its structured data's offers.
  const catalog = useAsync(listProducts);
  const notFound = course.status === 'error' && isApiError(course.error, 'not-found', 'validation-failed');
  useHead(
    notFound
      ? {}
      : course.status === 'ready'
        ? courseHead(course.data, catalog.status === 'ready' ? catalog.data : [], school.name)
        : { title: 'Course' },
  );
  if (notFound) {
    return <NotFoundPage title="Course not found">This course does not exist or is not published.</NotFoundPage>;
  }
  if (course.status !== 'ready') {
    return (
      <section>
        <h1>Course</h1>
        <LoadStatus state={course} retry={course.retry} what="the course" />
      </section>
    );
  }
  return <CourseOutline view={course.data} signedIn={state.status === 'signed-in'} />;
}

function CourseOutline({ view, signedIn }: { view: CourseView; signedIn: boolean }) {
  const { course, access, progress, modules } = view;
  const showProgress = signedIn && (access.full || progress.completed > 0);
  const minutes = courseMinutes(view, showProgress);
  return (
    <article className="course-page">
      <header className="course-header">
        <h1>{course.title}</h1>
        {course.description && <p className="course-description">{course.description}</p>}
        {showProgress && <ProgressBar progress={progress} label="Course progress" />}
        {minutes && <p className="hint course-minutes">{minutes}</p>}
        <ContinueLink view={view} signedIn={signedIn} />
      </header>
      {!access.full && <AccessNotice lock={access} products={view.products} what="course" />}
      <section aria-labelledby="outline-heading" className="outline">
        <h2 id="outline-heading">Lessons</h2>
        {modules.length === 0 && <p className="empty">No lessons are published yet.</p>}
        {modules.map((module) => (
          <section key={module.id} className="outline-module" aria-labelledby={`module-${module.id}`}>
            <div className="outline-head">
              <h3 id={`module-${module.id}`}>{module.title}</h3>
              {showProgress && <ProgressBar progress={module.progress} label={`Progress in ${module.title}`} />}
            </div>
            {module.opens && (
              <p className="module-opens">
                <OpensOnBadge opens={module.opens} />
              </p>
            )}
            <LessonList course={course} lessons={module.lessons} />
            {module.sections.map((section) => (
              <section key={section.id} className="outline-section" aria-labelledby={`section-${section.id}`}>
                <div className="outline-head">
                  <h4 id={`section-${section.id}`}>{section.title}</h4>
                  {showProgress && <ProgressBar progress={section.progress} label={`Progress in ${section.title}`} />}
                </div>
                <LessonList course={course} lessons={section.lessons} />
              </section>
            ))}
          </section>
        ))}
      </section>
    </article>
  );
}

/** "Continue where you left off" (or "Start the course"), or that every lesson is done. */
function ContinueLink({ view, signedIn }: { view: CourseView; signedIn: boolean }) {
  const { course, progress } = view;
  if (view.continue) {
    const started = progress.completed > 0;
    return (
      <p className="continue">
        <Link
          className="button-link button-continue"
          to={lessonPath(course, view.continue)}
          aria-describedby="continue-lesson"
        >
          {started ? 'Continue where you left off' : 'Start the course'}
        </Link>{' '}
        <span id="continue-lesson" className="hint">
          {started ? 'Next up' : 'First lesson'}: {view.continue.title}
        </span>
      </p>
    );
  }
  if (signedIn && isComplete(progress)) {
    return (
      <p className="continue notice notice-info course-complete">
        <span className="badge badge-complete">Course complete</span> You have completed every lesson of this course.
        Well done!
      </p>
    );
  }
  const first = lessonsInOrder(view).find((l) => l.open);
  if (!first) return null;
  return (
    <p className="continue">
      <Link className="button-link button-link-quiet" to={lessonPath(course, first)}>
        {first.free ? 'Try a free lesson' : 'Start the course'}
      </Link>
    </p>
  );
}

function LessonList({ course, lessons }: { course: CourseView['course']; lessons: LessonItem[] }) {
  if (lessons.length === 0) return null;
  return (
    <ol className="lesson-list">
      {lessons.map((lesson) => (
        <li key={lesson.id} className={lesson.completed ? 'lesson-done' : undefined}>
          <LessonStatus lesson={lesson} />
          <Link to={lessonPath(course, lesson)}>{lesson.title}</Link>
          {lesson.free && <span className="badge">Free</span>}
          {lesson.opens && <OpensOnBadge opens={lesson.opens} />}
          {lesson.durationMinutes !== null && (
            <span className="lesson-minutes">{formatMinutes(lesson.durationMinutes)}</span>
          )}
        </li>
      ))}
    </ol>
  );
}
