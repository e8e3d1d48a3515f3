/**
 * The address a deleted account keeps (docs/domain.md §16): unique per account, and never deliverable (.invalid is
 * reserved, RFC 2606). Stated once: the deletion writes it, the outbox never queues an email to it.
 */
export const deletedAddress = (userId: string) => `deleted-${userId}@invalid`;

/** Whether an address is a deleted account's. */
export const isDeletedAddress = (address: string) => /^deleted-[0-9a-f-]{36}@invalid$/i.test(address.trim());
