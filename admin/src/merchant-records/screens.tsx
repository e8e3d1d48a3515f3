import type { ComponentType, ReactElement } from 'react';
import { Labeled, Show, SimpleShowLayout, useTranslate, type DatagridProps, type SortPayload } from 'react-admin';
import { MERCHANT_NOTE, MerchantStatusEdit } from '../common/MerchantRecord';
import { RecordList } from '../common/RecordList';
import { MERCHANT_ENTRIES, type MerchantResource } from './entries';

/**
 * One payment-provider resource (a charge, a refund, a customer ...) described as data: its columns, its show
 * fields, its filters and what its edit screen shows. `merchantScreens` turns it into the resource's screens; its icon
 * and whether staff may edit it are in ./entries (known before the screens load).
 */
export interface MerchantRecordDefinition {
  filters: ReactElement[];
  list: ReactElement[];
  show: ReactElement[];
  /** Fields shown for context above the status select (of a resource its entry makes editable). */
  edit?: ReactElement[];
  /** A mirror of a provider object that checkout writes: its empty state says so. */
  mirror?: boolean;
  title?: ReactElement;
  /** The list's order, when it is not newest first, and the filters it opens with. */
  sort?: SortPayload;
  filterDefaultValues?: Record<string, unknown>;
  /** A row's look by its record (e.g. an overdue dispute). */
  rowSx?: DatagridProps['rowSx'];
  /** Shown above the list (e.g. the figures of what it lists). */
  above?: ReactElement;
}

/** The list, show and edit screens of one provider resource (its entry says whether the edit screen is offered). */
export function merchantScreens(name: MerchantResource, definition: MerchantRecordDefinition) {
  const { filters, list, show, edit, mirror = false, title } = definition;
  const { icon } = MERCHANT_ENTRIES[name];
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
  return { list: MerchantList, show: MerchantShow, edit: MerchantEdit } satisfies Record<string, ComponentType>;
}
