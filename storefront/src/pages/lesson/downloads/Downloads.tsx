import { useEffect, useId, useState, type MouseEvent } from 'react';
import { getAttachments, type AttachmentLink } from '../../../api/attachments';
import { ApiError } from '../../../api/client';
import { RetryAlert } from '../../../LoadStatus';
import { useAsync } from '../../../useAsync';
import './downloads.css';

/** A link is renewed this long before it ends: a click is not a race with its expiry. */
const RENEW_BEFORE_MS = 30_000;

const KB = 1024;
const MB = 1024 * KB;
const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** "3 KB", "12.5 MB". */
function sizeOf(bytes: number): string {
  return bytes >= MB ? `${oneDecimal.format(bytes / MB)} MB` : `${Math.max(1, Math.ceil(bytes / KB))} KB`;
}

/** What a file is, in a word, from its name's extension: "PDF", "ZIP", "TS". */
const kindOf = (fileName: string) => /\.([^.]+)$/.exec(fileName)?.[1]?.toUpperCase() ?? 'File';

/** A refusal (the lesson is not open to this reader) shows nothing; anything else is a failure to say. */
const refused = (error: Error) => error instanceof ApiError && [401, 403, 404].includes(error.status);

/**
 * The lesson's files, for a reader who may open it (the API refuses anyone else, and nothing shows); a list that
 * could not be loaded says so with Try again, since the lesson may well have files. Each link is
 * signed for this reader and works for minutes: one clicked after it ended is renewed first, then followed.
 */
export function LessonDownloads({ lessonId, course }: { lessonId: string; course: string }) {
  const loaded = useAsync(() => getAttachments(lessonId, course), [lessonId, course]);
  const [files, setFiles] = useState<AttachmentLink[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();
  useEffect(() => {
    if (loaded.status === 'ready') setFiles(loaded.data);
  }, [loaded]);

  if (!files?.length) {
    if (loaded.status !== 'error' || refused(loaded.error)) return null;
    return (
      <section className="lesson-downloads" aria-labelledby={headingId}>
        <h2 id={headingId}>Downloads</h2>
        <RetryAlert text={`We could not load the lesson's files: ${loaded.error.message}`} retry={loaded.retry} />
      </section>
    );
  }

  async function follow(event: MouseEvent<HTMLAnchorElement>, file: AttachmentLink) {
    if (Date.parse(file.expiresAt) - Date.now() > RENEW_BEFORE_MS) return; // the browser downloads it
    event.preventDefault();
    try {
      const renewed = await getAttachments(lessonId, course);
      setFiles(renewed);
      setProblem(null);
      const again = renewed.find((f) => f.id === file.id);
      if (again) window.location.assign(again.url);
      else setProblem(`${file.fileName} is no longer attached to this lesson.`);
    } catch {
      setProblem('The download could not start: reload the page and try again.');
    }
  }

  return (
    <section className="lesson-downloads" aria-labelledby={headingId}>
      <h2 id={headingId}>Downloads</h2>
      <ul>
        {files.map((file) => (
          <li key={file.id}>
            <a href={file.url} download={file.fileName} onClick={(event) => void follow(event, file)} dir="auto">
              {file.fileName}
            </a>
            <span className="hint">
              {kindOf(file.fileName)}, {sizeOf(file.sizeBytes)}
            </span>
          </li>
        ))}
      </ul>
      {problem ? (
        <p role="alert" className="notice notice-error">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
