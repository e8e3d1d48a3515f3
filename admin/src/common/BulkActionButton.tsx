import type { ReactElement } from 'react';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  Confirm,
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
  useUnselectAll,
  useResourceContext,
} from 'react-admin';
import type { BulkActionName, ConsoleDataProvider } from '../dataProvider';

/** Each action's group of words in the catalog (console.lists.bulk.*). */
const MESSAGES: Record<BulkActionName, string> = {
  'coupons/deactivate': 'deactivateCoupons',
  'outbox-emails/resend': 'resendEmails',
  'jobs/retry': 'retryJobs',
};

/**
 * One of the console's bulk actions on the selected rows (one API call, one transaction), asked for first. Done, it
 * says how many were done and which were skipped and why, then clears the selection and refreshes the list.
 * Its words are the action's group under console.lists.bulk: `label`, `title`, `content` and `done` (all
 * pluralised by the count).
 */
export function BulkActionButton({ action, icon }: { action: BulkActionName; icon: ReactElement }) {
  const messages = `console.lists.bulk.${MESSAGES[action]}`;
  const resource = useResourceContext()!;
  const { selectedIds } = useListContext();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const [asking, setAsking] = useState(false);
  const count = selectedIds.length;
  const mutation = useMutation({
    mutationFn: () => dataProvider.bulkAction(action, selectedIds.map(String)),
    onSuccess: ({ data }) => {
      setAsking(false);
      const done = translate(`${messages}.done`, { smart_count: data.done });
      const reasons = [...new Set(data.skipped.map((s) => s.message))].join(' ');
      const skipped = data.skipped.length
        ? ` ${translate('console.lists.bulk.skipped', { smart_count: data.skipped.length, reasons })}`
        : '';
      notify(`${done}${skipped}`, { type: data.skipped.length ? 'warning' : 'success', autoHideDuration: 8000 });
      unselectAll();
      refresh();
    },
    onError: (error) => {
      setAsking(false);
      notify('console.lists.bulk.failed', {
        type: 'error',
        messageArgs: { message: error instanceof Error ? error.message : String(error) },
      });
      refresh();
    },
  });

  return (
    <>
      <Button label={`${messages}.label`} onClick={() => setAsking(true)} disabled={mutation.isPending}>
        {icon}
      </Button>
      <Confirm
        isOpen={asking}
        loading={mutation.isPending}
        title={translate(`${messages}.title`, { smart_count: count })}
        content={translate(`${messages}.content`)}
        onConfirm={() => mutation.mutate()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
