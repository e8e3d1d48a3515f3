import type { LessonItem } from '../api/learning';

const ICONS = {
  done: (
    <path
      d="M3.5 8.5l3 3 6-7"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  ),
  open: <circle cx="8" cy="8" r="5.5" fill="none" stroke="currentColor" strokeWidth="1.5" />,
  locked: (
    <>
      <rect x="3" y="7" width="10" height="7" rx="1.5" fill="currentColor" />
      <path d="M5.5 7V5a2.5 2.5 0 015 0v2" fill="none" stroke="currentColor" strokeWidth="1.5" />
    </>
  ),
};

/** A lesson's state as an icon, with the same in words for screen readers (and as a tooltip). */
export function LessonStatus({ lesson }: { lesson: Pick<LessonItem, 'open' | 'completed'> }) {
  const [kind, text] = lesson.completed
    ? (['done', 'Completed'] as const)
    : lesson.open
      ? (['open', 'Not completed yet'] as const)
      : (['locked', 'Locked'] as const);
  return (
    <span className={`lesson-status lesson-status-${kind}`} title={text}>
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        {ICONS[kind]}
      </svg>
      <span className="visually-hidden">{text}:</span>
    </span>
  );
}
