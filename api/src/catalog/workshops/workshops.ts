import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../logger';
import type { Outbox } from '../../mail/outbox';
import type { EmailAttachment } from '../../mail/transport';
import type { WorkshopReceipt } from '../../mail/templates';
import { workshopReceiptSchedule, workshopReminderEmail } from '../../mail/workshop-emails';
import { ICS_CONTENT_TYPE, workshopCalendar } from './ics';
import {
  activeProduct,
  claimReminders,
  heldWorkshops,
  holdsProduct,
  linkReminderEmail,
  sessionWithProduct,
  sessionsByIds,
  sessionsNotOver,
  type ReminderKind,
  type SessionRow,
} from './queries';
import type { HeldSession, MyWorkshop, ScheduledSession } from './schemas';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The reminder windows: a session starting within (after, before] of now gets that reminder. A session scheduled
 * less than a day ahead gets the day's reminder at once unless it is already inside the hour (then only that one).
 */
export const REMINDER_WINDOWS: Record<ReminderKind, { afterMs: number; beforeMs: number }> = {
  day: { afterMs: HOUR_MS, beforeMs: 24 * HOUR_MS },
  hour: { afterMs: 0, beforeMs: HOUR_MS },
};

const scheduled = (row: SessionRow): ScheduledSession => ({
  id: row.id,
  title: row.title,
  startsAt: row.startsAt,
  endsAt: row.endsAt,
  timeZone: row.timeZone,
});

/** The file name of a session's invite, and its path under the store's API. */
export const invitePath = (sessionId: string) => `/api/store/workshops/${sessionId}.ics`;

/** A workshop's calendar file with every session not over yet, under the store's API. */
const calendarPath = (productId: string) => `/api/store/products/${productId}/calendar.ics`;

/**
 * A live workshop's receipt: its schedule written for the buyer (`readerZone`: their settings' zone) and every
 * session not over yet in one calendar file (null while none is scheduled); null for a product that is no workshop.
 * Runs in the settlement's transaction.
 */
export async function workshopReceipt(
  trx: Knex.Transaction,
  product: { id: string; name: string; productType: string },
  publicUrl: string,
  /** The reader's time zone, asked only for a live workshop's receipt. */
  readerZone: () => Promise<string | null>,
): Promise<{ schedule: WorkshopReceipt; invite: EmailAttachment | null } | null> {
  if (product.productType !== 'live') return null;
  const sessions = await sessionsNotOver(trx, [product.id], trx.raw('now()'));
  const pageUrl = new URL('/learning', publicUrl).toString();
  return {
    schedule: workshopReceiptSchedule(sessions, await readerZone(), pageUrl),
    invite: sessions.length ? workshopInvite(sessions, product, publicUrl) : null,
  };
}

/** Every session given in one calendar file, for a receipt. */
function workshopInvite(
  sessions: SessionRow[],
  product: { id: string; name: string },
  publicUrl: string,
): EmailAttachment {
  return {
    filename: 'workshop.ics',
    contentType: ICS_CONTENT_TYPE,
    content: workshopCalendar({
      sessions,
      productName: product.name,
      pageUrl: new URL('/learning', publicUrl).toString(),
      publicUrl,
      now: new Date(),
    }),
  };
}

/**
 * Live workshops for learners: the public schedule (no join links), the sessions of the workshops someone holds
 * (with them), each session's calendar invite for its holders, and the reminder sweep.
 */
export function workshopService({
  db,
  clock,
  config,
  logger,
  outbox,
}: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  logger: Logger;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
}) {
  const myLearningUrl = () => new URL('/learning', config.publicUrl).toString();
  const held = (row: SessionRow): HeldSession => ({
    ...scheduled(row),
    joinUrl: row.joinUrl,
    inviteUrl: invitePath(row.id),
  });
  const calendarOf = (sessions: SessionRow[], productName: string) =>
    workshopCalendar({
      sessions,
      productName,
      pageUrl: myLearningUrl(),
      publicUrl: config.publicUrl,
      now: clock.now(),
    });

  /** One reminder kind's sweep: claims what is due and queues its emails, in one transaction. */
  async function remind(kind: ReminderKind): Promise<number> {
    const now = clock.now().getTime();
    const { afterMs, beforeMs } = REMINDER_WINDOWS[kind];
    return db.transaction(async (trx) => {
      const claimed = await claimReminders(trx, kind, new Date(now + afterMs), new Date(now + beforeMs));
      const sessions = await sessionsByIds(trx, [...new Set(claimed.map((c) => c.sessionId))]);
      for (const reminder of claimed) {
        const session = sessions.get(reminder.sessionId)!;
        const invite = {
          filename: 'workshop.ics',
          contentType: ICS_CONTENT_TYPE,
          content: calendarOf([session], session.productName),
        };
        const email = workshopReminderEmail(reminder.email, {
          productName: session.productName,
          session,
          kind,
          pageUrl: myLearningUrl(),
          invite,
        });
        await linkReminderEmail(trx, reminder.id, await outbox.enqueue(trx, email));
      }
      return claimed.length;
    });
  }

  return {
    /** An active product's sessions not over yet, for everyone: never the join link. */
    async schedule(productId: string): Promise<ScheduledSession[]> {
      if (!(await activeProduct(db, productId))) throw new AppError('product-not-found', 'No such product on sale.');
      return (await sessionsNotOver(db, [productId], clock.now())).map(scheduled);
    },

    /** The live workshops the learner holds, each with its sessions not over yet and the next one. */
    async mine(userId: string): Promise<MyWorkshop[]> {
      const products = await heldWorkshops(db, userId);
      const sessions = await sessionsNotOver(
        db,
        products.map((p) => p.id),
        clock.now(),
      );
      return products.map((product) => {
        const own = sessions.filter((s) => s.productId === product.id).map(held);
        return { product, sessions: own, nextSession: own[0] ?? null, calendarUrl: calendarPath(product.id) };
      });
    },

    /** A session's calendar invite, for those who hold its workshop (the file carries the join link). */
    async invite(userId: string, sessionId: string): Promise<{ filename: string; content: string }> {
      const session = await sessionWithProduct(db, sessionId);
      if (!session) throw new AppError('not-found', 'No such workshop session.');
      if (!(await holdsProduct(db, userId, session.productId)))
        throw new AppError('workshop-not-held', 'Only those who have this workshop can download its invite.');
      return { filename: `${session.id}.ics`, content: calendarOf([session], session.productName) };
    },

    /** One calendar file with every session of a workshop not over yet, for those who hold it (join links in it). */
    async calendar(userId: string, productId: string): Promise<{ filename: string; content: string }> {
      const product = await activeProduct(db, productId);
      if (!product) throw new AppError('product-not-found', 'No such product on sale.');
      if (!(await holdsProduct(db, userId, productId)))
        throw new AppError('workshop-not-held', 'Only those who have this workshop can download its calendar file.');
      const sessions = await sessionsNotOver(db, [productId], clock.now());
      return { filename: 'workshop.ics', content: calendarOf(sessions, product.name) };
    },

    /**
     * The reminder sweep (every 5 minutes): each holder of each session gets the day's and the hour's reminder once,
     * whoever runs the sweep and however many run at once. Answers how many of each were queued.
     */
    async sendReminders(): Promise<Record<ReminderKind, number>> {
      const sent = { day: await remind('day'), hour: await remind('hour') };
      if (sent.day || sent.hour) {
        outbox.flushInBackground();
        logger.info({ reminders: sent }, 'workshop reminders queued');
      }
      return sent;
    },
  };
}

export type WorkshopService = ReturnType<typeof workshopService>;
