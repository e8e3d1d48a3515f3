import { useEffect, useState } from 'react';
import { endViewAs } from './api/identity';
import { useSession } from './session';

const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * On every page while support views the storefront as someone: whose account, that nothing can be changed, until
 * when, and a way out. When the view lapses the page reloads as the staff member's own.
 */
export function ViewAsBanner() {
  const { state } = useSession();
  const [ending, setEnding] = useState(false);
  const viewAs = state.status === 'signed-in' ? state.viewAs : null;

  useEffect(() => {
    if (!viewAs) return;
    const left = Date.parse(viewAs.expiresAt) - Date.now();
    const timer = setTimeout(() => window.location.reload(), Math.max(0, left) + 1000);
    return () => clearTimeout(timer);
  }, [viewAs]);

  if (!viewAs || state.status !== 'signed-in') return null;
  const end = async () => {
    setEnding(true);
    await endViewAs().catch(() => undefined);
    window.location.assign(`/admin/#/users/${state.user.id}/show/timeline`);
  };
  return (
    <div className="view-as-banner" role="region" aria-label="Support view">
      <p>
        <strong>Viewing as {state.user.email}</strong> (support: {viewAs.staffEmail}), read-only until{' '}
        {time(viewAs.expiresAt)}. Nothing you do here is saved. Reason: {viewAs.reason}
      </p>
      <button type="button" className="button" onClick={end} disabled={ending}>
        {ending ? 'Ending…' : 'End view'}
      </button>
    </div>
  );
}
