import { useState } from 'react';
import { Box, Checkbox, FormControlLabel, TextField as MuiTextField } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, useResourceContext, useTranslate, type Validator } from 'react-admin';

/** How the API stores "no limit" on a count (a coupon's uses, a product's seats). */
const UNLIMITED = -1;

const countRule: Validator = (value: unknown) =>
  value === UNLIMITED || (typeof value === 'number' && Number.isInteger(value) && value >= 0)
    ? undefined
    : 'console.limit.whole';

interface LimitInputProps {
  source: string;
  label?: string;
  helperText?: string;
  /** What the count becomes when Unlimited is unticked with nothing typed yet. */
  fallback?: number;
}

/**
 * A count that may have no limit: Unlimited is a box to tick, never a −1 to type. Ticked, the field holds the API's
 * −1 and the count's input is disabled; unticked, a whole number of at least 0 (the last one typed, or `fallback`).
 */
export function LimitInput({ source, label, helperText, fallback = 1 }: LimitInputProps) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const { field, fieldState, id } = useInput({ source, validate: countRule });
  const unlimited = field.value === UNLIMITED;
  const [text, setText] = useState(unlimited || field.value == null ? '' : String(field.value));

  const error = fieldState.error?.message;
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <MuiTextField
        id={id}
        name={field.name}
        type="number"
        size="small"
        label={<FieldTitle label={label} source={source} resource={resource} isRequired={!unlimited} />}
        value={unlimited ? '' : text}
        disabled={unlimited}
        onChange={(event) => {
          setText(event.target.value);
          field.onChange(event.target.value === '' ? null : Number(event.target.value));
        }}
        onBlur={field.onBlur}
        error={Boolean(error)}
        // react-admin encodes a validator's message (its key and arguments): its own helper text decodes it.
        helperText={<InputHelperText error={error} helperText={helperText} />}
        slotProps={{ htmlInput: { min: 0, step: 1 } }}
      />
      <FormControlLabel
        sx={{ mt: 0.5 }}
        control={
          <Checkbox
            checked={unlimited}
            onChange={(event) => {
              if (event.target.checked) return field.onChange(UNLIMITED);
              const count = text === '' ? fallback : Number(text);
              setText(String(count));
              field.onChange(count);
            }}
          />
        }
        label={translate('console.limit.unlimited')}
      />
    </Box>
  );
}
