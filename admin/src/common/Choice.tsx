import { MenuItem, TextField } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';

/** One of a few values, picked from a small menu: a period, a currency. */
export function Choice(props: {
  label: string;
  value: string;
  /** Each value with its words. */
  options: [string, string][];
  onChange(value: string): void;
  width: number;
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      select
      size="small"
      fullWidth={false}
      label={props.label}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      sx={[{ width: props.width }, ...(Array.isArray(props.sx) ? props.sx : [props.sx])]}
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
 * The currency menu of figures shown one currency at a time (amounts in two do not add up): the currencies the
 * figures list, with the one on screen, in code order; nothing when there is no other to switch to.
 */
export function CurrencyChoice(props: {
  label: string;
  /** The currency on screen: the one chosen, else the one answered. */
  value: string | undefined;
  /** The currencies to offer besides it (those of the period, the default); unknown ones left out. */
  currencies: readonly (string | undefined)[];
  onChange(currency: string): void;
  sx?: SxProps<Theme>;
}) {
  const { value } = props;
  const options = [...new Set([...props.currencies, value].filter((c): c is string => Boolean(c)))].sort();
  if (!value || options.length < 2) return null;
  return (
    <Choice
      label={props.label}
      value={value}
      options={options.map((c) => [c, c.toUpperCase()])}
      onChange={props.onChange}
      width={140}
      sx={props.sx}
    />
  );
}
