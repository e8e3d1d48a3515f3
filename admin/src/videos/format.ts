/** A length in ms as the player writes it: 4:05, 1:02:09. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const total = Math.round(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Renditions in words: "360p · 720p". */
export const formatRenditions = (heights: readonly number[]) => heights.map((h) => `${h}p`).join(' · ') || '—';
