import type { ReactNode } from 'react';
import { CreateButton, FilterButton, TopToolbar, useResourceDefinition } from 'react-admin';
import { ListExportButton } from './ListExportButton';
import { SavedFiltersMenu } from './SavedFiltersMenu';

/**
 * Every console list's toolbar: a list's own buttons first (`children`), then the filters to add, Create (when the
 * resource may be created), the person's saved filters, and the CSV export. The filter menu's own saved queries are
 * off: they live in one browser; ours follow the person.
 */
export function ListActions({ children, exporter = true }: { children?: ReactNode; exporter?: boolean }) {
  const { hasCreate } = useResourceDefinition();
  return (
    // Wrapping, so a list with many buttons stays inside a 1024 px window (react-admin's toolbar never wraps).
    <TopToolbar sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
      {children}
      <FilterButton disableSaveQuery />
      {hasCreate && <CreateButton />}
      <SavedFiltersMenu />
      {exporter && <ListExportButton />}
    </TopToolbar>
  );
}
