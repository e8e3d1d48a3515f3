import { useState } from 'react';
import { Box, Button, Chip, TextField as MuiTextField, Typography } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { useNotify, usePermissions, useRecordContext, useRefresh, useTranslate } from 'react-admin';
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
  const translate = useTranslate();
  const [reason, setReason] = useState('');
  return (
    <ConfirmActionDialog
      title="console.comments.hide.title"
      question="console.comments.hide.question"
      details="console.comments.hide.details"
      busyLabel="console.comments.hide.busy"
      confirmLabel="console.comments.hide.title"
      failure="console.comments.hide.failure"
      action={async () => {
        const trimmed = reason.trim();
        await hideComment(comment.id, trimmed || undefined);
        notify('console.comments.hide.done', { type: 'success' });
        refresh();
      }}
      onFailed={refresh}
      onClose={onClose}
    >
      <Quote comment={comment} />
      <MuiTextField
        label={translate('console.comments.hide.reason')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        margin="normal"
        helperText={translate('console.comments.hide.reasonHelp', { length: reason.length, max: REASON_MAX })}
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
      title="console.comments.unhide.title"
      question="console.comments.unhide.question"
      details="console.comments.unhide.details"
      busyLabel="console.comments.unhide.busy"
      confirmLabel="console.comments.unhide.confirm"
      failure="console.comments.unhide.failure"
      action={async () => {
        await unhideComment(comment.id);
        notify('console.comments.unhide.done', { type: 'success' });
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
  const translate = useTranslate();
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
        {translate(hidden ? 'console.comments.unhide.confirm' : 'console.comments.hide.button')}
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
  const translate = useTranslate();
  if (!comment) return null;
  if (!comment.hiddenAt) return <Chip size="small" variant="outlined" label={translate('console.comments.visible')} />;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Chip
        size="small"
        color="warning"
        icon={<VisibilityOffIcon />}
        label={translate('console.comments.hiddenChip')}
      />
      <Typography variant="body2" color="text.secondary" component="span">
        {comment.hiddenReason ? comment.hiddenReason : translate('console.comments.noReason')}
      </Typography>
    </Box>
  );
}
