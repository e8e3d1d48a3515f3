import { z } from 'zod';
import { TimeZoneName } from '../../identity/profile/time-zone.schemas';
import { DateTime, Id } from './fields';

const isHttpsLink = (value: string) => {
  try {
    return new URL(value).protocol === 'https:' && /^https:\/\/[^\s]+$/.test(value);
  } catch {
    return false;
  }
};

/** A join link: https only (a meeting's address travels in emails and calendars); an emptied field clears it. */
const JoinUrl = z
  .preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    z.string().trim().max(2000).refine(isHttpsLink, 'must be an https:// link').nullable(),
  )
  .optional();

const sessionFields = {
  title: z.string().trim().min(1, 'is required').max(200, 'at most 200 characters'),
  startsAt: DateTime,
  endsAt: DateTime,
  timeZone: TimeZoneName,
  joinUrl: JoinUrl,
};

const endsAfterStart = (s: { startsAt?: Date; endsAt?: Date }) => !s.startsAt || !s.endsAt || s.endsAt > s.startsAt;

export const WorkshopSessionCreate = z
  .object({ productId: Id, ...sessionFields })
  .strict()
  .refine(endsAfterStart, { message: 'must be after the start', path: ['endsAt'] });

export const WorkshopSessionUpdate = z
  .object(sessionFields)
  .partial()
  .strict()
  .refine(endsAfterStart, { message: 'must be after the start', path: ['endsAt'] });
