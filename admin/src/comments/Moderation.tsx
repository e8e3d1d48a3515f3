import { useState, type ReactNode } from 'react';
import { Box, Button, Chip, TextField as MuiTextField, Typography } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import type { ConsoleDataProvider } from '../dataProvider';
import { canModerateComments } from '../permissions';
import { excerpt, type Comment } from './types';
import { STAFF_REASON_MAX } from '../../../api/src/shared/staff-reason';

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

/** Hiding or showing again: one confirmation, its words from console.comments.<step>.*, the comment quoted. */
function ModerationDialog({
  comment,
  step,
  run,
  onClose,
  children,
}: {
  comment: Comment;
  step: 'hide' | 'unhide';
  run(dataProvider: ConsoleDataProvider): Promise<{ data: unknown }>;
  onClose(): void;
  children?: ReactNode;
}) {
  const words = (name: string) => `console.comments.${step}.${name}`;
  const moderate = useConsoleAction(run, () => words('done'));
  return (
    <ConfirmActionDialog
      title={words('title')}
      question={words('question')}
      details={words('details')}
      busyLabel={words('busy')}
      confirmLabel={words('confirm')}
      failure={words('failure')}
      mutation={moderate}
      onClose={onClose}
    >
      <Quote comment={comment} />
      {children}
    </ConfirmActionDialog>
  );
}

function HideDialog({ comment, onClose }: { comment: Comment; onClose(): void }) {
  const translate = useTranslate();
  const [reason, setReason] = useState('');
  return (
    <ModerationDialog
      comment={comment}
      step="hide"
      run={(dataProvider) => dataProvider.hideComment(comment.id, reason.trim() || undefined)}
      onClose={onClose}
    >
      <MuiTextField
        label={translate('console.comments.hide.reason')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        margin="normal"
        helperText={translate('console.comments.hide.reasonHelp', { length: reason.length, max: STAFF_REASON_MAX })}
        slotProps={{ htmlInput: { maxLength: STAFF_REASON_MAX } }}
      />
    </ModerationDialog>
  );
}

function ShowAgainDialog({ comment, onClose }: { comment: Comment; onClose(): void }) {
  return (
    <ModerationDialog
      comment={comment}
      step="unhide"
      run={(dataProvider) => dataProvider.unhideComment(comment.id)}
      onClose={onClose}
    />
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
