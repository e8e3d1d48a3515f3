import { Box, Chip, IconButton, LinearProgress, Link as MuiLink, Tooltip, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import {
  Datagrid,
  DateField,
  FunctionField,
  Link,
  Pagination,
  ReferenceField,
  ReferenceManyField,
  Show,
  TabbedShowLayout,
  TextField,
  useCreatePath,
  useNotify,
  useRecordContext,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { formatMoney } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { section } from '../common/Section';
import { StatusChipField } from '../common/StatusChipField';
import { PURCHASE_STATUS_LOOKS, type Purchase } from '../purchases/choices';
import { UserNameAndEmail } from '../users/UserNameAndEmail';
import { RevokeSeatButton } from './RevokeSeatButton';
import { GRANTING_STATUSES, grantsAccess } from '../../../api/src/shared/purchase-status';
import { inviteUrl, seatsFree, type BulkPurchase } from './types';

function Seats(_props: { label?: string }) {
  const team = useRecordContext<BulkPurchase>();
  if (!team) return null;
  const used = team.seatsTotal > 0 ? Math.round((team.seatsUsed / team.seatsTotal) * 100) : 0;
  return (
    <Box sx={{ maxWidth: 360 }}>
      <Typography variant="body2">
        {team.seatsTotal} seats: {team.seatsUsed} used, {seatsFree(team)} free
      </Typography>
      <LinearProgress
        variant="determinate"
        value={used}
        aria-label={`${team.seatsUsed} of ${team.seatsTotal} seats used`}
        sx={{ mt: 0.5, height: 8, borderRadius: 1 }}
      />
    </Box>
  );
}

/** The link members claim a seat with, and a button that copies it. */
function InviteLink(_props: { label?: string }) {
  const team = useRecordContext<BulkPurchase>();
  const notify = useNotify();
  if (!team) return null;
  if (!grantsAccess(team.status)) {
    return (
      <Typography variant="body2" color="text.secondary">
        Inactive: the team purchase is {team.status.toLowerCase()}, so nobody can claim a seat.
      </Typography>
    );
  }
  const url = inviteUrl(team);
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => notify('Invite link copied.', { type: 'info' }),
      () => notify('Copying is not allowed here: select the link instead.', { type: 'warning' }),
    );
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {url}
      </Typography>
      <Tooltip title="Copy the invite link">
        <IconButton size="small" aria-label="Copy the invite link" onClick={() => void copy()}>
          <ContentCopyIcon fontSize="inherit" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function NoMembers({ team }: { team: BulkPurchase }) {
  const active = grantsAccess(team.status);
  return (
    <EmptyState icon={GroupAddIcon} title="No one has claimed a seat yet">
      {team.seatsTotal} {team.seatsTotal === 1 ? 'seat is' : 'seats are'} waiting. The buyer's own purchase gives no
      access by itself: the buyer claims a seat like anyone else.{' '}
      {active ? (
        <>Members join through the invite link above, signed in with their own email.</>
      ) : (
        <>The team is {team.status.toLowerCase()}: no one can join it.</>
      )}
    </EmptyState>
  );
}

/** The people holding a seat (purchases redeemed with the team coupon that still grant access), first joined first. */
function Members(_props: { label?: false }) {
  const team = useRecordContext<BulkPurchase>();
  if (!team) return null;
  return section(
    'Members',
    null,
    <ReferenceManyField
      reference="purchases"
      source="bulkCouponId"
      target="redeemedBulkCouponId"
      filter={{ status: GRANTING_STATUSES }}
      sort={{ field: 'createdAt', order: 'ASC' }}
      perPage={50}
      pagination={<Pagination />}
    >
      <Datagrid aria-label="Members" rowClick="show" bulkActionButtons={false} empty={<NoMembers team={team} />}>
        <ReferenceField source="userId" reference="users" link="show" label="Member" sortable={false}>
          <UserNameAndEmail />
        </ReferenceField>
        <FunctionField<Purchase>
          label=""
          render={(member) =>
            member.userId === team.userId ? <Chip size="small" variant="outlined" label="Buyer" /> : null
          }
        />
        <DateField source="createdAt" label="Joined" showTime />
        <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} sortable={false} />
        <RevokeSeatButton team={team} label="" />
      </Datagrid>
    </ReferenceManyField>,
    'Revoking a seat ends that member’s access (their progress stays with them) and frees the seat for someone else. The member is emailed, and the invite link refuses them until the team’s owner lets them back in from their team page.',
  );
}

function TeamTitle() {
  const team = useRecordContext<BulkPurchase>();
  return (
    <>
      {team
        ? `Team purchase · ${team.seatsTotal} seats · ${formatMoney(team.totalAmount, team.currency)}`
        : 'Team purchase'}
    </>
  );
}

/** The same row in the purchases list (refunds start there). */
function PurchaseLink(_props: { label?: string }) {
  const team = useRecordContext<BulkPurchase>();
  const createPath = useCreatePath();
  if (!team) return null;
  return (
    <MuiLink component={Link} to={createPath({ resource: 'purchases', id: team.id, type: 'show' })} variant="body2">
      Open as a purchase
    </MuiLink>
  );
}

/** A team: its seats, invite link and members (with Revoke seat) first; the purchase's own details second. */
export function TeamShow() {
  return (
    <Show title={<TeamTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Seats and members">
          <ReferenceField source="productId" reference="products" link="show" />
          <ReferenceField source="userId" reference="users" link="show" />
          <Seats label="Seats" />
          <InviteLink label="Invite link" />
          <Members label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Purchase" path="purchase">
          <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} />
          <MoneyField source="totalAmount" />
          <ReferenceField source="bulkCouponId" reference="coupons" link="show" />
          <TextField source="inviteCode" emptyText="—" />
          <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" emptyText="—" />
          <DateField source="createdAt" showTime />
          <PurchaseLink label="The buyer's purchase" />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
