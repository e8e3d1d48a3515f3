import GavelIcon from '@mui/icons-material/Gavel';
import type { ReactNode } from 'react';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
} from 'react-admin';
import { ChargeMoneyField } from '../common/ChargeMoneyField';
import { NoneFound } from '../common/EmptyState';
import { dateRangeFilters, moneyRangeFilters } from '../common/inputs';
import { IdentifierTitle, MerchantList } from '../common/MerchantRecord';
import { StatusChipField, type ChipLook } from '../common/StatusChipField';
import { PurchaseRows } from '../purchases/PurchaseRows';

export const DISPUTE_STATUS_LOOKS: Record<string, ChipLook> = {
  open: { label: 'Open', color: 'warning' },
  won: { label: 'Won', color: 'success' },
  lost: { label: 'Lost', color: 'error' },
};

const DISPUTE_STATUS_CHOICES = [
  { id: 'open', name: 'Open' },
  { id: 'won', name: 'Won' },
  { id: 'lost', name: 'Lost' },
];

const NOTE =
  'A dispute (chargeback) is opened by the buyer at their bank and reported by the payment provider; the purchase loses access while it is open and gets it back if the dispute is won. Answer disputes at the provider; they cannot be changed here.';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search provider id" />,
  <SelectInput key="status" source="status" choices={DISPUTE_STATUS_CHOICES} alwaysOn />,
  <ReferenceInput key="merchantChargeId" source="merchantChargeId" reference="merchant-charges">
    <AutocompleteInput label="Charge" />
  </ReferenceInput>,
  ...moneyRangeFilters('amount', 'Amount'),
  <ReferenceInput key="merchantAccountId" source="merchantAccountId" reference="merchant-accounts">
    <SelectInput label="Merchant account" />
  </ReferenceInput>,
  ...dateRangeFilters('createdAt', 'Opened'),
  ...dateRangeFilters('closedAt', 'Closed'),
];

/** Disputes as rows, in the list and inside a charge's or a purchase's page (a ReferenceManyField). */
export function DisputeRows({ empty, hideCharge = false }: { empty: ReactNode; hideCharge?: boolean }) {
  return (
    <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>{empty}</NoneFound>}>
      <DateField source="createdAt" showTime />
      <StatusChipField source="status" looks={DISPUTE_STATUS_LOOKS} />
      <ChargeMoneyField source="amount" />
      <TextField source="reason" sortable={false} emptyText="—" />
      <DateField source="closedAt" showTime emptyText="—" />
      {hideCharge ? null : (
        <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" sortable={false} />
      )}
      <TextField source="identifier" sortable={false} />
    </Datagrid>
  );
}

function MerchantDisputeList() {
  return (
    <MerchantList filters={filters} icon={GavelIcon} emptyTitle="No disputes" note={NOTE}>
      <DisputeRows empty="No dispute matches these filters." />
    </MerchantList>
  );
}

function MerchantDisputeShow() {
  return (
    <Show title={<IdentifierTitle noun="Dispute" />}>
      <SimpleShowLayout>
        <StatusChipField source="status" looks={DISPUTE_STATUS_LOOKS} />
        <ChargeMoneyField source="amount" />
        <TextField source="reason" emptyText="—" />
        <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" />
        <ReferenceManyField
          label="Purchase"
          reference="purchases"
          source="merchantChargeId"
          target="merchantChargeId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <PurchaseRows empty="No purchase records this charge." />
        </ReferenceManyField>
        <DateField source="createdAt" showTime />
        <DateField source="closedAt" showTime emptyText="Still open" />
        <TextField source="identifier" />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

export default {
  list: MerchantDisputeList,
  show: MerchantDisputeShow,
  icon: GavelIcon,
  recordRepresentation: 'identifier',
};
