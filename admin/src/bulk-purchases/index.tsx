import GroupsIcon from '@mui/icons-material/Groups';
import { Box, LinearProgress, Link as MuiLink, Typography } from '@mui/material';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  FunctionField,
  Link,
  List,
  NumberInput,
  Pagination,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  SelectInput,
  Show,
  TabbedShowLayout,
  TextField,
  useCreatePath,
  useRecordContext,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters } from '../common/inputs';
import { formatMoney } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { StatusChipField } from '../common/StatusChipField';
import { PURCHASE_STATUS_CHOICES, PURCHASE_STATUS_LOOKS, type Purchase } from '../purchases/choices';
import { PurchaseRows } from '../purchases/PurchaseRows';

export interface BulkPurchase extends Purchase {
  seatsTotal: number;
  seatsUsed: number;
  inviteCode: string | null;
}

const seatsFree = (team: BulkPurchase) => Math.max(0, team.seatsTotal - team.seatsUsed);

const filters = [
  <SelectInput key="status" source="status" choices={PURCHASE_STATUS_CHOICES} alwaysOn />,
  <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
    <AutocompleteInput label="Product" />
  </ReferenceInput>,
  <ReferenceInput key="userId" source="userId" reference="users" alwaysOn>
    <AutocompleteInput label="Buyer" />
  </ReferenceInput>,
  <NumberInput key="seatsUsed_gte" source="seatsUsed_gte" label="Seats used at least" step={1} />,
  <NumberInput key="seatsUsed_lte" source="seatsUsed_lte" label="Seats used at most" step={1} />,
  ...dateRangeFilters('createdAt', 'Purchased'),
];

function TeamList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      exporter={false}
      empty={
        <EmptyState icon={GroupsIcon} title="No team purchases yet">
          Buying more than one seat makes a team purchase: the buyer shares an invite link, and each member claims a seat.
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>No team purchase matches these filters.</NoneFound>}>
        <DateField source="createdAt" showTime />
        <ReferenceField source="userId" reference="users" link="show" sortable={false} />
        <ReferenceField source="productId" reference="products" link="show" sortable={false} />
        <FunctionField<BulkPurchase> source="seatsUsed" render={(t) => `${t.seatsUsed} / ${t.seatsTotal}`} />
        <FunctionField<BulkPurchase> source="seatsFree" render={seatsFree} sortable={false} />
        <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} sortable={false} />
        <MoneyField source="totalAmount" />
      </Datagrid>
    </List>
  );
}

function Seats(_props: { label?: string }) {
  const team = useRecordContext<BulkPurchase>();
  if (!team) return null;
  const used = team.seatsTotal > 0 ? Math.round((team.seatsUsed / team.seatsTotal) * 100) : 0;
  return (
    <Box sx={{ maxWidth: 360 }}>
      <Typography variant="body2">
        {team.seatsTotal} seats: {team.seatsUsed} used, {seatsFree(team)} free
      </Typography>
      <LinearProgress variant="determinate" value={used} aria-label={`${team.seatsUsed} of ${team.seatsTotal} seats used`} sx={{ mt: 0.5, height: 8, borderRadius: 1 }} />
    </Box>
  );
}

function TeamTitle() {
  const team = useRecordContext<BulkPurchase>();
  return <>{team ? `Team purchase · ${team.seatsTotal} seats · ${formatMoney(team.totalAmount, team.currency)}` : 'Team purchase'}</>;
}

function TeamShow() {
  return (
    <Show title={<TeamTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Summary">
          <ReferenceField source="productId" reference="products" link="show" />
          <ReferenceField source="userId" reference="users" link="show" />
          <Seats label="Seats" />
          <TextField source="inviteCode" emptyText="—" />
          <ReferenceField source="bulkCouponId" reference="coupons" link="show" />
          <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} />
          <MoneyField source="totalAmount" />
          <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" emptyText="—" />
          <DateField source="createdAt" showTime />
          <FunctionField<BulkPurchase> label="The buyer's purchase" render={() => <PurchaseLink />} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Members" path="members">
          <ReferenceManyField
            label={false}
            reference="purchases"
            source="bulkCouponId"
            target="redeemedBulkCouponId"
            sort={{ field: 'createdAt', order: 'DESC' }}
            pagination={<Pagination />}
          >
            <PurchaseRows hide={['productId']} empty="No member has claimed a seat yet." />
          </ReferenceManyField>
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}

/** The same row in the purchases list (refunds and transfers start there). */
function PurchaseLink() {
  const team = useRecordContext<BulkPurchase>();
  const createPath = useCreatePath();
  if (!team) return null;
  return (
    <MuiLink component={Link} to={createPath({ resource: 'purchases', id: team.id, type: 'show' })} variant="body2">
      Open as a purchase
    </MuiLink>
  );
}

export default {
  list: TeamList,
  show: TeamShow,
  icon: GroupsIcon,
  recordRepresentation: (t: BulkPurchase) => `Team of ${t.seatsTotal} · ${String(t.createdAt).slice(0, 10)}`,
};
