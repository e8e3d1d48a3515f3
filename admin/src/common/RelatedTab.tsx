import { TabbedShowLayout } from 'react-admin';
import { canRead } from '../permissions';
import { RelatedRows, type RelatedRowsProps } from './Rows';

/**
 * A show page's tab that lists the records of another resource pointing at this one, a page at a time, for the
 * roles that may read that resource (nothing for the others). A function, not a component: TabbedShowLayout
 * reads its tabs' own props.
 */
export function relatedTab(permissions: unknown, tab: string, path: string, rows: RelatedRowsProps) {
  if (!canRead(permissions, rows.reference)) return null;
  return (
    <TabbedShowLayout.Tab key={path} label={tab} path={path}>
      <RelatedRows paginated {...rows} />
    </TabbedShowLayout.Tab>
  );
}
