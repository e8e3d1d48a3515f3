import type { ReactElement, ReactNode } from 'react';
import { Show, SimpleShowLayout } from 'react-admin';

interface RecordShowProps {
  title?: ReactElement | string;
  /** The buttons above the record (react-admin's default: Edit when the resource has an edit screen). */
  actions?: ReactElement | false;
  /** The fields, one under another (e.g. the helpers of columns.tsx). */
  children: ReactNode;
}

/** A record's page as most console pages are: its fields one under another, each with its label. */
export function RecordShow({ title, actions, children }: RecordShowProps) {
  return (
    <Show title={title} actions={actions}>
      <SimpleShowLayout>{children}</SimpleShowLayout>
    </Show>
  );
}
