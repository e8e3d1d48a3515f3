import type { ComponentProps, ComponentType, ReactElement } from 'react';
import { Labeled, Show, SimpleShowLayout, useTranslate, type DatagridProps, type SortPayload } from 'react-admin';
import type { EmptyState } from '../common/EmptyState';
import { MERCHANT_NOTE, MerchantStatusEdit } from '../common/MerchantRecord';
import { RecordList } from '../common/RecordList';

/**
 * One payment-provider resource (a charge, a refund, a customer ...) described as data: its columns, its show
 * fields, its filters and what its edit screen shows. `merchantScreens` turns it into the resource's screens.
 */
export interface MerchantRecordDefinition {
  icon: ComponentProps<typeof EmptyState>['icon'];
  filters: ReactElement[];
  list: ReactElement[];
  show: ReactElement[];
  /** Fields shown for context above the status select; without them the resource is read-only (no edit). */
  edit?: ReactElement[];
  /** A mirror of a provider object that checkout writes: its empty state says so. */
  mirror?: boolean;
  title?: ReactElement;
  recordRepresentation?: string | ((record: never) => string);
  /** The list's order, when it is not newest first, and the filters it opens with. */
  sort?: SortPayload;
  filterDefaultValues?: Record<string, unknown>;
  /** A row's look by its record (e.g. an overdue dispute). */
  rowSx?: DatagridProps['rowSx'];
  /** Shown above the list (e.g. the figures of what it lists). */
  above?: ReactElement;
}

/** The list, show and (for mirrors whose status staff may change) edit screens of one provider resource. */
export function merchantScreens(name: string, definition: MerchantRecordDefinition) {
  const { icon, filters, list, show, edit, mirror = false, title, recordRepresentation = 'identifier' } = definition;
  function MerchantList() {
    const translate = useTranslate();
    return (
      <>
        {definition.above}
        <RecordList
          filters={filters}
          icon={icon}
          emptyNote={mirror ? translate(MERCHANT_NOTE, { _: MERCHANT_NOTE }) : undefined}
          sort={definition.sort}
          filterDefaultValues={definition.filterDefaultValues}
          rowSx={definition.rowSx}
        >
          {list}
        </RecordList>
      </>
    );
  }
  function MerchantShow() {
    return (
      <Show title={title}>
        <SimpleShowLayout>{show}</SimpleShowLayout>
      </Show>
    );
  }
  function MerchantEdit() {
    return (
      <MerchantStatusEdit showAccount={name !== 'merchant-accounts'}>
        {edit?.map((field) => (
          <Labeled key={field.key}>{field}</Labeled>
        ))}
      </MerchantStatusEdit>
    );
  }
  const screens: { list: ComponentType; show: ComponentType; edit?: ComponentType } = {
    list: MerchantList,
    show: MerchantShow,
  };
  if (edit) screens.edit = MerchantEdit;
  return { ...screens, icon, recordRepresentation };
}
