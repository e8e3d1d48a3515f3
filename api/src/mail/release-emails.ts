import type { NewEmail } from './outbox';
import { escapeHtml } from '../shared/escape-html';

export interface ReleasedContent {
  courseTitle: string;
  /** The module or lesson that opened. */
  title: string;
  what: 'module' | 'lesson';
  /** The lesson page it opens on (a module's first lesson). */
  lessonUrl: string;
}

/** A module or lesson released on a schedule has opened for the reader (docs/domain.md §11): what, and where to start. */
export function releaseOpenedEmail(to: string, release: ReleasedContent): NewEmail {
  const headline =
    release.what === 'module'
      ? `A new module of ${release.courseTitle} is open: ${release.title}`
      : `A new lesson of ${release.courseTitle} is open: ${release.title}`;
  const start = release.what === 'module' ? 'Start the module' : 'Open the lesson';
  const text = [`${headline}.`, `${start}: ${release.lessonUrl}`].join('\n\n');
  const html =
    `<p>${escapeHtml(headline)}.</p>` + `<p><a href="${escapeHtml(release.lessonUrl)}">${escapeHtml(start)}</a></p>`;
  return {
    kind: 'release-opened',
    to,
    subject: `Now open: ${release.title} (${release.courseTitle})`,
    text: `${text}\n`,
    html,
  };
}
