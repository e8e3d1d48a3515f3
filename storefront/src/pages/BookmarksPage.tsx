import { useRef, useState } from 'react';
import { lessonPath, listBookmarks, setBookmarked, type Bookmark } from '../api/learning';
import { formatDate } from '../format';
import { LoadStatus } from '../LoadStatus';
import { RequireSignIn } from '../RequireSignIn';
import { Link } from 'wouter';
import { useDocumentTitle } from '../useDocumentTitle';
import { FieldAlert } from '../ActionFeedback';
import { useAccountAsync } from '../useAccountAsync';

/** /bookmarks: the lessons the learner kept, newest first. */
export function BookmarksPage() {
  return <RequireSignIn>{() => <Bookmarks />}</RequireSignIn>;
}

function Bookmarks() {
  const bookmarks = useAccountAsync(listBookmarks);
  const [removedIds, setRemovedIds] = useState<string[]>([]);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useDocumentTitle('Bookmarks');

  const shown = bookmarks.status === 'ready' ? bookmarks.data.filter((b) => !removedIds.includes(b.id)) : [];
  function removed(bookmark: Bookmark) {
    setRemovedIds((ids) => [...ids, bookmark.id]);
    setAnnouncement(`Removed “${bookmark.lesson.title}” from your bookmarks.`);
    headingRef.current?.focus(); // the pressed button went with its row
  }

  return (
    <section>
      <h1 ref={headingRef} tabIndex={-1}>
        Bookmarks
      </h1>
      <p role="status" className="hint">
        {announcement}
      </p>
      <LoadStatus state={bookmarks} retry={bookmarks.retry} what="your bookmarks" />
      {bookmarks.status === 'ready' && shown.length === 0 && (
        <p className="empty">
          No bookmarks yet. Use the Bookmark button on a lesson to keep it here.{' '}
          <Link to="/learning">Go to my courses</Link>
        </p>
      )}
      {shown.length > 0 && (
        <ul className="bookmark-list">
          {shown.map((bookmark) => (
            <BookmarkItem key={bookmark.id} bookmark={bookmark} onRemoved={removed} />
          ))}
        </ul>
      )}
    </section>
  );
}

function BookmarkItem({ bookmark, onRemoved }: { bookmark: Bookmark; onRemoved: (bookmark: Bookmark) => void }) {
  const { lesson, course } = bookmark;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = `bookmark-${bookmark.id}`;

  async function handleRemove() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await setBookmarked(lesson.id, false, { slug: course?.slug ?? null, title: course?.title ?? '' });
      onRemoved(bookmark);
    } catch (caught) {
      setError(`Could not remove the bookmark: ${(caught as Error).message}`);
      setBusy(false);
    }
  }

  return (
    <li className="bookmark">
      <div>
        <h2 id={titleId}>
          {course?.slug ? (
            <Link to={lessonPath({ id: course.slug, slug: course.slug }, lesson)}>{lesson.title}</Link>
          ) : (
            lesson.title
          )}
        </h2>
        <p className="hint">
          {course?.title ? `${course.title} · ` : ''}Bookmarked{' '}
          <time dateTime={bookmark.createdAt}>{formatDate(bookmark.createdAt)}</time>
        </p>
      </div>
      <button
        type="button"
        className="button-quiet"
        onClick={handleRemove}
        aria-disabled={busy || undefined}
        aria-describedby={titleId}
      >
        {busy ? 'Removing…' : 'Remove'}
      </button>
      <FieldAlert error={error} />
    </li>
  );
}
