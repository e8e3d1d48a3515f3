import { useEffect, useId, useRef, useState } from 'react';
import type { Transcript as TranscriptText } from '../../api/video';

/** "0:05", "12:40", "1:02:03": a time in a video. */
function formatVideoTime(seconds: number): string {
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The cue being spoken at `time` (-1 between cues); cues are in file order, so mostly in time order. */
function cueAt(cues: TranscriptText['cues'], time: number): number {
  return cues.findIndex((cue) => cue.start <= time && time < cue.end);
}

/**
 * The captions as text under the video: every cue a plain paragraph (so the browser's find finds it, and the server
 * renders it), its time a button that plays from there. The cue playing is marked (and kept in view while the
 * learner has not scrolled the text themselves). With captions in several languages, a switch; it follows the
 * captions the learner turns on in the player.
 */
export function Transcript({
  transcripts,
  media,
  onSeek,
}: {
  transcripts: TranscriptText[];
  /** The player's element, once it is there (never on the server). */
  media: HTMLVideoElement | null;
  onSeek: (seconds: number) => void;
}) {
  const id = useId();
  const [language, setLanguage] = useState(transcripts[0]?.language);
  const [active, setActive] = useState(-1);
  const box = useRef<HTMLDivElement>(null);
  /** Off once the learner scrolls the text themselves; on again when they pick a time. */
  const following = useRef(true);
  const shown = transcripts.find((t) => t.language === language) ?? transcripts[0];
  const cues = shown?.cues;

  // The captions turned on in the player choose the transcript's language too.
  useEffect(() => {
    if (!media) return;
    const tracks = media.textTracks;
    const follow = () => {
      const showing = [...tracks].find((track) => track.mode === 'showing');
      if (showing && transcripts.some((t) => t.language === showing.language)) setLanguage(showing.language);
    };
    follow();
    tracks.addEventListener('change', follow);
    return () => tracks.removeEventListener('change', follow);
  }, [media, transcripts]);

  useEffect(() => {
    if (!media || !cues) return;
    const update = () => setActive(cueAt(cues, media.currentTime));
    update();
    for (const event of ['timeupdate', 'seeked']) media.addEventListener(event, update);
    return () => {
      for (const event of ['timeupdate', 'seeked']) media.removeEventListener(event, update);
    };
  }, [media, cues]);

  // Keep the cue playing in view inside the text's own box (never by scrolling the page).
  useEffect(() => {
    const container = box.current;
    const cue = active >= 0 ? container?.children[active] : null;
    if (!container || !(cue instanceof HTMLElement) || !following.current || media?.paused) return;
    const top = cue.offsetTop;
    if (top < container.scrollTop || top + cue.offsetHeight > container.scrollTop + container.clientHeight) {
      container.scrollTop = Math.max(0, top - container.clientHeight / 3);
    }
  }, [active, media]);

  if (!shown || !cues) return null;
  const stopFollowing = () => (following.current = false);

  return (
    <section className="transcript" aria-labelledby={`${id}-heading`}>
      <div className="transcript-head">
        <h2 id={`${id}-heading`}>Transcript</h2>
        {transcripts.length > 1 && (
          <div className="transcript-language">
            <label htmlFor={`${id}-language`}>Language</label>
            <select id={`${id}-language`} value={shown.language} onChange={(event) => setLanguage(event.target.value)}>
              {transcripts.map((t) => (
                <option key={t.language} value={t.language}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {/* Its own scrolling box, so it takes the keyboard's focus (to scroll it) and has a name. */}
      <div
        ref={box}
        className="transcript-cues"
        role="region"
        aria-label={`Transcript, ${shown.label}`}
        tabIndex={0}
        lang={shown.language}
        onWheel={stopFollowing}
        onTouchMove={stopFollowing}
        onKeyDown={(event) => {
          if (event.target === event.currentTarget) stopFollowing();
        }}
      >
        {cues.map((cue, i) => {
          const time = formatVideoTime(cue.start);
          return (
            <p
              key={`${shown.language}-${i}`}
              className="transcript-cue"
              aria-current={i === active ? 'time' : undefined}
            >
              <button
                type="button"
                className="transcript-time"
                aria-label={`Play from ${time}`}
                onClick={() => {
                  following.current = true;
                  onSeek(cue.start);
                }}
              >
                {time}
              </button>{' '}
              {cue.text}
            </p>
          );
        })}
      </div>
    </section>
  );
}
