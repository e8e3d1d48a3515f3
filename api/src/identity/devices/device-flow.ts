import { type CodeEntry, decideCode, lookupCode } from './code-entry';
import { requestCode } from './code-request';
import type { DeviceFlowDeps } from './device-codes';
import { listDevices, resolveBearer, revokeDevice } from './device-tokens';
import { poll } from './token-poll';

export { DEVICE_CODE_GRANT, USER_CODE_ALPHABET, WRONG_CODE_LIMIT } from './device-codes';
export type { TokenError } from './token-poll';

/**
 * Signing in a device (RFC 8628), one module per side: the device's (code-request.ts asks for a code, token-poll.ts
 * polls for the token), the person's on /activate (code-entry.ts), and the tokens issued (device-tokens.ts);
 * device-codes.ts holds the codes' shape and limits.
 */
export function deviceFlow(deps: DeviceFlowDeps) {
  return {
    requestCode: (clientId: string) => requestCode(deps, clientId),
    poll: (input: { deviceCode: string; clientId: string }) => poll(deps, input),
    lookup: (input: CodeEntry) => lookupCode(deps, input),
    approve: (input: CodeEntry) => decideCode(deps, input, 'approve'),
    deny: (input: CodeEntry) => decideCode(deps, input, 'deny'),
    resolveBearer: (token: string) => resolveBearer(deps, token),
    listDevices: (userId: string) => listDevices(deps, userId),
    revokeDevice: (userId: string, id: string) => revokeDevice(deps, userId, id),
  };
}

export type DeviceFlow = ReturnType<typeof deviceFlow>;
