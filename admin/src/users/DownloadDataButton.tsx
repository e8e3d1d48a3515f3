import { useState } from 'react';
import { Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useDataProvider, useNotify, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';
import { canRevoke, mayActOnPerson } from '../permissions';
import type { User } from './types';

/** Hands the JSON to the browser as a file (a link clicked for the staff member, then let go). */
function saveJson(data: unknown, filename: string) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads everything held about the person shown (a request under GDPR answered by support), as the storefront's
 * own download; the API audits each one. Support and admins; staff accounts admins only (the API's rule).
 */
export function DownloadDataButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [busy, setBusy] = useState(false);
  if (!user || user.deletedAt || !canRevoke(permissions, 'sessions')) return null; // support and admins
  if (!mayActOnPerson(permissions, user)) return null;

  async function download() {
    setBusy(true);
    try {
      const { data, filename } = await dataProvider.getPersonalData(user!.id);
      saveJson(data, filename);
      notify('resources.users.personalData.done', { type: 'success', messageArgs: { file: filename } });
    } catch (error) {
      notify((error as Error).message || 'resources.users.personalData.failure', { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button size="small" startIcon={<DownloadIcon />} onClick={download} disabled={busy}>
      {translate(busy ? 'resources.users.personalData.busy' : 'resources.users.personalData.button')}
    </Button>
  );
}
