import { hashSecret, newSecret } from '../secrets';
import {
  clientName,
  DEVICE_CODE_TTL_SECONDS,
  type DeviceFlowDeps,
  formatUserCode,
  newUserCode,
  POLL_INTERVAL_SECONDS,
} from './device-codes';

/** RFC 8628 §3.1: a code for a registered client; null for any other client_id (answered invalid_client). */
export async function requestCode({ db, clock, config }: DeviceFlowDeps, clientId: string) {
  if (!(await clientName(db, clientId))) return null;
  for (let attempt = 0; ; attempt++) {
    const deviceCode = newSecret();
    const userCode = newUserCode();
    try {
      await db('deviceVerifications').insert({
        deviceCode: hashSecret(deviceCode),
        userCode,
        clientId,
        intervalSeconds: POLL_INTERVAL_SECONDS,
        expires: new Date(clock.now().getTime() + DEVICE_CODE_TTL_SECONDS * 1000),
      });
    } catch (error) {
      // 20^8 codes: a clash with a live one is rare; draw again.
      if ((error as { code?: string }).code === '23505' && attempt < 5) continue;
      throw error;
    }
    const verificationUri = new URL('/activate', config.publicUrl).toString();
    return {
      device_code: deviceCode,
      user_code: formatUserCode(userCode),
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(userCode)}`,
      expires_in: DEVICE_CODE_TTL_SECONDS,
      interval: POLL_INTERVAL_SECONDS,
    };
  }
}
