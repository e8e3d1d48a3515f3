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
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ROWS_PER_PAGE } from '../common/Rows';
import { formatMoney } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { section } from '../common/Section';
import { StatusChipField } from '../common/StatusChipField';
import { PURCHASE_STATUS_LOOKS, type Purchase } from '../purchases/choices';
import { UserNameAndEmail } from '../users/UserNameAndEmail';
import { AddSeatsButton } from './AddSeatsButton';
import { RevokeSeatButton } from './RevokeSeatButton';
import { RotateInviteButton } from './RotateInviteButton';
import { TeamRoster } from './TeamRoster';
import { GRANTING_STATUSES, grantsAccess } from '../../../api/src/shared/purchase-status';
import { inviteUrl, seatsFree, type TeamPurchase } from './types';

function Seats(_props: { label?: string }) {
  const team = useRecordContext<TeamPurchase>();
  const translate = useTranslate();
  if (!team) return null;
  const used = team.seatsTotal > 0 ? Math.round((team.seatsUsed / team.seatsTotal) * 100) : 0;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Box sx={{ width: 360, maxWidth: '100%' }}>
        <Typography variant="body2">
          {translate('console.teams.seats', { total: team.seatsTotal, used: team.seatsUsed, free: seatsFree(team) })}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={used}
          aria-label={translate('console.teams.seatsUsed', { used: team.seatsUsed, total: team.seatsTotal })}
          sx={{ mt: 0.5, height: 8, borderRadius: 1 }}
        />
      </Box>
      <AddSeatsButton team={team} />
    </Box>
  );
}

/** The link members claim a seat with, and a button that copies it. */
function InviteLink(_props: { label?: string }) {
  const team = useRecordContext<TeamPurchase>();
  const notify = useNotify();
  const translate = useTranslate();
  if (!team) return null;
  if (!grantsAccess(team.status)) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('console.teams.inactive', { status: team.status.toLowerCase() })}
      </Typography>
    );
  }
  const url = inviteUrl(team);
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => notify('console.teams.invite.copied', { type: 'info' }),
      () => notify('console.teams.invite.copyRefused', { type: 'warning' }),
    );
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {url}
      </Typography>
      <Tooltip title={translate('console.teams.invite.copy')}>
        <IconButton size="small" aria-label={translate('console.teams.invite.copy')} onClick={() => void copy()}>
          <ContentCopyIcon fontSize="inherit" />
        </IconButton>
      </Tooltip>
      <RotateInviteButton team={team} />
    </Box>
  );
}

function NoMembers({ team }: { team: TeamPurchase }) {
  const translate = useTranslate();
  const active = grantsAccess(team.status);
  return (
    <EmptyState icon={GroupAddIcon} title="console.teams.members.empty">
      {translate('console.teams.members.waiting', { smart_count: team.seatsTotal })}{' '}
      {active
        ? translate('console.teams.members.joinByLink')
        : translate('console.teams.members.closed', { status: team.status.toLowerCase() })}
    </EmptyState>
  );
}

/** The people holding a seat (purchases redeemed with the team coupon that still grant access), first joined first. */
function Members(_props: { label?: false }) {
  const team = useRecordContext<TeamPurchase>();
  const translate = useTranslate();
  if (!team) return null;
  return section(
    translate('console.teams.members.title'),
    null,
    <ReferenceManyField
      reference="purchases"
      source="bulkCouponId"
      target="redeemedBulkCouponId"
      filter={{ status: GRANTING_STATUSES }}
      sort={{ field: 'createdAt', order: 'ASC' }}
      perPage={50}
      pagination={<Pagination rowsPerPageOptions={ROWS_PER_PAGE} />}
    >
      <Datagrid
        aria-label={translate('console.teams.members.title')}
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoMembers team={team} />}
      >
        <ReferenceField
          source="userId"
          reference="users"
          link="show"
          label="console.teams.members.member"
          sortable={false}
        >
          <UserNameAndEmail />
        </ReferenceField>
        <FunctionField<Purchase>
          label=""
          render={(member) =>
            member.userId === team.userId ? (
              <Chip size="small" variant="outlined" label={translate('console.teams.members.buyer')} />
            ) : null
          }
        />
        <DateField source="createdAt" label="console.teams.members.joined" showTime />
        <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} sortable={false} />
        <RevokeSeatButton team={team} label="" />
      </Datagrid>
    </ReferenceManyField>,
    translate('console.teams.members.help'),
  );
}

function TeamTitle() {
  const team = useRecordContext<TeamPurchase>();
  const translate = useTranslate();
  return (
    <>
      {team
        ? translate('console.teams.title', {
            seats: team.seatsTotal,
            total: formatMoney(team.totalAmount, team.currency),
          })
        : translate('console.teams.titleLoading')}
    </>
  );
}

/** The same row in the purchases list (refunds start there). */
function PurchaseLink(_props: { label?: string }) {
  const team = useRecordContext<TeamPurchase>();
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (!team) return null;
  return (
    <MuiLink component={Link} to={createPath({ resource: 'purchases', id: team.id, type: 'show' })} variant="body2">
      {translate('console.teams.openPurchase')}
    </MuiLink>
  );
}

/**
 * A team: its seats (with Add seats), invite link (with Rotate link) and members (with Revoke seat), then the buyer's
 * own seat, ended seats and the people kept out; the purchase's own details second.
 */
export function TeamShow() {
  return (
    <Show title={<TeamTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="console.teams.tabs.seats">
          <ReferenceField source="productId" reference="products" link="show" />
          <ReferenceField source="userId" reference="users" link="show" />
          <Seats label="console.teams.tabs.seatsLabel" />
          <InviteLink label="console.teams.invite.label" />
          <Members label={false} />
          <TeamRoster label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="console.teams.tabs.purchase" path="purchase">
          <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} />
          <MoneyField source="totalAmount" />
          <ReferenceField source="bulkCouponId" reference="coupons" link="show" />
          <TextField source="inviteCode" emptyText="—" />
          <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" emptyText="—" />
          <DateField source="createdAt" showTime />
          <PurchaseLink label="console.teams.buyersPurchase" />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
