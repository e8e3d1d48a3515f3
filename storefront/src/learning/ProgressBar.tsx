import type { Progress } from '../api/learning';

/** "3 of 9 lessons done" with a bar; the bar is a progressbar named after what it measures. */
export function ProgressBar({ progress, label }: { progress: Progress; label: string }) {
  const { completed, total, percent } = progress;
  return (
    <div className="progress">
      <div
        className="progress-bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%: ${completed} of ${total} ${total === 1 ? 'lesson' : 'lessons'} done`}
      >
        <span className="progress-done" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress-text" aria-hidden="true">
        {completed} of {total} done
      </span>
    </div>
  );
}
