import { z } from 'zod';

/** DELETE /api/store/me and the console's delete: the person's email typed again (any case), so no click deletes. */
export const DeleteAccountBody = z.object({
  confirm: z.string().trim().max(320).optional().default(''),
});

/** What a deletion did, in counts (the audit entry's `after`, and the console's answer). */
export interface AccountDeleted {
  id: string;
  deletedAt: Date;
  sessionsEnded: number;
  deviceTokensRevoked: number;
  seatsFreed: number;
  transfersCanceled: number;
  commentsRemoved: number;
  commentsKeptAsPlaceholders: number;
  emailsCanceled: number;
  waitlistEntriesRemoved: number;
}

/** One purchase as its owner's export shows it (amounts in the currency's smallest unit). */
export interface ExportedPurchase {
  id: string;
  product: string;
  /** individual, team (seats bought for others), seat (a seat in someone's team), comp (given by support) */
  type: 'individual' | 'team' | 'seat' | 'comp';
  status: string;
  amount: number;
  refunded: number;
  currency: string;
  country: string | null;
  region: string | null;
  city: string | null;
  ipAddress: string | null;
  createdAt: Date;
}

/** GET /api/store/me/export and the console's download: everything the platform holds about one person. */
export interface PersonalDataExport {
  exportedAt: Date;
  school: string;
  profile: {
    id: string;
    email: string;
    name: string | null;
    bio: string | null;
    timeZone: string | null;
    avatarUrl: string | null;
    signInPictureUrl: string | null;
    roles: string[];
    emailVerifiedAt: Date | null;
    createdAt: Date;
    blocked: { at: Date; reason: string | null } | null;
  };
  preferences: { type: string; resourceId: string | null; fields: unknown; updatedAt: Date }[];
  purchases: ExportedPurchase[];
  teamsBought: { purchaseId: string; product: string; seats: number; seatsTaken: number; createdAt: Date }[];
  teamSeats: { purchaseId: string; product: string; status: string; createdAt: Date }[];
  transfers: {
    direction: 'out' | 'in';
    product: string;
    state: string;
    createdAt: Date;
    expiresAt: Date;
    completedAt: Date | null;
  }[];
  progress: { lessonId: string; lesson: string | null; completedAt: Date | null; updatedAt: Date }[];
  videoPositions: { lessonId: string; positionMs: number; updatedAt: Date }[];
  comments: {
    id: string;
    lessonId: string | null;
    replyTo: string | null;
    text: string;
    createdAt: Date;
    editedAt: Date | null;
    hiddenReason: string | null;
  }[];
  bookmarks: { resourceId: string; type: string; createdAt: Date }[];
  certificates: { id: string; course: string; name: string; issuedAt: Date; revokedAt: Date | null }[];
  waitlists: { product: string; joinedAt: Date; notifiedAt: Date | null }[];
  /** The billing details remembered for a next checkout (null: none), and the invoices issued to the person as payer. */
  billing: {
    company: string;
    address: string;
    country: string | null;
    region: string | null;
    vatId: string;
    updatedAt: Date;
  } | null;
  invoices: {
    kind: string;
    number: string;
    issuedAt: Date;
    total: number;
    taxAmount: number;
    currency: string;
    buyer: unknown;
  }[];
  emails: { subject: string; kind: string; status: string; createdAt: Date; sentAt: Date | null }[];
  sessions: { createdAt: Date; lastSeenAt: Date | null; expiresAt: Date; userAgent: string | null }[];
  signIns: { method: string; userAgent: string | null; at: Date }[];
  devices: { client: string; createdAt: Date; lastUsedAt: Date | null }[];
  linkedAccounts: { provider: string; accountId: string }[];
  staffNotes: { text: string; createdAt: Date }[];
  /** Changes recorded about the person or made by them; who on the staff acted is not theirs to read. */
  auditEntries: { action: string; by: 'you' | 'staff' | 'system'; at: Date }[];
}
