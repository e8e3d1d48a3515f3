import { formatMinutes as minutesInWords } from '../../../../api/src/shared/words';

const NBSP = '\u00a0';

/** "2 h 30 min", "45 min": a length in minutes, as the sales page shows it (kept on one line). */
export const formatMinutes = (minutes: number): string => minutesInWords(minutes).replaceAll(' ', NBSP);

/** The parts of a time left ("2 days 03:04:05"), for the sale countdown; null once it is over. */
export function timeLeft(ms: number): { days: number; hours: number; minutes: number; seconds: number } | null {
  if (ms <= 0) return null;
  const total = Math.floor(ms / 1000);
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}
