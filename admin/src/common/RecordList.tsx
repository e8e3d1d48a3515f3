import type { ComponentProps, ReactElement, ReactNode } from 'react';
import { List, useResourceContext, useTranslate, type SortPayload } from 'react-admin';
import { EmptyState } from './EmptyState';
import { Rows } from './Rows';

interface RecordListProps {
  filters?: ReactElement[];
  icon: ComponentProps<typeof EmptyState>['icon'];
  /** E.g. a create button, under the empty state's note. */
  emptyAction?: ReactNode;
  /** Said after the resource's own note in the empty state. */
  emptyNote?: ReactNode;
  sort?: SortPayload;
  actions?: ReactElement | false;
  /** Offer the CSV export (most lists do not: their records are read on their pages). */
  exporter?: boolean;
  /** The rows, when they are a ready-made Datagrid; otherwise `children` are the columns. */
  rows?: ReactElement;
  children?: ReactNode;
}

const NEWEST_FIRST: SortPayload = { field: 'createdAt', order: 'DESC' };

/**
 * A resource's list as every console list is: newest first, no export, an empty state that says what the records
 * are and where they come from (`resources.<name>.emptyTitle` and `emptyNote`) and a line when the filters match
 * nothing (`resources.<name>.noneFound`).
 */
export function RecordList({
  filters,
  icon,
  emptyAction,
  emptyNote,
  sort = NEWEST_FIRST,
  actions,
  exporter = false,
  rows,
  children,
}: RecordListProps) {
  const resource = useResourceContext();
  const translate = useTranslate();
  const key = `resources.${resource}`;
  return (
    <List
      filters={filters}
      exporter={exporter ? undefined : false}
      sort={sort}
      actions={actions}
      empty={
        <EmptyState icon={icon} title={translate(`${key}.emptyTitle`)} action={emptyAction}>
          {translate(`${key}.emptyNote`)}
          {emptyNote ? <> {emptyNote}</> : null}
        </EmptyState>
      }
    >
      {rows ?? <Rows empty={`${key}.noneFound`}>{children}</Rows>}
    </List>
  );
}
