import { useId, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  type ButtonProps,
} from '@mui/material';
import type { UseMutationResult } from '@tanstack/react-query';
import type { HttpError } from 'react-admin';
import { useText } from './useText';

/**
 * An action as react-query's useMutation gives it: confirming runs it, `isPending` shows the progress. Its own
 * onSuccess/onError notify and refresh; the dialog closes, or shows the API's refusal.
 */
type ActionMutation = Pick<UseMutationResult<unknown, Error, void>, 'mutate' | 'isPending' | 'error'>;

/** The API's answer to a failed action (`{ code, message, errors? }`): its message and the fields it is about. */
export function problemOf(
  error: unknown,
  fallback: string,
): { code: string | null; message: string; errors: Record<string, string> } {
  const body = (error as HttpError | undefined)?.body as
    { code?: string; message?: string; errors?: Record<string, string> } | undefined;
  const message = body?.message ?? (error instanceof Error && error.message ? error.message : fallback);
  return { code: body?.code ?? null, message, errors: body?.errors ?? {} };
}

interface ConfirmStepProps {
  question: ReactNode;
  /** What happens, below the question. */
  details?: ReactNode;
  /** Inputs the action needs (e.g. an optional reason), below the details. */
  children?: ReactNode;
  pending: boolean;
  busyLabel: string;
  onCancel(): void;
  onConfirm(): void;
  confirmLabel: string;
  /** The button that backs out ("Cancel" unless that would read as the action, e.g. canceling a transfer). */
  cancelLabel?: string;
  /** The API's refusal of a previous attempt. */
  error?: string | null;
}

/** A confirmation's content and buttons, with the progress bar shown while the request runs. Texts: keys or text. */
export function ConfirmStep({
  question,
  details,
  children,
  pending,
  busyLabel,
  onCancel,
  onConfirm,
  confirmLabel,
  cancelLabel = 'console.common.cancel',
  error,
}: ConfirmStepProps) {
  const text = useText();
  return (
    <>
      <DialogContent>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <DialogContentText>{text(question)}</DialogContentText>
        {details ? (
          <DialogContentText variant="body2" sx={{ mt: 1 }}>
            {text(details)}
          </DialogContentText>
        ) : null}
        {children}
        {pending ? (
          <Box sx={{ mt: 2 }} role="status" aria-live="polite">
            <LinearProgress aria-label={text(busyLabel)} />
            <DialogContentText variant="body2" sx={{ mt: 1 }}>
              {text(busyLabel)}
            </DialogContentText>
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          {text(cancelLabel)}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={onConfirm}
          disabled={pending}
          startIcon={pending ? <CircularProgress size={14} color="inherit" aria-hidden /> : undefined}
        >
          {text(confirmLabel)}
        </Button>
      </DialogActions>
    </>
  );
}

interface ConfirmActionDialogProps extends Omit<ConfirmStepProps, 'pending' | 'onCancel' | 'onConfirm' | 'error'> {
  title: string;
  /** The action; a refusal keeps the dialog open with the API's message. */
  mutation: ActionMutation;
  /** Shown when the API gives no message. */
  failure: string;
  onClose(): void;
}

/**
 * A one-step action behind a confirmation: the question, a progress bar while it runs, the API's refusal in the
 * dialog. Clicks inside stay inside (React bubbles portal events to the row that opened it, which would open
 * the row's record).
 */
export function ConfirmActionDialog({ title, mutation, failure, onClose, ...step }: ConfirmActionDialogProps) {
  const text = useText();
  const titleId = useId();
  const { isPending, error } = mutation;

  return (
    <Dialog
      open
      onClose={isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      onClick={(event) => event.stopPropagation()}
    >
      <DialogTitle id={titleId}>{text(title)}</DialogTitle>
      <ConfirmStep
        {...step}
        pending={isPending}
        error={error ? problemOf(error, text(failure)).message : null}
        onCancel={onClose}
        onConfirm={() => mutation.mutate(undefined, { onSuccess: onClose })}
      />
    </Dialog>
  );
}

interface FormThenConfirmDialogProps {
  formTitle: string;
  confirmTitle: string;
  /** The form's inputs; a function gets the Continue step, for inputs that continue on Enter. */
  children: ReactNode | ((next: () => void) => ReactNode);
  /** Checks the form and shows its problems on the inputs; true when it may go on to the confirmation. */
  check(): boolean;
  /** The Continue button's color (e.g. error for an action that cannot be undone). */
  continueColor?: ButtonProps['color'];
  /** The confirmation, as in ConfirmStep; backing out returns to the form. */
  question: ReactNode;
  details?: ReactNode;
  busyLabel: string;
  confirmLabel: string;
  cancelLabel?: string;
  /** The action, its notice and refresh in its own onSuccess/onError. */
  mutation: ActionMutation;
  /** Shown when the API gives no message. */
  failure: string;
  /** Puts the API's field errors on the form's inputs; true when it showed one (else the message goes on top). */
  showFieldErrors(errors: Record<string, string>): boolean;
  onClose(): void;
}

/**
 * A form, then a confirmation that repeats what will happen. A refusal returns to the form, with the API's
 * answer on the inputs it is about (or above them).
 */
export function FormThenConfirmDialog({
  formTitle,
  confirmTitle,
  children,
  check,
  continueColor,
  mutation,
  failure,
  showFieldErrors,
  onClose,
  ...confirmation
}: FormThenConfirmDialogProps) {
  const text = useText();
  const titleId = useId();
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [formError, setFormError] = useState<string | null>(null);

  const next = () => {
    const ready = check();
    setFormError(null);
    if (ready) setStep('confirm');
  };

  const confirm = () =>
    mutation.mutate(undefined, {
      onSuccess: onClose,
      onError: (error) => {
        const { message, errors } = problemOf(error, text(failure));
        setStep('form');
        if (!showFieldErrors(errors)) setFormError(message);
      },
    });

  return (
    <Dialog open onClose={mutation.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{text(step === 'form' ? formTitle : confirmTitle)}</DialogTitle>
      {step === 'form' ? (
        <>
          <DialogContent>
            {formError ? (
              <Alert severity="error" sx={{ mb: 2 }}>
                {formError}
              </Alert>
            ) : null}
            {typeof children === 'function' ? children(next) : children}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{text('console.common.cancel')}</Button>
            <Button variant="contained" color={continueColor} onClick={next}>
              {text('console.common.continue')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <ConfirmStep
          {...confirmation}
          pending={mutation.isPending}
          onCancel={() => setStep('form')}
          onConfirm={confirm}
        />
      )}
    </Dialog>
  );
}
