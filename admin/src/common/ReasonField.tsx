import { useState } from 'react';
import { TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { STAFF_REASON_MAX, STAFF_REASON_MIN } from '../../../api/src/shared/staff-reason';

/**
 * A required reason for a staff action (blocking a person, viewing as them): its text, and `check()` for the
 * action to call first, which shows the field's error and answers false while the reason is too short.
 */
export function useReason() {
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const tooShort = value.trim().length < STAFF_REASON_MIN;
  return {
    value,
    trimmed: value.trim(),
    field: { value, setValue, showError: touched && tooShort, leave: () => setTouched(true) },
    check(): boolean {
      setTouched(true);
      return !tooShort;
    },
  };
}

/** The reason's words (catalog keys): its label, its help, and what it says once left too short. */
interface ReasonWords {
  label: string;
  help: string;
  required: string;
}

/** The reason's field. */
export function ReasonField({ words, field }: { words: ReasonWords; field: ReturnType<typeof useReason>['field'] }) {
  const translate = useTranslate();
  return (
    <TextField
      label={translate(words.label)}
      value={field.value}
      onChange={(event) => field.setValue(event.target.value)}
      onBlur={field.leave}
      error={field.showError}
      helperText={translate(field.showError ? words.required : words.help)}
      required
      fullWidth
      multiline
      sx={{ mt: 2 }}
      slotProps={{ htmlInput: { maxLength: STAFF_REASON_MAX } }}
    />
  );
}
