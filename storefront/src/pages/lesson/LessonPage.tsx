import { useMemo, useState } from 'react';
import { FieldAlert } from '../../ActionFeedback';
import { isApiError } from '../../api/client';
import {
  coursePath,
  getCourse,
  getLesson,
  lessonPath,
  setBookmarked,
  setLessonCompleted,
  type CourseView,
  type LessonView,
  type ProgressAnswer,
} from '../../api/learning';
import { AccessNotice } from '../../learning/AccessNotice';
import { ScheduledLesson } from '../../learning/drip/OpensOn';
import { isComplete, withLessonCompleted } from '../../learning/outlineProgress';
import { LoadStatus } from '../../LoadStatus';
import { loginPath } from '../../redirects';
import { Link, useLocation, useParams } from 'wouter';
import { useSchool } from '../../school';
import { useSession } from '../../session';
import { useAsync } from '../../useAsync';
import { useHead } from '../../head';
import { lessonHead } from '../../seo';
import { NotFoundPage } from '../NotFoundPage';
import { Comments } from './Comments';
import { CourseFinished } from './CourseFinished';
import { withoutRepeatedTitle } from './lessonBody';
import { LessonKindPart } from './lesson-kinds';
import { FreePreviewNote } from './FreePreviewNote';
import { LessonOutline } from './LessonOutline';
import { LessonVideo } from './VideoPlayer';
import { LessonDownloads } from './downloads/Downloads';

/**
 * /courses/:course/lessons/:lesson: the lesson to study (or why it is locked) beside the course's outline, progress,
 * bookmark, previous and next, discussion, and the "you finished the course" moment.
 */
export function LessonPage() {
  const { course = '', lesson = '' } = useParams();
  const view = useAsync(() => getLesson(course, lesson), [course, lesson]);
  // The outline with this learner's progress, asked for at the same time as the lesson.
  const outline = useAsync(() => getCourse(course), [course]);
  const notFound = view.status === 'error' && isApiError(view.error, 'not-found', 'validation-failed');
  const school = useSchool();
  // A lesson only some may read is rendered as a visitor sees it: its title and how to get it, kept out of search
  // indexes (its body is not in it). Whoever may read it gets it in the browser, which asks again once signed in.
  useHead(
    notFound
      ? {}
      : view.status === 'ready'
        ? { ...lessonHead(view.data, school.name), noindex: !view.data.open, visitorsOnly: !view.data.open }
        : { title: 'Lesson' },
  );
  if (notFound) {
    return (
      <NotFoundPage title="Lesson not found">
        This lesson does not exist or is not published.{' '}
        <Link to={`/courses/${encodeURIComponent(course)}`}>See the course</Link>, or
      </NotFoundPage>
    );
  }
  if (view.status !== 'ready') {
    return (
      <section>
        <h1>Lesson</h1>
        <LoadStatus state={view} retry={view.retry} what="the lesson" />
      </section>
    );
  }
  return (
    <Lesson
      key={`${view.data.lesson.id}:${view.data.completed}:${view.data.bookmarked}`}
      view={view.data}
      outline={outline.status === 'ready' ? outline.data : null}
    />
  );
}

function Lesson({ view, outline }: { view: LessonView; outline: CourseView | null }) {
  const { course, module, section, lesson } = view;
  const { state } = useSession();
  const signedIn = state.status === 'signed-in';
  const [completed, setCompleted] = useState(view.completed);
  const [finished, setFinished] = useState<ProgressAnswer | null>(null);
  const body = useMemo(() => view.body && withoutRepeatedTitle(view.body, lesson.title), [view.body, lesson.title]);
  const courseKey = course.slug ?? course.id;

  /** The Complete button's answer, or the video's when watching it completed the lesson. */
  function onSaved(answer: ProgressAnswer) {
    setCompleted(answer.completed);
    // This lesson was the last one left: the course is complete.
    setFinished(answer.completed && isComplete(answer.course.progress) ? answer : null);
  }

  return (
    <div className="lesson-layout">
      {outline ? (
        <LessonOutline
          view={withLessonCompleted(outline, lesson.id, completed)}
          currentId={lesson.id}
          signedIn={signedIn}
        />
      ) : (
        // The outline is on its way (or failed: the lesson still reads); its column keeps its place meanwhile.
        <div className="lesson-outline-placeholder" />
      )}
      <article className="lesson-page">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <ol>
            <li>
              <Link to={coursePath(course)}>{course.title}</Link>
            </li>
            <li>{module.title}</li>
            {section && <li>{section.title}</li>}
          </ol>
        </nav>
        <h1>{lesson.title}</h1>
        {view.open && body !== null ? (
          <>
            {signedIn ? <BookmarkToggle view={view} /> : <SignInToTrack />}
            {view.video && (
              <LessonVideo
                // The page may come as a visitor's (a free lesson, rendered on the server), then as the learner's,
                // with their place in the video: the player starts again from there.
                key={view.video.positionSeconds}
                video={view.video}
                lessonId={lesson.id}
                course={courseKey}
                signedIn={signedIn}
                reload={async () => (await getLesson(courseKey, lesson.id)).video}
                onCompleted={onSaved}
                nextPath={view.next && lessonPath(course, view.next)}
              />
            )}
            {/* The body is rich text sanitized by the API (api/src/learning/sanitize.ts: no scripts, no event handlers, no
                javascript: links), so it can be rendered as HTML. */}
            <div className="lesson-body" dangerouslySetInnerHTML={{ __html: body }} />
            <LessonDownloads lessonId={lesson.id} course={courseKey} />
            {view.content && (
              <LessonKindPart
                content={view.content}
                context={{ lessonId: lesson.id, course: courseKey, onCompleted: onSaved }}
              />
            )}
            {signedIn &&
              (view.content?.kind === 'quiz' ? (
                // A quiz lesson is completed by passing its quiz, never by hand (docs/domain.md §11).
                completed && (
                  <div className="lesson-complete">
                    <span className="complete-badge">Completed</span>
                  </div>
                )
              ) : (
                <CompleteToggle view={view} completed={completed} onSaved={onSaved} />
              ))}
            {lesson.free && outline && <FreePreviewNote outline={outline} />}
          </>
        ) : (
          <LockedLesson view={view} />
        )}
        {/* Always in the page, so screen readers announce the moment when it fills. */}
        <div role="status" className="course-finished-status">
          {finished && <CourseFinished course={finished.course} certificate={finished.certificate} />}
        </div>
        <LessonPager view={view} />
        {view.open && <Comments lessonId={lesson.id} />}
      </article>
    </div>
  );
}

function SignInToTrack() {
  const [pathname] = useLocation();
  return (
    <p className="hint lesson-hint">
      <Link to={loginPath(pathname)}>Sign in</Link> to keep track of the lessons you complete and to bookmark lessons.
    </p>
  );
}

/** The course's products are needed to say what to buy; the lesson answer does not carry them. */
function LockedLesson({ view }: { view: LessonView }) {
  const products = useAsync(
    async () => (await getCourse(view.course.slug ?? view.course.id)).products,
    [view.course.id],
  );
  // The lesson is theirs (or a free preview) but released later: when it opens, rather than how to buy it.
  if (view.opens) return <ScheduledLesson opens={view.opens} coursePath={coursePath(view.course)} />;
  if (!view.lock) return null;
  if (products.status !== 'ready')
    return <LoadStatus state={products} retry={products.retry} what="how to get access" />;
  return <AccessNotice lock={view.lock} products={products.data} what="lesson" />;
}

/** "Mark complete" / "Mark incomplete"; says what it did, with the module's progress. */
function CompleteToggle({
  view,
  completed,
  onSaved,
}: {
  view: LessonView;
  completed: boolean;
  onSaved: (answer: ProgressAnswer) => void;
}) {
  const { refresh } = useSession();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  async function toggle() {
    if (pending) return;
    const next = !completed;
    setPending(true);
    setMessage(null);
    try {
      const answer = await setLessonCompleted(view.lesson.id, next, view.course.slug ?? view.course.id);
      onSaved(answer);
      const { completed: done, total } = answer.module;
      setMessage({
        text: `${answer.completed ? 'Marked complete.' : 'Marked not complete.'} ${view.module.title}: ${done} of ${total} ${total === 1 ? 'lesson' : 'lessons'} done.`,
        error: false,
      });
    } catch (error) {
      if (isApiError(error, 'unauthenticated')) refresh();
      setMessage({
        text: isApiError(error, 'lesson-locked')
          ? 'This lesson is no longer open to you, so its progress cannot change. Reload the page to see why.'
          : `Could not save your progress: ${(error as Error).message}`,
        error: true,
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="lesson-complete">
      {/* aria-disabled, not disabled: the button keeps the keyboard focus while the request runs. */}
      <button
        type="button"
        className={completed ? 'button-quiet' : undefined}
        onClick={toggle}
        aria-disabled={pending || undefined}
        aria-describedby="complete-message"
      >
        {pending ? 'Saving…' : completed ? 'Mark incomplete' : 'Mark complete'}
      </button>
      {completed && !pending && <span className="complete-badge">Completed</span>}
      <p id="complete-message" role="status" className="hint">
        {message && !message.error ? message.text : ''}
      </p>
      <FieldAlert error={message?.error ? message.text : null} />
    </div>
  );
}

/** A toggle button (aria-pressed) that keeps the lesson in Bookmarks. */
function BookmarkToggle({ view }: { view: LessonView }) {
  const { refresh } = useSession();
  const [bookmarked, setState] = useState(view.bookmarked);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  async function toggle() {
    if (pending) return;
    const next = !bookmarked;
    setPending(true);
    setMessage(null);
    try {
      await setBookmarked(view.lesson.id, next, { slug: view.course.slug, title: view.course.title });
      setState(next);
      setMessage({ text: next ? 'Saved in your bookmarks.' : 'Removed from your bookmarks.', error: false });
    } catch (error) {
      if (isApiError(error, 'unauthenticated')) refresh();
      setMessage({ text: `Could not change the bookmark: ${(error as Error).message}`, error: true });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="lesson-toolbar">
      <button
        type="button"
        className="button-quiet bookmark-toggle"
        aria-pressed={bookmarked}
        aria-disabled={pending || undefined}
        onClick={toggle}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path
            d="M8 1.5l1.9 4 4.4.5-3.3 3 .9 4.3L8 11.1l-3.9 2.2.9-4.3-3.3-3 4.4-.5z"
            fill={bookmarked ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth="1.3"
            strokeLinejoin="round"
          />
        </svg>
        Bookmark
      </button>
      <span role="status" className="hint">
        {message && !message.error && (
          <>
            {message.text} {bookmarked && <Link to="/bookmarks">See your bookmarks</Link>}
          </>
        )}
      </span>
      {message?.error && (
        <span role="alert" className="field-error">
          {message.text}
        </span>
      )}
    </div>
  );
}

function LessonPager({ view }: { view: LessonView }) {
  if (!view.previous && !view.next) return null;
  return (
    <nav aria-label="Previous and next lesson" className="lesson-pager">
      {view.previous ? (
        <Link to={lessonPath(view.course, view.previous)} rel="prev" className="pager-link">
          <span className="pager-label">
            <span aria-hidden="true">← </span>Previous lesson
          </span>
          <span className="visually-hidden">: </span>
          <span className="pager-title">{view.previous.title}</span>
        </Link>
      ) : (
        <span />
      )}
      {view.next && (
        <Link to={lessonPath(view.course, view.next)} rel="next" className="pager-link pager-next">
          <span className="pager-label">
            Next lesson<span aria-hidden="true"> →</span>
          </span>
          <span className="visually-hidden">: </span>
          <span className="pager-title">{view.next.title}</span>
        </Link>
      )}
    </nav>
  );
}
