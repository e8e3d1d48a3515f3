import type * as Identity from '@contract/identity/schemas';
import type { Wire } from '@contract/shared/wire';
import { deleteJson, getJson, postJson } from './client';

/** A device waiting for approval, as the /activate page shows it: the app's registered name. */
export type PendingDevice = Wire<Identity.PendingDevice>;

/** A device signed in to the account (an access token issued through the device flow). */
export type SignedInDevice = Wire<Identity.SignedInDevice>;

/** What "sign out everywhere" ended: other browser sessions and device tokens. */
export type SignedOutEverywhere = Identity.SignedOut;

/** POST /api/store/device/approve and /deny: what became of the device's request. */
export type DeviceDecision = Identity.DeviceDecision;

/** The devices page's view: the device list and how many other browser sessions there are. */
export interface MyDevices {
  devices: SignedInDevice[];
  /** Browser sessions of the account besides this one. */
  otherSessions: number;
}

export function lookUpDeviceCode(userCode: string): Promise<PendingDevice> {
  return postJson('/api/store/device', { userCode });
}

export function decideOnDevice(userCode: string, decision: 'approve' | 'deny'): Promise<DeviceDecision> {
  return postJson(`/api/store/device/${decision}`, { userCode });
}

export async function listMyDevices(): Promise<MyDevices> {
  const { data, otherSessions } = await getJson<Wire<Identity.DevicesAnswer>>('/api/store/devices');
  return { devices: data, otherSessions };
}

export function revokeDevice(id: string): Promise<void> {
  return deleteJson(`/api/store/devices/${encodeURIComponent(id)}`);
}

/** Signs out every other browser and every device; this browser stays signed in. */
export function signOutEverywhere(): Promise<SignedOutEverywhere> {
  return postJson('/api/store/auth/sign-out-everywhere');
}
