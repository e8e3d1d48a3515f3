import type { PrefsAnswer } from '@contract/identity/schemas';
import type { TimeZoneAnswer } from '@contract/identity/profile/time-zone.schemas';
import { getJson, putJson } from './client';

export type Theme = 'light' | 'dark' | 'system';
export type FontSize = 'normal' | 'large';

/** The global preferences the storefront uses; `fields` may hold others (other clients), which are kept. */
export interface Prefs {
  theme: Theme;
  reading: { fontSize: FontSize };
  /** How lesson videos play (pages/lesson/VideoPlayer.tsx): their speed, and whether the next lesson's follows. */
  video: { playbackRate: number; autoplayNext: boolean };
  /** The zone dates in emails are written in; null: none chosen yet (emails say UTC). */
  timeZone: string | null;
  /** Which emails the learner wants: `replies`, about replies to their comments (on unless turned off). */
  emails: { replies: boolean };
}

export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2];

const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** Reads our fields out of whatever the API holds, with defaults for what is missing or unknown. */
export function prefsOf(fields: Record<string, unknown>): Prefs {
  const reading = record(fields.reading);
  const video = record(fields.video);
  return {
    theme: pick(fields.theme, ['light', 'dark', 'system'], 'system'),
    reading: { fontSize: pick(reading.fontSize, ['normal', 'large'], 'normal') },
    video: {
      playbackRate: PLAYBACK_RATES.includes(video.playbackRate as number) ? (video.playbackRate as number) : 1,
      autoplayNext: video.autoplayNext === true,
    },
    timeZone: typeof fields.timeZone === 'string' && knownTimeZone(fields.timeZone) ? fields.timeZone : null,
    emails: { replies: record(fields.emails).replies !== false },
  };
}

/** The zone this device is set to ("Europe/Berlin"). */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Every zone this browser knows, for a settings list (the device's own among them). */
export function timeZoneChoices(): string[] {
  const zones = Intl.supportedValuesOf?.('timeZone') ?? [];
  return [...new Set([...zones, 'UTC', deviceTimeZone()])].sort();
}

function knownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * PUT /api/store/me/time-zone. `onlyIfUnset`: offer the device's zone without replacing one the person chose (after
 * sign-in, so emails carry local times from the first one on).
 */
export async function putTimeZone(timeZone: string, onlyIfUnset = false): Promise<string> {
  return (await putJson<TimeZoneAnswer>('/api/store/me/time-zone', { timeZone, onlyIfUnset })).timeZone;
}

/** GET /api/store/prefs?type=global: every stored field (ours and others'). */
export async function getGlobalPrefs(): Promise<Record<string, unknown>> {
  return (await getJson<PrefsAnswer>('/api/store/prefs?type=global')).fields;
}

/** PUT replaces all the global fields: send the others back unchanged. */
export async function putGlobalPrefs(fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await putJson<PrefsAnswer>('/api/store/prefs', { type: 'global', fields })).fields;
}
