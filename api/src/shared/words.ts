/**
 * Counts and durations in words, one way for the API's pages and emails and the storefront (no dependencies, so the
 * storefront takes it as it is).
 */

/** "1 lesson", "12 lessons"; `many` where adding an s is wrong ("2 people"). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "2 h 30 min", "45 min", "3 h". */
export function formatMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
