import { MenuItem, TextField } from '@mui/material';

/** One of a few values, picked from a small menu: a period, a currency. */
export function Choice(props: {
  label: string;
  value: string;
  /** Each value with its words. */
  options: [string, string][];
  onChange(value: string): void;
  width: number;
}) {
  return (
    <TextField
      select
      size="small"
      fullWidth={false}
      label={props.label}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      sx={{ width: props.width }}
    >
      {props.options.map(([value, words]) => (
        <MenuItem key={value} value={value}>
          {words}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * A currency menu's options: the currencies a report lists, with those on screen (the one answered, the one chosen)
 * even when the period has none of its money, in code order.
 */
export const currencyOptions = (listed: readonly string[], ...shown: (string | undefined)[]): [string, string][] =>
  [...new Set([...listed, ...shown.filter((c): c is string => Boolean(c))])].sort().map((c) => [c, c.toUpperCase()]);
