import { MenuItem, TextField as MuiTextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { STAFF_REFUND_REASONS, type StaffRefundReason } from '../../../api/src/shared/refund-reasons';
import { STAFF_REASON_MAX, STAFF_REASON_MIN } from '../../../api/src/shared/staff-reason';

/** The catalog keys of a reason's two problems, named whole so the catalog's check finds them. */
export interface StaffReasonMessages {
  tooShort: string;
  tooLong: string;
}

/**
 * The API's rule for a staff action's reason (api/src/shared/staff-reason.ts), checked before the confirmation is
 * asked, so nobody confirms an action only to be sent back to the form; the API checks it again. Answers the catalog
 * key of the problem, or null. An optional reason left empty is fine.
 */
export function staffReasonProblem(reason: string, messages: StaffReasonMessages, required = true): string | null {
  const length = reason.trim().length;
  if (!required && length === 0) return null;
  if (length < STAFF_REASON_MIN) return messages.tooShort;
  if (length > STAFF_REASON_MAX) return messages.tooLong;
  return null;
}

interface StaffReasonFieldProps {
  value: string;
  /** Typing clears the field's error; the next Continue checks it again. */
  onChange(value: string): void;
  error: string | null;
  label: string;
  helperText: string;
  required: boolean;
}

/** Why staff take an action (a refund's note, a ban's or an end's reason), kept in the audit log. */
export function StaffReasonField({ value, onChange, error, label, helperText, required }: StaffReasonFieldProps) {
  const translate = useTranslate();
  return (
    <MuiTextField
      label={translate(label)}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required={required}
      multiline
      minRows={2}
      maxRows={6}
      fullWidth
      margin="normal"
      error={Boolean(error)}
      helperText={
        error ? translate(error, { _: error, min: STAFF_REASON_MIN, max: STAFF_REASON_MAX }) : translate(helperText)
      }
      slotProps={{ htmlInput: { maxLength: STAFF_REASON_MAX } }}
    />
  );
}

interface RefundReasonSelectProps {
  value: StaffRefundReason | '';
  onChange(value: StaffRefundReason): void;
  error: string | null;
  label: string;
  /** Shown under the field while it has no error (already in words). */
  helperText: string;
}

/** Why a refund is made, from the reasons the reports group refunds by (any charge's: a purchase's or a period's). */
export function RefundReasonSelect({ value, onChange, error, label, helperText }: RefundReasonSelectProps) {
  const translate = useTranslate();
  return (
    <MuiTextField
      select
      label={translate(label)}
      value={value}
      onChange={(event) => onChange(event.target.value as StaffRefundReason)}
      required
      fullWidth
      margin="normal"
      error={Boolean(error)}
      helperText={error ? translate(error, { _: error }) : helperText}
    >
      {STAFF_REFUND_REASONS.map((code) => (
        <MenuItem key={code} value={code}>
          {translate(`reports.reasons.${code}`)}
        </MenuItem>
      ))}
    </MuiTextField>
  );
}
