import { useState } from 'react';
import { Link } from 'wouter';
import { coursePath, lessonPath, type CourseView, type LessonItem } from '../../api/learning';
import { LessonStatus } from '../../learning/LessonStatus';
import { lessonsInOrder } from '../../learning/outlineProgress';
import { ProgressBar } from '../../learning/ProgressBar';
import { formatMinutes } from '../product/salesText';
import { courseMinutes } from './courseMinutes';

/**
 * The course's modules and lessons beside the lesson (styles.css: a sidebar from 1024 px, above the lesson and
 * folded on narrower screens): each lesson done, open or locked, the free ones marked, its minutes, the one shown as
 * the current page, and the learner's progress in the course with the minutes left.
 */
export function LessonOutline({
  view,
  currentId,
  signedIn,
}: {
  view: CourseView;
  currentId: string;
  signedIn: boolean;
}) {
  const [open, setOpen] = useState(false);
  const { course, progress, access } = view;
  const lessons = lessonsInOrder(view);
  const position = lessons.findIndex((l) => l.id === currentId) + 1;
  // As on the course page: progress for learners who may study it, or who already did.
  const showProgress = signedIn && (access.full || progress.completed > 0);
  const minutes = courseMinutes(view, showProgress);

  const list = (items: LessonItem[]) => (
    <ol className="outline-lessons">
      {items.map((lesson) => {
        const current = lesson.id === currentId;
        return (
          <li key={lesson.id} className={current ? 'outline-lesson is-current' : 'outline-lesson'}>
            <LessonStatus lesson={lesson} />
            <Link to={lessonPath(course, lesson)} aria-current={current ? 'page' : undefined}>
              {lesson.title}
            </Link>
            {lesson.free && !access.full && <span className="badge">Free</span>}
            {lesson.durationMinutes !== null && (
              <span className="outline-minutes">{formatMinutes(lesson.durationMinutes)}</span>
            )}
          </li>
        );
      })}
    </ol>
  );

  return (
    <nav aria-label="Course outline" className="lesson-outline">
      <div className="lesson-outline-head">
        <p className="outline-course">
          <Link to={coursePath(course)}>{course.title}</Link>
        </p>
        {position > 0 && (
          <p className="hint outline-position">
            Lesson {position} of {lessons.length}
            {minutes && ` · ${minutes}`}
          </p>
        )}
        {showProgress && <ProgressBar progress={progress} label="Course progress" />}
        {/* Only on narrow screens (styles.css); from 1024 px the lessons always show. */}
        <button
          type="button"
          className="button-quiet outline-toggle"
          aria-expanded={open}
          aria-controls="outline-modules"
          onClick={() => setOpen(!open)}
        >
          All lessons
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path
              d={open ? 'M3.5 10l4.5-4.5 4.5 4.5' : 'M3.5 6l4.5 4.5 4.5-4.5'}
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
      </div>
      <ol id="outline-modules" className="outline-modules" hidden={!open}>
        {view.modules.map((module) => (
          <li key={module.id}>
            <p className="outline-module-title">
              <span>{module.title}</span>
              {showProgress && (
                <span className="hint">
                  {module.progress.completed}/{module.progress.total}
                  <span className="visually-hidden"> done</span>
                </span>
              )}
            </p>
            {module.lessons.length > 0 && list(module.lessons)}
            {module.sections.map((section) => (
              <div key={section.id} className="outline-section-lessons">
                <p className="outline-section-title">{section.title}</p>
                {list(section.lessons)}
              </div>
            ))}
          </li>
        ))}
      </ol>
    </nav>
  );
}
