import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { isApiError } from '../api/client';
import { listMyDevices, revokeDevice, type SignedInDevice } from '../api/devices';
import { formatDateTime } from '../format';
import { RequireSignIn } from '../RequireSignIn';
import { useSession } from '../session';
import { LoadStatus } from '../LoadStatus';
import { useAsync } from '../useAsync';
import { BusyStatus, FieldAlert } from '../ActionFeedback';

/** /devices: the devices signed in to the account through the device flow, each one revocable. */
export function MyDevicesPage() {
  return <RequireSignIn>{() => <MyDevices />}</RequireSignIn>;
}

function MyDevices() {
  const devices = useAsync(listMyDevices);
  const [revoked, setRevoked] = useState<string[]>([]);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { refresh } = useSession();
  const failure = devices.status === 'error' ? devices.error : null;

  useEffect(() => {
    if (isApiError(failure, 'unauthenticated')) refresh();
  }, [failure, refresh]);

  function handleRevoked(device: SignedInDevice, alreadyGone: boolean) {
    setRevoked((ids) => [...ids, device.id]);
    setAnnouncement(alreadyGone ? `${device.clientId} was already signed out.` : `${device.clientId} is signed out.`);
    headingRef.current?.focus(); // the focused button is gone with its row
  }

  const shown = devices.status === 'ready' ? devices.data.filter((device) => !revoked.includes(device.id)) : [];
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
      {devices.status === 'ready' && shown.length === 0 && <p className="empty">No devices are signed in to your account.</p>}
      {shown.length > 0 && (
        <ul className="device-list">
          {shown.map((device) => (
            <DeviceItem key={device.id} device={device} onRevoked={handleRevoked} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DeviceItem({ device, onRevoked }: { device: SignedInDevice; onRevoked: (device: SignedInDevice, alreadyGone: boolean) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const titleId = `device-${device.id}`;

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  async function handleRevoke() {
    setBusy(true);
    setError(null);
    try {
      await revokeDevice(device.id);
      onRevoked(device, false);
    } catch (caught) {
      if (isApiError(caught, 'not-found')) return onRevoked(device, true);
      setBusy(false);
      setError(caught instanceof Error ? caught.message : 'Something went wrong. Please try again.');
    }
  }

  function cancel() {
    setConfirming(false);
    setError(null);
    requestAnimationFrame(() => revokeRef.current?.focus());
  }

  return (
    <li className="device-card">
      <div>
        <h2 id={titleId}>{device.clientId}</h2>
        <dl className="device-facts">
          <dt>Approved</dt>
          <dd>
            <time dateTime={device.createdAt}>{formatDateTime(device.createdAt)}</time>
          </dd>
          <dt>Last used</dt>
          <dd>{device.lastUsedAt ? <time dateTime={device.lastUsedAt}>{formatDateTime(device.lastUsedAt)}</time> : 'Not used yet'}</dd>
        </dl>
      </div>
      {confirming ? (
        <div className="device-confirm">
          <p>Sign this device out? It will need a new code and your approval to sign in again.</p>
          <div className="actions">
            <button ref={confirmRef} type="button" className="button-danger" onClick={handleRevoke} disabled={busy}>
              Yes, revoke
            </button>
            <button type="button" className="button-quiet" onClick={cancel} disabled={busy}>
              Cancel
            </button>
            <BusyStatus busy={busy} text="Revoking…" />
          </div>
          <FieldAlert error={error} />
        </div>
      ) : (
        <button ref={revokeRef} type="button" className="button-quiet" onClick={() => setConfirming(true)} aria-describedby={titleId}>
          Revoke
        </button>
      )}
    </li>
  );
}
