import type { ReactElement, ReactNode } from 'react';
import {
  DateField,
  Edit,
  Labeled,
  ReferenceField,
  ReferenceInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextField,
  Toolbar,
  required,
  useRecordContext,
} from 'react-admin';
import { dateRangeFilters } from './inputs';
import { SearchInput } from './SearchInput';
import { ACTIVE_INACTIVE_CHOICES } from './chipLooks';
import { useText } from './useText';

function SaveOnly() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}

/**
 * The one edit screen of the payment provider's mirrors: only `status` is writable (the provider's data is
 * copied by checkout and fulfilment). The identifying fields are shown for context.
 */
export function MerchantStatusEdit({ children, showAccount = true }: { children?: ReactNode; showAccount?: boolean }) {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<SaveOnly />}>
        <Labeled>
          <TextField source="identifier" />
        </Labeled>
        {showAccount ? (
          <Labeled>
            <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
          </Labeled>
        ) : null}
        {children}
        <Labeled>
          <DateField source="createdAt" showTime />
        </Labeled>
        <SelectInput
          source="status"
          choices={ACTIVE_INACTIVE_CHOICES}
          validate={required()}
          helperText="console.common.merchant.statusHelp"
        />
      </SimpleForm>
    </Edit>
  );
}

/** The filters every mirror of a provider object has: provider id search, status, account and creation date. */
export function merchantFilters(...extra: ReactElement[]): ReactElement[] {
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder="console.common.merchant.search" />,
    <SelectInput key="status" source="status" choices={ACTIVE_INACTIVE_CHOICES} alwaysOn />,
    ...extra,
    <ReferenceInput key="merchantAccountId" source="merchantAccountId" reference="merchant-accounts">
      <SelectInput label="console.common.merchant.account" />
    </ReferenceInput>,
    ...dateRangeFilters('createdAt', 'Created'),
  ];
}

export const MERCHANT_NOTE =
  'A mirror of an object at the payment provider, written by checkout and fulfilment. Only its status can be changed here.';

/** A provider record's page title: "Refund · re_123", or just the noun (a key or text) while the record loads. */
export function IdentifierTitle({ noun }: { noun: string }) {
  const record = useRecordContext<{ identifier: string }>();
  const name = useText()(noun);
  return <>{record ? `${name} · ${record.identifier}` : name}</>;
}
