import { Box, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { PRESETS, isDay, matchingPreset, presetPeriod, type Period, type PresetId } from './period';

/** "must not be after "to"" → "Must not be after "to"". */
const sentence = (text: string | undefined) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : undefined);

interface PeriodPickerProps {
  period: Period;
  onChange(period: Period): void;
  /** The API's refusals of these dates, by field (`from`, `to`). */
  errors: Record<string, string | undefined>;
}

/** The page's period: a preset, or two dates (UTC days, both included); the API's refusals show under the dates. */
export function PeriodPicker({ period, onChange, errors }: PeriodPickerProps) {
  const translate = useTranslate();
  const preset = matchingPreset(period);
  const dateInput = (field: 'from' | 'to') => {
    const error = isDay(period[field]) ? sentence(errors[field]) : translate('finance.period.incomplete');
    return (
      <TextField
        type="date"
        size="small"
        label={translate(`finance.period.${field}`)}
        value={period[field]}
        onChange={(event) => onChange({ ...period, [field]: event.target.value })}
        error={Boolean(error)}
        helperText={error ?? ' '}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: {
            max: field === 'from' ? period.to || undefined : undefined,
            min: field === 'to' ? period.from || undefined : undefined,
          },
        }}
        sx={{ width: 180 }}
      />
    );
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {translate('finance.period.legend')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          value={preset}
          onChange={(_event, id: PresetId | null) => id && onChange(presetPeriod(id))}
          aria-label={translate('finance.period.presetsLabel')}
          sx={{ flexWrap: 'wrap' }}
        >
          {PRESETS.map((id) => (
            <ToggleButton key={id} value={id} sx={{ textTransform: 'none', px: 1.5 }}>
              {translate(`finance.period.presets.${id}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {dateInput('from')}
        {dateInput('to')}
      </Box>
    </Box>
  );
}
