import { deleteJson, getJson, postJson } from './client';

/** A device waiting for approval, as the /activate page shows it. */
export interface PendingDevice {
  userCode: string;
  clientId: string;
  createdAt: string;
  expiresAt: string;
}

/** A device signed in to the account (an access token issued through the device flow). */
export interface SignedInDevice {
  id: string;
  clientId: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function lookUpDeviceCode(userCode: string): Promise<PendingDevice> {
  return postJson('/api/store/device', { userCode });
}

export function decideOnDevice(userCode: string, decision: 'approve' | 'deny'): Promise<{ status: 'approved' | 'denied' }> {
  return postJson(`/api/store/device/${decision}`, { userCode });
}

export async function listMyDevices(): Promise<SignedInDevice[]> {
  return (await getJson<{ data: SignedInDevice[] }>('/api/store/devices')).data;
}

export function revokeDevice(id: string): Promise<void> {
  return deleteJson(`/api/store/devices/${encodeURIComponent(id)}`);
}
