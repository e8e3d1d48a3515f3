import { useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField as MuiTextField,
} from '@mui/material';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import { usePermissions, useTranslate } from 'react-admin';
import { grantsAccess } from '../../../api/src/shared/purchase-status';
import { problemOf } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { useText } from '../common/useText';
import { canManageOwnership } from '../permissions';
import type { TeamPurchase } from './types';
import { STAFF_REASON_MAX, STAFF_REASON_MIN } from '../../../api/src/shared/staff-reason';

const MAX_SEATS = 100;

interface Problems {
  seats?: string;
  reason?: string;
}

/** A first look at the form (catalog keys); the API has the last word, shown on the same inputs. */
function problemsOf(seats: number, reason: string): Problems {
  return {
    ...(!(Number.isInteger(seats) && seats >= 1 && seats <= MAX_SEATS) && {
      seats: 'console.teams.addSeats.seatsRange',
    }),
    ...(reason.trim().length < STAFF_REASON_MIN && { reason: 'console.teams.addSeats.reasonNeeded' }),
  };
}

function AddSeatsDialog({ team, onClose }: { team: TeamPurchase; onClose(): void }) {
  const translate = useTranslate();
  const text = useText();
  const titleId = useId();
  const [seats, setSeats] = useState('1');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const count = Number(seats);
  const add = useConsoleAction(
    (dataProvider) => dataProvider.addTeamSeats(String(team.id), { seats: count, reason: reason.trim() }),
    (added) => ({
      message: 'console.teams.addSeats.done',
      messageArgs: { smart_count: added.added, total: added.seats.total, free: added.seats.free },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = problemsOf(count, reason);
    setProblems(found);
    setRefusal(null);
    if (found.seats || found.reason) return;
    add.mutate(undefined, {
      onSuccess: onClose,
      onError: (error) => {
        const { message, errors } = problemOf(error, translate('console.teams.addSeats.failure'));
        setProblems({ seats: errors.seats, reason: errors.reason });
        if (!errors.seats && !errors.reason) setRefusal(message);
      },
    });
  };

  return (
    <Dialog open onClose={add.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{translate('console.teams.addSeats.title')}</DialogTitle>
        <DialogContent>
          {refusal ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {refusal}
            </Alert>
          ) : null}
          <DialogContentText>
            {translate('console.teams.addSeats.intro', { smart_count: team.seatsTotal })}
          </DialogContentText>
          <MuiTextField
            label={translate('console.teams.addSeats.seats')}
            type="number"
            value={seats}
            onChange={(event) => setSeats(event.target.value)}
            required
            margin="normal"
            autoFocus
            error={Boolean(problems.seats)}
            helperText={
              problems.seats
                ? text(problems.seats)
                : translate('console.teams.addSeats.seatsHelp', {
                    total: Number.isInteger(count) && count > 0 ? team.seatsTotal + count : team.seatsTotal,
                  })
            }
            slotProps={{ htmlInput: { min: 1, max: MAX_SEATS, step: 1 } }}
          />
          <MuiTextField
            label={translate('console.teams.addSeats.reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            required
            fullWidth
            margin="normal"
            error={Boolean(problems.reason)}
            helperText={text(problems.reason ?? 'console.teams.addSeats.reasonHelp')}
            slotProps={{ htmlInput: { maxLength: STAFF_REASON_MAX } }}
          />
          {add.isPending ? (
            <DialogContentText variant="body2" role="status" sx={{ mt: 1 }}>
              {translate('console.teams.addSeats.busy')}
            </DialogContentText>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={add.isPending}>
            {translate('console.common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={add.isPending}
            startIcon={add.isPending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <GroupAddIcon />}
          >
            {translate('console.teams.addSeats.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * Add seats (support and admins) to a team that is still active: given without a charge, with a reason kept in the
 * audit log; the team's owner sees the new total on their team page.
 */
export function AddSeatsButton({ team }: { team: TeamPurchase }) {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!canManageOwnership(permissions) || !grantsAccess(team.status)) return null;
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<GroupAddIcon />} onClick={() => setOpen(true)}>
        {translate('console.teams.addSeats.title')}
      </Button>
      {open ? <AddSeatsDialog team={team} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
