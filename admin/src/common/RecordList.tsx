import type { ComponentProps, ReactElement, ReactNode } from 'react';
import { List, Pagination, useResourceContext, useTranslate, type DatagridProps, type SortPayload } from 'react-admin';
import { EmptyState } from './EmptyState';
import { ListActions } from './ListActions';
import { Rows, ROWS_PER_PAGE } from './Rows';

interface RecordListProps {
  filters?: ReactElement[];
  icon: ComponentProps<typeof EmptyState>['icon'];
  /** E.g. a create button, under the empty state's note. */
  emptyAction?: ReactNode;
  /** Said after the resource's own note in the empty state. */
  emptyNote?: ReactNode;
  sort?: SortPayload;
  /** Filters a list opens with (the person can clear them). */
  filterDefaultValues?: Record<string, unknown>;
  /** The list's own buttons, before the ones every list has (filters, create, saved filters, export). */
  actions?: ReactNode;
  /** False: no CSV export. Every list offers one otherwise (streamed by the API, with the list's filters and sort). */
  exporter?: boolean;
  /** Buttons for the selected rows (a bulk action), which makes the rows selectable; none by default. */
  bulkActionButtons?: DatagridProps['bulkActionButtons'];
  /** The empty state's words (catalog keys) when they are not under `resources.<name>`. */
  texts?: EmptyTexts;
  title?: string;
  /** A row's look by its record (e.g. dimmed when hidden). */
  rowSx?: DatagridProps['rowSx'];
  /** Rows per page when the list opens (one of ROWS_PER_PAGE); 10 unless a list is read as a whole table. */
  perPage?: number;
  /** The rows, when they are a ready-made Datagrid; otherwise `children` are the columns. */
  rows?: ReactElement;
  children?: ReactNode;
}

const NEWEST_FIRST: SortPayload = { field: 'createdAt', order: 'DESC' };

interface EmptyTexts {
  title: string;
  body: string;
  noMatch: string;
}

const RESOURCE_KEYS: EmptyTexts = { title: 'emptyTitle', body: 'emptyNote', noMatch: 'noneFound' };

/**
 * A resource's list as every console list is: newest first, a toolbar with filters, saved filters and the CSV export
 * (ListActions), an empty state that says what the records
 * are and where they come from (`resources.<name>.emptyTitle` and `emptyNote`) and a line when the filters match
 * nothing (`resources.<name>.noneFound`), or the keys under `texts`.
 */
export function RecordList({
  filters,
  icon,
  emptyAction,
  emptyNote,
  sort = NEWEST_FIRST,
  filterDefaultValues,
  actions,
  exporter = true,
  bulkActionButtons = false,
  texts,
  title,
  rowSx,
  perPage,
  rows,
  children,
}: RecordListProps) {
  const resource = useResourceContext();
  const translate = useTranslate();
  const key = (name: keyof EmptyTexts) => texts?.[name] ?? `resources.${resource}.${RESOURCE_KEYS[name]}`;
  return (
    <List
      title={title}
      filters={filters}
      filterDefaultValues={filterDefaultValues}
      exporter={false}
      sort={sort}
      perPage={perPage}
      pagination={<Pagination rowsPerPageOptions={ROWS_PER_PAGE} />}
      actions={<ListActions exporter={exporter}>{actions}</ListActions>}
      empty={
        <EmptyState icon={icon} title={translate(key('title'))} action={emptyAction}>
          {translate(key('body'))}
          {emptyNote ? <> {emptyNote}</> : null}
        </EmptyState>
      }
    >
      {rows ?? (
        <Rows empty={key('noMatch')} rowSx={rowSx} bulkActionButtons={bulkActionButtons}>
          {children}
        </Rows>
      )}
    </List>
  );
}
