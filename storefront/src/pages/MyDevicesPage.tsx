import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { isApiError } from '../api/client';
import {
  listMyDevices,
  revokeDevice,
  signOutEverywhere,
  type SignedInDevice,
  type SignedOutEverywhere,
} from '../api/devices';
import { formatDate, formatDateTime } from '../format';
import { RequireSignIn } from '../RequireSignIn';
import { useSession } from '../session';
import { LoadStatus } from '../LoadStatus';
import { ConfirmActions } from '../ActionFeedback';
import { failureText, useConfirmation } from '../useConfirmation';
import { useAccountAsync } from '../useAccountAsync';
import { useDocumentTitle } from '../useDocumentTitle';

/** /devices: the devices signed in to the account through the device flow, each one revocable. */
export function MyDevicesPage() {
  useDocumentTitle('My devices');
  return <RequireSignIn>{() => <MyDevices />}</RequireSignIn>;
}

function MyDevices() {
  const devices = useAccountAsync(listMyDevices);
  const [revoked, setRevoked] = useState<string[]>([]);
  const [everywhere, setEverywhere] = useState<SignedOutEverywhere | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);

  function handleRevoked(device: SignedInDevice, alreadyGone: boolean) {
    setRevoked((ids) => [...ids, device.id]);
    setAnnouncement(
      alreadyGone ? `${device.clientName} was already signed out.` : `${device.clientName} is signed out.`,
    );
    headingRef.current?.focus(); // the focused button is gone with its row
  }

  function handleSignedOutEverywhere(result: SignedOutEverywhere) {
    setEverywhere(result);
    setAnnouncement(`Signed out ${countSignIns(result.sessions, result.devices)}. This browser is still signed in.`);
    headingRef.current?.focus();
  }

  const loaded = devices.status === 'ready' ? devices.data : null;
  const shown = loaded && !everywhere ? loaded.devices.filter((device) => !revoked.includes(device.id)) : [];
  return (
    <section>
      <h1 ref={headingRef} tabIndex={-1}>
        My devices
      </h1>
      <p className="hint">
        Apps and devices you approved with a code. Revoke any you no longer use or do not recognise. To add one, enter
        its code on the <Link to="/activate">device activation page</Link>.
      </p>
      <p role="status" className="status-message">
        {announcement}
      </p>
      <LoadStatus state={devices} retry={devices.retry} what="your devices" />
      {loaded && shown.length === 0 && <p className="empty">No devices are signed in to your account.</p>}
      {shown.length > 0 && (
        <ul className="device-list">
          {shown.map((device) => (
            <DeviceItem key={device.id} device={device} onRevoked={handleRevoked} />
          ))}
        </ul>
      )}
      {loaded && (
        <SignOutEverywhere
          otherSessions={everywhere ? 0 : loaded.otherSessions}
          devices={shown.length}
          onDone={handleSignedOutEverywhere}
        />
      )}
    </section>
  );
}

/** "2 other browsers and 1 device", "no other browser or device". */
function countSignIns(sessions: number, devices: number): string {
  if (!sessions && !devices) return 'no other browser or device';
  const browsers = sessions === 1 ? '1 other browser' : `${sessions} other browsers`;
  const apps = devices === 1 ? '1 device' : `${devices} devices`;
  return [sessions ? browsers : '', devices ? apps : ''].filter(Boolean).join(' and ');
}

/** Ends every other browser session and every device token of the account, after confirmation. */
function SignOutEverywhere(props: {
  otherSessions: number;
  devices: number;
  onDone: (result: SignedOutEverywhere) => void;
}) {
  const { refresh } = useSession();
  const { confirming, ask, startRef, actions } = useConfirmation(async () => {
    try {
      props.onDone(await signOutEverywhere());
    } catch (caught) {
      if (isApiError(caught, 'unauthenticated')) refresh();
      throw caught;
    }
  }, failureText);

  const nothingElse = !props.otherSessions && !props.devices;
  return (
    <section className="sign-out-everywhere" aria-labelledby="sign-out-everywhere-title">
      <h2 id="sign-out-everywhere-title">Sign out everywhere</h2>
      <p>
        {nothingElse
          ? 'No other browser or device is signed in to your account.'
          : `Your account is also signed in on ${countSignIns(props.otherSessions, props.devices)}.`}{' '}
        If you lost a device or see a sign-in you do not recognise, sign out everywhere: every other browser and every
        device. This browser stays signed in.
      </p>
      {confirming ? (
        <div className="device-confirm">
          <p>
            Sign out every other browser and every device? They will need to sign in again, and each device will need a
            new code and your approval.
          </p>
          <ConfirmActions {...actions} label="Yes, sign out everywhere" busyText="Signing out…" />
        </div>
      ) : (
        <button ref={startRef} type="button" className="button-quiet" onClick={ask}>
          Sign out everywhere
        </button>
      )}
    </section>
  );
}

function DeviceItem({
  device,
  onRevoked,
}: {
  device: SignedInDevice;
  onRevoked: (device: SignedInDevice, alreadyGone: boolean) => void;
}) {
  const titleId = `device-${device.id}`;
  const { confirming, ask, startRef, actions } = useConfirmation(async () => {
    try {
      await revokeDevice(device.id);
      onRevoked(device, false);
    } catch (caught) {
      if (!isApiError(caught, 'not-found')) throw caught;
      onRevoked(device, true);
    }
  }, failureText);

  return (
    <li className="device-card">
      <div>
        <h2 id={titleId}>{device.clientName}</h2>
        <dl className="device-facts">
          <dt>Approved</dt>
          <dd>
            <time dateTime={device.createdAt}>{formatDateTime(device.createdAt)}</time>
          </dd>
          <dt>Last used</dt>
          <dd>
            {device.lastUsedAt ? (
              <time dateTime={device.lastUsedAt}>{formatDateTime(device.lastUsedAt)}</time>
            ) : (
              'Not used yet'
            )}
          </dd>
          <dt>Expires if unused</dt>
          <dd>
            <time dateTime={device.idleExpiresAt}>{formatDate(device.idleExpiresAt)}</time>
          </dd>
        </dl>
      </div>
      {confirming ? (
        <div className="device-confirm">
          <p>Sign this device out? It will need a new code and your approval to sign in again.</p>
          <ConfirmActions {...actions} label="Yes, revoke" busyText="Revoking…" />
        </div>
      ) : (
        <button ref={startRef} type="button" className="button-quiet" onClick={ask} aria-describedby={titleId}>
          Revoke
        </button>
      )}
    </li>
  );
}
