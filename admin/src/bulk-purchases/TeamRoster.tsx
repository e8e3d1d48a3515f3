import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  Link,
  RecordContextProvider,
  useCreatePath,
  useDataProvider,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { KeptOutMember, TeamRoster as Roster, TeamSeat } from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import { section } from '../common/Section';
import { StatusChipField } from '../common/StatusChipField';
import { useConsoleAction } from '../common/useConsoleAction';
import type { ConsoleDataProvider } from '../dataProvider';
import { retryUnanswered } from '../dataProvider';
import { canManageOwnership } from '../permissions';
import { PURCHASE_STATUS_LOOKS } from '../purchases/choices';
import type { TeamPurchase } from './types';

const when = (date: string | null) => (date ? new Date(date).toLocaleString() : '—');

/** One of the roster's tables, named by its title for screen readers; headings are catalog keys ('' for none). */
function RosterTable({ title, headings, children }: { title: string; headings: string[]; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={title}>
        <TableHead>
          <TableRow>
            {headings.map((key, column) => (
              <TableCell key={column}>{key ? translate(key) : null}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}

/** The team's roster (GET …/members), refreshed with the page (react-admin's refresh invalidates every query). */
function useRoster(teamId: string) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['bulk-purchases', 'getTeamRoster', teamId],
    queryFn: ({ signal }) => dataProvider.getTeamRoster(teamId, { signal }).then(({ data }) => data),
    retry: retryUnanswered,
  });
}

/** A person by name and email, linked to their page. */
function Person({ userId, name, email }: { userId: string; name: string | null; email: string }) {
  const createPath = useCreatePath();
  return (
    <MuiLink component={Link} to={createPath({ resource: 'users', id: userId, type: 'show' })}>
      <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
        <span>{name ?? email}</span>
        {name ? (
          <Typography component="span" variant="caption" color="text.secondary">
            {email}
          </Typography>
        ) : null}
      </Box>
    </MuiLink>
  );
}

/**
 * The buyer's own seat (docs/domain.md §7): their team purchase gives no access until they claim one like anyone else.
 */
function BuyerSeat({ buyer }: { buyer: Wire<Roster>['buyer'] }) {
  const translate = useTranslate();
  return (
    <Alert severity={buyer.hasSeat ? 'success' : 'info'} variant="outlined" sx={{ width: '100%' }}>
      {translate(buyer.hasSeat ? 'console.teams.roster.buyerHasSeat' : 'console.teams.roster.buyerNoSeat', {
        who: buyer.email,
      })}
    </Alert>
  );
}

function EndedSeats({ seats }: { seats: Wire<TeamSeat>[] }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const title = translate('console.teams.roster.ended');
  if (seats.length === 0) return null;
  return section(
    title,
    null,
    <RosterTable
      title={title}
      headings={[
        'console.teams.members.member',
        'console.teams.roster.status',
        'console.teams.members.joined',
        'console.teams.roster.endedAt',
        'console.teams.roster.endedBy',
        'console.teams.roster.reason',
      ]}
    >
      {seats.map((seat) => (
        <TableRow key={seat.purchaseId}>
          <TableCell>
            <Person {...seat} />
            {seat.buyer ? (
              <Chip size="small" variant="outlined" label={translate('console.teams.members.buyer')} sx={{ ml: 1 }} />
            ) : null}
          </TableCell>
          <TableCell>
            <RecordContextProvider value={{ id: seat.purchaseId, status: seat.status }}>
              <MuiLink
                component={Link}
                to={createPath({ resource: 'purchases', id: seat.purchaseId, type: 'show' })}
                aria-label={translate('console.teams.roster.openSeat')}
              >
                <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} />
              </MuiLink>
            </RecordContextProvider>
          </TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(seat.joinedAt)}</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(seat.endedAt)}</TableCell>
          <TableCell>{seat.endedBy ?? translate('console.teams.roster.bySystem')}</TableCell>
          <TableCell>{seat.reason ?? '—'}</TableCell>
        </TableRow>
      ))}
    </RosterTable>,
    translate('console.teams.roster.endedHelp'),
  );
}

function ReadmitButton({ team, person }: { team: TeamPurchase; person: Wire<KeptOutMember> }) {
  const translate = useTranslate();
  const readmit = useConsoleAction(
    (dataProvider) => dataProvider.readmitTeamMember(String(team.id), person.userId),
    () => ({ message: 'console.teams.roster.readmitted', messageArgs: { who: person.email } }),
  );
  return (
    <Button
      size="small"
      startIcon={readmit.isPending ? <CircularProgress size={14} aria-hidden /> : <HowToRegIcon />}
      disabled={readmit.isPending}
      onClick={() => readmit.mutate()}
      aria-label={translate('console.teams.roster.readmitLabel', { who: person.email })}
    >
      {translate('console.teams.roster.readmit')}
    </Button>
  );
}

function RemovedMembers({ team, people }: { team: TeamPurchase; people: Wire<KeptOutMember>[] }) {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const title = translate('console.teams.roster.removed');
  if (people.length === 0) return null;
  return section(
    title,
    null,
    <RosterTable
      title={title}
      headings={['console.teams.members.member', 'console.teams.roster.since', 'console.teams.roster.endedBy', '']}
    >
      {people.map((person) => (
        <TableRow key={person.userId}>
          <TableCell>
            <Person {...person} />
          </TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(person.since)}</TableCell>
          <TableCell>{person.by ?? translate('console.teams.roster.bySystem')}</TableCell>
          <TableCell align="right">
            {canManageOwnership(permissions) ? <ReadmitButton team={team} person={person} /> : null}
          </TableCell>
        </TableRow>
      ))}
    </RosterTable>,
    translate('console.teams.roster.removedHelp'),
  );
}

/**
 * What the members list does not show: whether the buyer holds a seat themselves, the seats that ended (revoked by
 * the owner or support, or ended with a refund or ban: when, by whom, why), and the people the invite link refuses
 * until someone lets them back in.
 */
export function TeamRoster(_props: { label?: false }) {
  const team = useRecordContext<TeamPurchase>();
  const translate = useTranslate();
  const roster = useRoster(String(team?.id ?? ''));
  if (!team) return null;
  if (roster.isPending) return <CircularProgress size={20} aria-label={translate('console.teams.roster.loading')} />;
  if (!roster.data) return <Alert severity="error">{translate('console.teams.roster.loadFailed')}</Alert>;
  const { buyer, seats, keptOut: removed } = roster.data;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, width: '100%' }}>
      <BuyerSeat buyer={buyer} />
      <EndedSeats seats={seats.filter((s) => s.endedAt !== null)} />
      <RemovedMembers team={team} people={removed} />
    </Box>
  );
}
