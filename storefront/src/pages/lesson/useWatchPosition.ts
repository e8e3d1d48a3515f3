import { useCallback, useEffect, useRef } from 'react';
import { isApiError } from '../../api/client';
import type { ProgressAnswer } from '../../api/learning';
import { saveVideoPosition } from '../../api/video';
import { useSession } from '../../session';

/** How often the place is saved while the video plays. */
const SAVE_EVERY_MS = 10_000;
/** A move smaller than this is not worth a write. */
const MIN_MOVE_SECONDS = 0.5;

interface Options {
  lessonId: string;
  /** The course it is watched in (its slug or id). */
  course: string | null;
  /** Where the learner was when the page opened (saved already). */
  saved: number;
  /** Signed in: their place is theirs to keep. */
  enabled: boolean;
  /** This write completed the lesson (it reached the API's threshold, VIDEO_COMPLETE_PERCENT). */
  onCompleted: (progress: ProgressAnswer) => void;
}

/**
 * Keeps the learner's place in a lesson's video, so it resumes there on any device: saved every 10 s while it plays,
 * and when it pauses, a seek ends, it ends, and when the page goes (hidden, closed, or another page of the storefront
 * opened: those writes outlive the page, with keepalive). One write at a time, the newest place winning. Answers
 * `flush`, which saves the place now and resolves once the API answered (the end of a video, before what follows).
 */
export function useWatchPosition(media: HTMLVideoElement | null, options: Options): () => Promise<void> {
  const { refresh } = useSession();
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const flushRef = useRef<() => Promise<void>>(async () => {});

  useEffect(() => {
    if (!media || !options.enabled) return;
    let saved = options.saved;
    /** Where the learner is: read at each event (after the source goes, the element no longer knows). */
    let here = options.saved;
    let lastWrite = Date.now();
    /** The write under way; the next one waits for it. */
    let writing: Promise<void> = Promise.resolve();
    let stopped = false;

    const write = async (position: number, keepalive: boolean) => {
      const { lessonId, course, onCompleted } = latest.current;
      try {
        const answer = await saveVideoPosition(lessonId, position, course, { keepalive });
        if (answer.progress && !stopped) onCompleted(answer.progress);
      } catch (error) {
        saved = Number.NaN; // not saved: the next moment to save tries again
        // A session that ended, or a lesson that closed meanwhile, is not written again.
        if (isApiError(error, 'unauthenticated')) refresh();
        if (isApiError(error, 'unauthenticated', 'lesson-locked', 'not-found')) stopped = true;
      }
    };

    const save = (keepalive = false) => {
      const position = Math.round(here * 100) / 100;
      if (stopped || Math.abs(position - saved) < MIN_MOVE_SECONDS) return writing;
      saved = position; // on its way: no second write of the same place meanwhile
      lastWrite = Date.now();
      if (keepalive) return write(position, true); // the page is going: now, not after the write under way
      writing = writing.then(() => write(position, false));
      return writing;
    };

    const onTimeUpdate = () => {
      // Only while it plays: a video that was never started keeps the place it was saved at.
      if (media.paused || media.readyState === 0) return;
      here = media.currentTime;
      if (Date.now() - lastWrite >= SAVE_EVERY_MS) void save();
    };
    const onSettled = () => {
      if (media.readyState === 0) return; // its source is going (the element says 0 then)
      here = media.currentTime;
      void save();
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void save(true);
    };
    const onPageHide = () => void save(true);
    media.addEventListener('timeupdate', onTimeUpdate);
    for (const event of ['pause', 'seeked', 'ended']) media.addEventListener(event, onSettled);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    flushRef.current = () => save();
    return () => {
      media.removeEventListener('timeupdate', onTimeUpdate);
      for (const event of ['pause', 'seeked', 'ended']) media.removeEventListener(event, onSettled);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
      flushRef.current = async () => {};
      // Another page of the storefront (or another lesson's links): where they were goes with them.
      void save(true);
      stopped = true;
    };
  }, [media, options.enabled, options.saved]);

  return useCallback(() => flushRef.current(), []);
}
