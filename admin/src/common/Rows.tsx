import type { ReactElement, ReactNode } from 'react';
import {
  Datagrid,
  Pagination,
  ReferenceManyField,
  useTranslate,
  type DatagridProps,
  type SortPayload,
} from 'react-admin';
import { NoneFound } from './EmptyState';

/** Up to 250 rows a page (the API serves 500, MAX_PAGE_SIZE); react-admin's own choices stop at 50. */
export const ROWS_PER_PAGE = [10, 25, 50, 100, 250];

type RowsProps = Omit<DatagridProps, 'empty'> & {
  /** The line shown when nothing matches: a translation key. */
  empty: string;
};

/** Records as rows that open on click, with a line when there are none; inside a List or a ReferenceManyField. */
export function Rows({ empty, rowClick = 'show', children, ...props }: RowsProps) {
  const translate = useTranslate();
  return (
    <Datagrid
      rowClick={rowClick}
      bulkActionButtons={false}
      empty={<NoneFound>{translate(empty)}</NoneFound>}
      {...props}
    >
      {children}
    </Datagrid>
  );
}

export interface RelatedRowsProps extends Omit<RowsProps, 'children' | 'empty'> {
  empty?: string;
  /** The rows, when they are a ready-made Datagrid; otherwise `children` are the columns. */
  rows?: ReactElement;
  reference: string;
  /** The field of the related records that points at this record. */
  target: string;
  /** The field of this record they point at, when not its id. */
  source?: string;
  /** The label above them in a show layout (a translation key), or false for none. */
  label?: string | false;
  sort?: SortPayload;
  perPage?: number;
  paginated?: boolean;
  children?: ReactNode;
}

const NEWEST_FIRST: SortPayload = { field: 'createdAt', order: 'DESC' };

/** The records of another resource that point at this one, as rows (a ReferenceManyField of Rows). */
export function RelatedRows({
  reference,
  target,
  source,
  label,
  sort = NEWEST_FIRST,
  perPage,
  paginated = false,
  rows,
  empty = '',
  children,
  ...props
}: RelatedRowsProps) {
  return (
    <ReferenceManyField
      label={label}
      reference={reference}
      source={source}
      target={target}
      sort={sort}
      perPage={perPage}
      pagination={paginated ? <Pagination rowsPerPageOptions={ROWS_PER_PAGE} /> : undefined}
    >
      {rows ?? (
        <Rows empty={empty} {...props}>
          {children}
        </Rows>
      )}
    </ReferenceManyField>
  );
}
