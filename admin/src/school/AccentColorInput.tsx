import { Box, Stack, TextField, Typography } from '@mui/material';
import { InputHelperText, useInput, useTranslate } from 'react-admin';
import { readableOn } from '../../../api/src/shared/colour-contrast';

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * The accent colour: a colour picker and its hex text, one value (`#rrggbb`), with a preview of a button in that
 * colour and how it reads (the API checks the value; a pale accent still colours buttons, with dark text).
 */
export function AccentColorInput({ source }: { source: string }) {
  const translate = useTranslate();
  const { id, field, fieldState } = useInput({ source, format: (v: unknown) => (typeof v === 'string' ? v : '') });
  const value = String(field.value ?? '');
  const valid = HEX.test(value);
  const shown = valid ? value.toLowerCase() : '#ffffff';
  const label = translate('resources.school.fields.accentColor');
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', flexWrap: 'wrap', rowGap: 1, mb: 2 }}>
      <Box
        component="input"
        type="color"
        value={shown}
        onChange={(event: React.ChangeEvent<HTMLInputElement>) => field.onChange(event.target.value)}
        aria-label={translate('console.school.pickColour')}
        sx={{ width: 56, height: 56, p: 0.5, border: 1, borderColor: 'divider', borderRadius: 1, cursor: 'pointer' }}
      />
      <TextField
        id={id}
        label={label}
        value={value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        error={fieldState.invalid}
        helperText={
          <InputHelperText error={fieldState.error?.message} helperText="resources.school.help.accentColor" />
        }
        slotProps={{ htmlInput: { spellCheck: false, 'aria-describedby': `${id}-preview` } }}
        sx={{ width: 220 }}
      />
      <Box id={`${id}-preview`} role="img" aria-label={translate('console.school.preview', { colour: shown })}>
        <Box
          sx={{
            display: 'inline-block',
            px: 2.5,
            py: 1.25,
            borderRadius: 1.5,
            fontWeight: 600,
            bgcolor: shown,
            color: readableOn(shown),
            border: 1,
            borderColor: 'divider',
          }}
        >
          {translate('console.school.sampleButton')}
        </Box>
        <Typography variant="body2" sx={{ mt: 0.5, color: 'text.secondary' }}>
          {translate('console.school.previewNote')}
        </Typography>
      </Box>
    </Stack>
  );
}
