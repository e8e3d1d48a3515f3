import type * as Commerce from '@contract/commerce/schemas';
import type { DataAnswer, Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

/** Giving a purchase to someone else (docs/domain.md §8), as the owner or the recipient sees it. */
export type TransferView = Wire<Commerce.TransferView>;

const purchaseTransferPath = (purchaseId: string) => `/api/store/purchases/${encodeURIComponent(purchaseId)}/transfer`;
const transferPath = (transferId: string) => `/api/store/transfers/${encodeURIComponent(transferId)}`;

/** The purchase's transfer under way (AVAILABLE when it may be given away), or null when it cannot be. */
export async function getPurchaseTransfer(purchaseId: string): Promise<TransferView | null> {
  return (await getJson<DataAnswer<TransferView | null>>(purchaseTransferPath(purchaseId))).data;
}

/** AVAILABLE → INITIATED: the recipient is emailed a link to the accept page. */
export async function offerTransfer(purchaseId: string, email: string): Promise<TransferView> {
  return (await postJson<DataAnswer<TransferView>>(purchaseTransferPath(purchaseId), { email })).data;
}

/** Withdraws the offer; answers the fresh AVAILABLE transfer. */
export async function cancelTransfer(transferId: string): Promise<TransferView> {
  return (await postJson<DataAnswer<TransferView>>(`${transferPath(transferId)}/cancel`)).data;
}

export async function getTransfer(transferId: string): Promise<TransferView> {
  return (await getJson<DataAnswer<TransferView>>(transferPath(transferId))).data;
}

/** INITIATED → VERIFIED: the recipient is signed in with the address the offer went to. */
export async function verifyTransfer(transferId: string): Promise<TransferView> {
  return (await postJson<DataAnswer<TransferView>>(`${transferPath(transferId)}/verify`)).data;
}

/** VERIFIED → COMPLETED: the purchase and its invoice become the recipient's. */
export async function acceptTransfer(transferId: string): Promise<TransferView> {
  return (await postJson<DataAnswer<TransferView>>(`${transferPath(transferId)}/accept`)).data;
}

/** What the sign-in page tells a signed-out visitor who followed an offer's link (only while it is open). */
export type TransferPreview = Wire<Commerce.TransferPreview>;

export async function getTransferPreview(transferId: string): Promise<TransferPreview> {
  return (await getJson<DataAnswer<TransferPreview>>(`${transferPath(transferId)}/preview`)).data;
}
