import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { isApiError } from '../../api/client';
import { deleteComment, editComment, listComments, postComment, type LessonComment } from '../../api/learning';
import { formatDateTime, formatWait } from '../../format';
import { useReaderClock } from '../../readerClock';
import { LoadStatus } from '../../LoadStatus';
import { loginPath } from '../../redirects';
import { Link, useLocation } from 'wouter';
import { useSession } from '../../session';
import { useAction } from '../../useAction';
import { useAsync } from '../../useAsync';
import { FieldAlert } from '../../ActionFeedback';
import { MAX_COMMENT_LENGTH } from '../../../../api/src/shared/comments';
import { shownName } from '../../../../api/src/shared/shown-name';

// Written when first needed, not as the page's code loads: Intl's first number format costs a phone some 40 ms,
// and a visitor who is not signed in never sees the limit.
const limit = () => MAX_COMMENT_LENGTH.toLocaleString('en-US');

/** Why a comment cannot be sent as written, or null. */
function problemWith(text: string): string | null {
  if (text.trim().length === 0) return 'Write something first.';
  if (text.length > MAX_COMMENT_LENGTH) return `A comment can be at most ${limit()} characters. Shorten it a little.`;
  return null;
}

const messageOf = (error: unknown) =>
  isApiError(error, 'rate-limited')
    ? `You have posted a lot in the last minute. Wait ${formatWait(error.retryAfterSeconds)}, then post again: your text is still here.`
    : isApiError(error)
      ? error.body.errors?.text
        ? `Text ${error.body.errors.text}.`
        : error.message
      : 'Something went wrong. Try again.';

/** The lesson's discussion: everyone who may open the lesson reads it; signed-in learners write, edit and delete their own. */
export function Comments({ lessonId }: { lessonId: string }) {
  const { state } = useSession();
  const comments = useAsync(() => listComments(lessonId), [lessonId]);
  const [items, setItems] = useState<LessonComment[] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = items ?? (comments.status === 'ready' ? comments.data : null);
  const linked = useLinkedComment(shown !== null);

  const replace = (comment: LessonComment) => setItems((shown ?? []).map((c) => (c.id === comment.id ? comment : c)));
  function removed(id: string) {
    // Its replies go with it (the API deletes them too).
    setItems((shown ?? []).filter((c) => c.id !== id && c.parentId !== id));
    setAnnouncement('Comment deleted.');
    headingRef.current?.focus(); // its buttons are gone
  }
  function replied(reply: LessonComment) {
    setItems([...(shown ?? []), reply]);
    setAnnouncement('Your reply is posted.');
  }
  const signedIn = state.status === 'signed-in';
  const threads = (shown ?? []).filter((c) => !c.parentId);

  return (
    <section className="comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading" ref={headingRef} tabIndex={-1}>
        Comments{shown && shown.length > 0 ? ` (${shown.length})` : ''}
      </h2>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {!shown && <LoadStatus state={comments} retry={comments.retry} what="the comments" />}
      {shown && shown.length === 0 && <p className="empty">No comments yet. Ask a question or share a tip.</p>}
      {shown && shown.length > 0 && (
        <ol className="comment-list">
          {threads.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              linked={linked}
              onChanged={replace}
              onDeleted={removed}
              reply={signedIn ? (text) => postComment(lessonId, text, comment.id).then(replied) : null}
            >
              <Replies replies={shown.filter((c) => c.parentId === comment.id)}>
                {(reply) => (
                  <CommentItem key={reply.id} comment={reply} linked={linked} onChanged={replace} onDeleted={removed} />
                )}
              </Replies>
            </CommentItem>
          ))}
        </ol>
      )}
      {state.status === 'signed-in' ? (
        shown && (
          <>
            <p className="hint comment-as">
              Your comments show as <strong>{shownName(state.user)}</strong>.{' '}
              <Link to="/settings">Change your display name</Link>
            </p>
            <NewComment
              lessonId={lessonId}
              onPosted={(comment) => {
                setItems([...shown, comment]);
                setAnnouncement('Your comment is posted.');
              }}
            />
          </>
        )
      ) : (
        <SignInToComment />
      )}
    </section>
  );
}

/**
 * The comment the address names (`#comment-<id>`: a reply email's link), brought into view and focused once the
 * thread has loaded (the browser's own jump to it happens before the comments exist). Its id, or null.
 */
function useLinkedComment(loaded: boolean): string | null {
  const [linked, setLinked] = useState<string | null>(null);
  // Read after the page is up (the server's render has no address fragment), and again when it changes.
  useEffect(() => {
    const read = () => setLinked(/^#comment-([0-9a-f-]{36})$/i.exec(window.location.hash)?.[1] ?? null);
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  useEffect(() => {
    if (!loaded || !linked) return;
    const element = document.getElementById(`comment-${linked}`);
    element?.scrollIntoView({ block: 'center' });
    element?.focus({ preventScroll: true });
  }, [loaded, linked]);
  return linked;
}

function SignInToComment() {
  const [pathname] = useLocation();
  return (
    <p>
      <Link to={loginPath(pathname)}>Sign in</Link> to join the discussion.
    </p>
  );
}

/** "123 of 5,000 characters", and how many too many. */
function CharCount({ id, length }: { id: string; length: number }) {
  const over = length - MAX_COMMENT_LENGTH;
  return (
    <p id={id} className={over > 0 ? 'char-count field-error' : 'char-count hint'}>
      {over > 0
        ? `${over.toLocaleString('en-US')} characters too many (at most ${limit()})`
        : `${length.toLocaleString('en-US')} of ${limit()} characters`}
    </p>
  );
}

/** A textarea with its label, counter and error, for posting and for editing. */
function CommentField({
  label,
  value,
  onChange,
  error,
  fieldRef,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  error: string | null;
  fieldRef?: Ref<HTMLTextAreaElement>;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={`${id}-text`}>{label}</label>
      <textarea
        id={`${id}-text`}
        ref={fieldRef}
        rows={4}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
      />
      <CharCount id={`${id}-count`} length={value.length} />
      <FieldAlert id={`${id}-error`} error={error} />
    </div>
  );
}

/** A comment action's failure in words; a session that has ended is refreshed so the page offers Sign in. */
function useCommentAction() {
  const { refresh } = useSession();
  return useAction((caught) => {
    if (isApiError(caught, 'unauthenticated')) refresh();
    return messageOf(caught);
  });
}

/** Writing a comment, new or edited: checked before it is sent; afterwards the field goes back to its first text. */
function CommentForm(props: {
  label: string;
  initialText: string;
  submitLabel: string;
  busyLabel: string;
  className: string;
  onSubmit: (text: string) => Promise<void>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const [text, setText] = useState(props.initialText);
  const { busy, error, setError, run } = useCommentAction();
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (props.autoFocus) fieldRef.current?.focus();
  }, [props.autoFocus]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = problemWith(text);
    if (problem) {
      setError(problem);
      fieldRef.current?.focus();
      return;
    }
    if (await run(() => props.onSubmit(text))) setText(props.initialText);
    else fieldRef.current?.focus();
  }

  return (
    <form className={props.className} onSubmit={handleSubmit} noValidate>
      <CommentField label={props.label} value={text} onChange={setText} error={error} fieldRef={fieldRef} />
      <div className="actions">
        <button type="submit" aria-disabled={busy || undefined}>
          {busy ? props.busyLabel : props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" className="button-quiet" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function NewComment({ lessonId, onPosted }: { lessonId: string; onPosted: (comment: LessonComment) => void }) {
  return (
    <CommentForm
      label="Add a comment"
      initialText=""
      submitLabel="Post comment"
      busyLabel="Posting…"
      className="stack comment-form"
      onSubmit={async (text) => onPosted(await postComment(lessonId, text))}
    />
  );
}

/** The replies under a top-level comment, one level deep. */
function Replies({ replies, children }: { replies: LessonComment[]; children: (reply: LessonComment) => ReactNode }) {
  if (replies.length === 0) return null;
  return (
    <ol
      className="comment-list comment-replies"
      aria-label={`${replies.length === 1 ? '1 reply' : `${replies.length} replies`}`}
    >
      {replies.map(children)}
    </ol>
  );
}

function CommentItem({
  comment,
  linked,
  onChanged,
  onDeleted,
  reply = null,
  children,
}: {
  comment: LessonComment;
  /** The comment the address links to (useLinkedComment). */
  linked: string | null;
  onChanged: (comment: LessonComment) => void;
  onDeleted: (id: string) => void;
  /** Posts a reply to this comment; null where none may be written (a reply, or signed out). */
  reply?: ((text: string) => Promise<void>) | null;
  children?: ReactNode;
}) {
  const metaId = useId();
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete' | 'reply'>('view');
  const clock = useReaderClock();
  const replyRef = useRef<HTMLButtonElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (mode === 'view' && returnFocus.current) {
      returnFocus.current = false;
      editRef.current?.focus();
    }
  }, [mode]);
  const back = () => {
    returnFocus.current = true;
    setMode('view');
  };
  const backFromReply = () => {
    setMode('view');
    requestAnimationFrame(() => replyRef.current?.focus());
  };

  return (
    <li
      id={`comment-${comment.id}`}
      className={['comment', comment.hidden && 'comment-hidden', linked === comment.id && 'comment-linked']
        .filter(Boolean)
        .join(' ')}
      tabIndex={linked === comment.id ? -1 : undefined}
    >
      <p className="comment-meta" id={metaId}>
        <strong>{comment.author.name}</strong>
        {comment.author.instructor && <span className="badge badge-instructor">Instructor</span>}
        {comment.mine && <span className="you"> (you)</span>} ·{' '}
        <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt, clock)}</time>
        {comment.editedAt && <span className="hint"> · edited</span>}
      </p>
      {comment.hidden && (
        <p className="notice notice-info comment-hidden-note">
          A moderator hid this comment{comment.hidden.reason ? `: ${comment.hidden.reason}` : ''}. Only you can see it
          now.
        </p>
      )}
      {mode === 'edit' ? (
        <EditComment
          comment={comment}
          onSaved={(saved) => {
            onChanged(saved);
            back();
          }}
          onCancel={back}
        />
      ) : (
        <p className="comment-text">{comment.text}</p>
      )}
      {(comment.mine || reply) && mode === 'view' && (
        <p className="actions">
          {reply && (
            <button
              type="button"
              className="button-quiet"
              ref={replyRef}
              onClick={() => setMode('reply')}
              aria-describedby={metaId}
            >
              Reply
            </button>
          )}
          {comment.mine && (
            <>
              <button
                type="button"
                className="button-quiet"
                ref={editRef}
                onClick={() => setMode('edit')}
                aria-describedby={metaId}
              >
                Edit
              </button>
              <button
                type="button"
                className="button-quiet"
                onClick={() => setMode('confirm-delete')}
                aria-describedby={metaId}
              >
                Delete
              </button>
            </>
          )}
        </p>
      )}
      {mode === 'confirm-delete' && (
        <ConfirmDelete comment={comment} onDeleted={() => onDeleted(comment.id)} onCancel={back} />
      )}
      {mode === 'reply' && reply && (
        <CommentForm
          label={`Reply to ${comment.author.name}`}
          initialText=""
          submitLabel="Post reply"
          busyLabel="Posting…"
          className="stack comment-reply-form"
          onSubmit={async (text) => {
            await reply(text);
            backFromReply();
          }}
          onCancel={backFromReply}
          autoFocus
        />
      )}
      {children}
    </li>
  );
}

function EditComment({
  comment,
  onSaved,
  onCancel,
}: {
  comment: LessonComment;
  onSaved: (comment: LessonComment) => void;
  onCancel: () => void;
}) {
  return (
    <CommentForm
      label="Edit your comment"
      initialText={comment.text}
      submitLabel="Save"
      busyLabel="Saving…"
      className="stack"
      onSubmit={async (text) => onSaved(await editComment(comment.id, text))}
      onCancel={onCancel}
      autoFocus
    />
  );
}

function ConfirmDelete({
  comment,
  onDeleted,
  onCancel,
}: {
  comment: LessonComment;
  onDeleted: () => void;
  onCancel: () => void;
}) {
  const { busy, error, run } = useCommentAction();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);

  async function handleDelete() {
    if (!busy && (await run(() => deleteComment(comment.id)))) onDeleted();
  }

  return (
    <div className="comment-confirm" role="group" aria-label="Delete this comment?">
      <p>Delete this comment? This cannot be undone.</p>
      <p className="actions">
        <button
          type="button"
          className="button-danger"
          ref={confirmRef}
          onClick={handleDelete}
          aria-disabled={busy || undefined}
        >
          {busy ? 'Deleting…' : 'Yes, delete'}
        </button>
        <button type="button" className="button-quiet" onClick={onCancel}>
          Cancel
        </button>
      </p>
      <FieldAlert error={error} />
    </div>
  );
}
