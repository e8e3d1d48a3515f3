import { useState } from 'react';
import { Box, Button, Chip, TextField as MuiTextField, Typography } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { useNotify, usePermissions, useRecordContext, useRefresh } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { hideComment, unhideComment } from '../common/api';
import { canModerateComments } from '../permissions';
import { excerpt, type Comment } from './types';

const REASON_MAX = 500;

/** The comment being moderated, quoted in the dialog so nobody hides the wrong one. */
function Quote({ comment }: { comment: Comment }) {
  return (
    <Box
      component="blockquote"
      sx={{
        m: 0,
        mt: 2,
        pl: 2,
        borderLeft: 3,
        borderColor: 'divider',
        color: 'text.secondary',
        whiteSpace: 'pre-wrap',
      }}
    >
      {excerpt(comment.text, 400)}
    </Box>
  );
}

function HideDialog({ comment, onClose }: { comment: Comment; onClose(): void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [reason, setReason] = useState('');
  return (
    <ConfirmActionDialog
      title="Hide comment"
      question="Hide this comment from learners?"
      details="It disappears from the lesson for everyone but its author, who sees it marked as hidden, with the reason if you give one. You can show it again later."
      busyLabel="Hiding the comment…"
      confirmLabel="Hide comment"
      failure="The comment could not be hidden."
      action={async () => {
        const trimmed = reason.trim();
        await hideComment(comment.id, trimmed || undefined);
        notify('Comment hidden. Learners no longer see it; its author does, marked as hidden.', { type: 'success' });
        refresh();
      }}
      onFailed={refresh}
      onClose={onClose}
    >
      <Quote comment={comment} />
      <MuiTextField
        label="Reason (optional)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        margin="normal"
        helperText={`Shown to the author and kept in the audit log. ${reason.length} / ${REASON_MAX} characters.`}
        slotProps={{ htmlInput: { maxLength: REASON_MAX } }}
      />
    </ConfirmActionDialog>
  );
}

function ShowAgainDialog({ comment, onClose }: { comment: Comment; onClose(): void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  return (
    <ConfirmActionDialog
      title="Show comment again"
      question="Show this comment to learners again?"
      details="Everyone who may open the lesson sees it again, and the hiding reason is cleared."
      busyLabel="Showing the comment again…"
      confirmLabel="Show again"
      failure="The comment could not be shown again."
      action={async () => {
        await unhideComment(comment.id);
        notify('Comment shown again.', { type: 'success' });
        refresh();
      }}
      onFailed={refresh}
      onClose={onClose}
    >
      <Quote comment={comment} />
    </ConfirmActionDialog>
  );
}

/**
 * Hide (a visible comment) or Show again (a hidden one), for support and admins. Inside a list row the click stays
 * with the button (the row would open the comment).
 */
export function ModerateCommentButton(_props: { label?: string }) {
  const comment = useRecordContext<Comment>();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  if (!comment || !canModerateComments(permissions)) return null;
  const hidden = Boolean(comment.hiddenAt);
  return (
    <>
      <Button
        size="small"
        color={hidden ? 'primary' : 'error'}
        startIcon={hidden ? <VisibilityIcon /> : <VisibilityOffIcon />}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {hidden ? 'Show again' : 'Hide'}
      </Button>
      {open ? (
        hidden ? (
          <ShowAgainDialog comment={comment} onClose={() => setOpen(false)} />
        ) : (
          <HideDialog comment={comment} onClose={() => setOpen(false)} />
        )
      ) : null}
    </>
  );
}

/** "Hidden" as a chip, with the reason next to it; "Visible" otherwise. */
export function VisibilityField(_props: { label?: string; sortable?: boolean; sortBy?: string }) {
  const comment = useRecordContext<Comment>();
  if (!comment) return null;
  if (!comment.hiddenAt) return <Chip size="small" variant="outlined" label="Visible" />;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Chip size="small" color="warning" icon={<VisibilityOffIcon />} label="Hidden" />
      <Typography variant="body2" color="text.secondary" component="span">
        {comment.hiddenReason ? comment.hiddenReason : 'No reason given'}
      </Typography>
    </Box>
  );
}
