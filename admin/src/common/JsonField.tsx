import { Typography } from '@mui/material';
import { FunctionField } from 'react-admin';

/** A JSON object as formatted text. */
function JsonField({ source, label }: { source: string; label?: string }) {
  return (
    <FunctionField
      source={source}
      label={label}
      render={(record: Record<string, unknown>) => {
        const value = source
          .split('.')
          .reduce<unknown>(
            (v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
            record,
          );
        if (value === null || value === undefined || (typeof value === 'object' && !Object.keys(value).length))
          return '—';
        return (
          <Typography component="pre" variant="body2" sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap' }}>
            {JSON.stringify(value, null, 2)}
          </Typography>
        );
      }}
    />
  );
}

/** The field above as a show field (keyed by source, like the helpers of columns.tsx). */
export const json = (source: string, label?: string) => <JsonField key={source} source={source} label={label} />;
