import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { ProgressAnswer } from '../../api/learning';
import { getGlobalPrefs, prefsOf, type Prefs } from '../../api/prefs';
import type { LessonVideoView } from '../../api/video';
import { isComplete } from '../../learning/outlineProgress';
import { Transcript } from './Transcript';
import { useWatchPosition } from './useWatchPosition';
import { attachSource, type PlaybackFailure } from './videoSource';

interface LessonVideoProps {
  video: LessonVideoView;
  lessonId: string;
  /** The course it is watched in (slug or id). */
  course: string;
  signedIn: boolean;
  /** The video's answer again, with fresh links (they are short-lived), or null when the lesson has none now. */
  reload: () => Promise<LessonVideoView | null>;
  /** Watching far enough completed the lesson: the page shows it as the Complete button would. */
  onCompleted: (progress: ProgressAnswer) => void;
  /** The next lesson's address, for "play the next lesson's video automatically". */
  nextPath: string | null;
}

/**
 * A lesson's video on its page, in whatever state it is: being prepared, unavailable, or ready to play (the player,
 * then its transcript). Shown only when the lesson is open to the viewer.
 */
export function LessonVideo(props: LessonVideoProps) {
  const [video, setVideo] = useState(props.video);
  const [checking, setChecking] = useState(false);

  if (video.status === 'ready' && video.hls) return <Player {...props} video={video} onReplaced={setVideo} />;
  if (video.status === 'ready' || video.status === 'failed') {
    return (
      <VideoFrame>
        <p className="video-message">This video is not available at the moment. Please come back later.</p>
      </VideoFrame>
    );
  }

  async function checkAgain() {
    setChecking(true);
    try {
      const fresh = await props.reload();
      if (fresh) setVideo(fresh);
    } catch {
      // Still the same message; they may check again.
    } finally {
      setChecking(false);
    }
  }

  return (
    <VideoFrame>
      <div className="video-message">
        <p role="status">{checking ? 'Checking…' : 'This video is being prepared: come back in a few minutes.'}</p>
        <button type="button" className="button-quiet" onClick={checkAgain} aria-disabled={checking || undefined}>
          Check again
        </button>
      </div>
    </VideoFrame>
  );
}

function VideoFrame({ children }: { children: ReactNode }) {
  return <div className="video-frame">{children}</div>;
}

/** The learner's video settings (Settings page); the defaults for visitors. */
function useVideoPrefs(signedIn: boolean): Prefs['video'] {
  const [prefs, setPrefs] = useState<Prefs['video']>(() => prefsOf({}).video);
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    getGlobalPrefs().then(
      (fields) => live && setPrefs(prefsOf(fields).video),
      () => {}, // the defaults play as well
    );
    return () => {
      live = false;
    };
  }, [signedIn]);
  return prefs;
}

/** Where to start: the saved place, unless it is at the very end (the last 5 %, or 3 s), when it starts over. */
function resumeAt({ positionSeconds, durationSeconds }: LessonVideoView): number {
  if (positionSeconds <= 0 || durationSeconds === null) return positionSeconds;
  return positionSeconds >= durationSeconds - Math.max(3, durationSeconds * 0.05) ? 0 : positionSeconds;
}

/** The caption language to show at first: the learner's (the browser's languages, in order) when there is one. */
function captionFor(languages: readonly string[], available: string[]): string | null {
  const lower = available.map((l) => l.toLowerCase());
  for (const wanted of languages.map((l) => l.toLowerCase())) {
    const exact = lower.indexOf(wanted);
    if (exact >= 0) return available[exact]!;
    const base = lower.findIndex((l) => l.split('-')[0] === wanted.split('-')[0]);
    if (base >= 0) return available[base]!;
  }
  return null;
}

/** A lesson whose video plays as soon as it opens (set when the previous one ended, with autoplayNext on). */
let autoplayPath: string | null = null;

/** When playback stopped, after fresh links were tried once (they may have expired) within this time: say so. */
const REFRESH_AGAIN_AFTER_MS = 60_000;

type Phase = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed'; unsupported: boolean };

function Player({
  video: initial,
  lessonId,
  course,
  signedIn,
  reload,
  onCompleted,
  nextPath,
  onReplaced,
}: LessonVideoProps & { onReplaced: (video: LessonVideoView) => void }) {
  const [, navigate] = useLocation();
  const [video, setVideo] = useState(initial);
  /** Counts the sources attached: a retry attaches again even when its links came out the same. */
  const [attempt, setAttempt] = useState(0);
  const [media, setMedia] = useState<HTMLVideoElement | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [announcement, setAnnouncement] = useState('');
  const prefs = useVideoPrefs(signedIn);
  /** Where the source starts: the saved place at first, where it stopped after a retry. */
  const startAt = useRef(resumeAt(initial));
  const refreshedAt = useRef(0);
  const finishedCourse = useRef(false);
  /** A transcript line chosen while the source was still loading: played from once it has loaded. */
  const pendingSeek = useRef<number | null>(null);

  const flush = useWatchPosition(media, {
    lessonId,
    course,
    saved: initial.positionSeconds,
    enabled: signedIn,
    onCompleted: (progress) => {
      finishedCourse.current = progress.completed && isComplete(progress.course.progress);
      setAnnouncement('You watched this video: the lesson is marked complete.');
      onCompleted(progress);
    },
  });

  /** New links (the old may have expired), and the source again from where it stopped. */
  async function restart() {
    if (media && media.readyState > 0) startAt.current = media.currentTime;
    refreshedAt.current = Date.now();
    setPhase({ kind: 'loading' });
    let fresh: LessonVideoView | null;
    try {
      fresh = await reload();
    } catch {
      setPhase({ kind: 'failed', unsupported: false });
      return;
    }
    if (fresh?.hls) {
      setVideo(fresh);
      setAttempt((n) => n + 1);
    } else if (fresh) {
      onReplaced(fresh); // no longer playable (a new upload being prepared, or the lesson closed): say so
    } else {
      setPhase({ kind: 'failed', unsupported: false });
    }
  }

  /** Playback stopped: fresh links once (they may have expired while paused), then say so, with Try again. */
  const fail = useRef<(failure: PlaybackFailure) => void>(() => {});
  useEffect(() => {
    fail.current = (failure) => {
      if (!failure.unsupported && Date.now() - refreshedAt.current > REFRESH_AGAIN_AFTER_MS) void restart();
      else setPhase({ kind: 'failed', unsupported: failure.unsupported });
    };
  });

  useEffect(() => {
    if (!media || !video.hls) return;
    let live = true;
    let detach = () => {};
    setPhase({ kind: 'loading' });
    const ready = () => {
      if (!live) return;
      setPhase({ kind: 'ready' });
      const seconds = pendingSeek.current;
      if (seconds === null) return;
      pendingSeek.current = null;
      media.currentTime = seconds;
      media.play().catch(() => {});
    };
    media.addEventListener('loadeddata', ready);
    const onFatal = (failure: PlaybackFailure) => live && fail.current(failure);
    attachSource(media, video.hls, { startAt: startAt.current, onFatal }).then(
      (attached) => {
        if (!live) return attached.detach();
        detach = attached.detach;
        // Safari's own player loads on play (on iPhones, nothing before): its controls show its state.
        if (attached.native) ready();
        if (autoplayPath === location.pathname) {
          autoplayPath = null;
          media.play().catch(() => {}); // a browser that refuses shows the play button, as usual
        }
      },
      () => onFatal({ unsupported: false }), // hls.js did not download
    );
    return () => {
      live = false;
      media.removeEventListener('loadeddata', ready);
      detach();
    };
  }, [media, video.hls, attempt]);

  // The learner's speed, from the start (and after every new source: the element starts at its default rate).
  useEffect(() => {
    if (!media) return;
    media.defaultPlaybackRate = prefs.playbackRate;
    if (media.played.length === 0) media.playbackRate = prefs.playbackRate;
  }, [media, prefs.playbackRate]);

  // Captions in the learner's language when the video has them; none otherwise.
  useEffect(() => {
    if (!media) return;
    const language = captionFor(
      navigator.languages ?? [navigator.language],
      video.captions.map((c) => c.language),
    );
    for (const track of media.textTracks) {
      if (track.kind !== 'captions') continue;
      // Through 'hidden' first: a track whose mode a script never changed is still the browser's to choose, and
      // Chromium then shows another one beside the learner's.
      track.mode = 'hidden';
      track.mode = track.language === language ? 'showing' : 'disabled';
    }
  }, [media, video.captions]);

  // The next lesson's video, when the learner asked for it in Settings, unless this one finished the course.
  useEffect(() => {
    if (!media || !prefs.autoplayNext || !nextPath) return;
    const next = async () => {
      await flush();
      if (finishedCourse.current) return;
      autoplayPath = nextPath;
      navigate(nextPath);
    };
    media.addEventListener('ended', next);
    return () => media.removeEventListener('ended', next);
  }, [media, prefs.autoplayNext, nextPath, flush, navigate]);

  const seek = (seconds: number) => {
    if (!media) return;
    // Attaching a source (the first or a Try again) resets the element and cuts short a play asked for before it.
    if (phase.kind === 'loading') {
      pendingSeek.current = seconds;
      return;
    }
    media.currentTime = seconds;
    if (media.paused) media.play().catch(() => {});
  };

  return (
    <div className="lesson-video">
      <div className="video-frame" aria-busy={phase.kind === 'loading'}>
        {/* Rendered on the server as it is (no source yet): the source is attached in the browser. */}
        <video ref={setMedia} controls playsInline preload="metadata" poster={video.poster ?? undefined}>
          {video.captions.map((caption) => (
            <track
              key={caption.src}
              kind="captions"
              src={caption.src}
              srcLang={caption.language}
              label={caption.label}
            />
          ))}
        </video>
        {phase.kind === 'loading' && (
          <p className="video-overlay video-loading" role="status">
            <span className="video-spinner" aria-hidden="true" />
            Loading the video…
          </p>
        )}
        {phase.kind === 'failed' && (
          <div className="video-overlay video-failed" role="alert">
            <p>
              {phase.unsupported
                ? 'This browser cannot play this video. Try a current version of Chrome, Edge, Firefox or Safari.'
                : 'This video could not play. Check your connection and try again.'}
            </p>
            {!phase.unsupported && (
              <button type="button" onClick={() => void restart()}>
                Try again
              </button>
            )}
          </div>
        )}
      </div>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <Transcript transcripts={video.transcript} media={media} onSeek={seek} />
    </div>
  );
}
