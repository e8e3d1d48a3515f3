import { table } from '../../db/base-model';

/** One session of a live workshop: when it runs, in which time zone it is organised, and where to join. */
export class WorkshopSession extends table('workshopSessions') {
  declare id: string;
  declare productId: string;
  declare title: string;
  declare startsAt: Date;
  declare endsAt: Date;
  /** IANA name, canonical (Europe/Berlin). */
  declare timeZone: string;
  /** https only; shown to holders of the product alone. */
  declare joinUrl: string | null;
  /** How many times it changed: the calendar invite's SEQUENCE. */
  declare sequence: number;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A reminder sent (or being sent) for a session to one holder: one row per session, holder and kind. */
export class WorkshopReminder extends table('workshopReminders') {
  declare id: string;
  declare sessionId: string;
  declare userId: string;
  declare kind: 'day' | 'hour';
  declare outboxEmailId: string | null;
  declare createdAt: Date;
}
