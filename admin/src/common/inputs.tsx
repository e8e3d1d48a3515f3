import { useEffect, useMemo, useRef, type ComponentProps } from 'react';
import { InputAdornment } from '@mui/material';
import {
  DateInput,
  DateTimeInput,
  NumberInput,
  useTranslate,
  type NumberInputProps,
  type Validator,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { fractionDecimals, fromCents, fromFraction, moneyWords, toCents, toFraction, wholeMinorUnits } from './money';

// Stable functions: NumberInput re-formats whenever `format` changes identity.
const formatFraction = (value: unknown) => fromFraction(value as number | null);
const parseFraction = (value: unknown) => toFraction(value as number | string | null);

type AmountInputProps = Omit<NumberInputProps, 'format' | 'parse'> & { validate?: Validator | Validator[] };

/**
 * Any step for the browser: with step 0.01 it refuses 79.999 itself, blocking the submit with a bubble of its own
 * before the console's rule can say so on the field.
 */
const ANY_STEP = 'any';

/** The input's own rule first, then the caller's. */
const withRule = (rule: Validator, validate: Validator | Validator[] | undefined): Validator[] =>
  [rule].concat(validate ?? []);

/**
 * An amount typed in major units (49.99 usd, 4000 jpy) and stored in the currency's minor unit (4999, 4000), the only
 * unit the API knows; a fraction of the minor unit is refused on the field, never rounded. The currency is `currency`,
 * or the form's field named by `currencySource`: choosing another keeps the amount as typed (49 → 49 in the new
 * currency), never its minor units (4900 cents would become ¥4,900).
 */
export function MoneyInput({
  currency,
  currencySource,
  validate,
  ...props
}: AmountInputProps & { currency?: string; currencySource?: string }) {
  const chosen = useWatch({ name: currencySource ?? 'currency', disabled: !currencySource }) as string | undefined;
  const code = currency ?? (currencySource && chosen ? chosen : 'usd');
  const { getValues, setValue } = useFormContext();
  const translate = useTranslate();
  // A label such as "First price (in %{unit})" names the unit of the currency chosen: dollars, yen.
  const label = typeof props.label === 'string' ? translate(props.label, moneyWords(translate, code)) : props.label;
  const shown = useRef(code);
  useEffect(() => {
    if (shown.current === code) return;
    const amount = getValues(props.source) as unknown;
    if (typeof amount === 'number')
      setValue(props.source, toCents(fromCents(amount, shown.current), code), { shouldDirty: true });
    shown.current = code;
  }, [code, getValues, setValue, props.source]);
  const { format, parse, rule } = useMemo(
    () => ({
      format: (value: unknown) => fromCents(value as number | string | null, code),
      parse: (value: unknown) => toCents(value as number | string | null, code),
      rule: wholeMinorUnits(code) as Validator,
    }),
    [code],
  );
  return (
    <NumberInput
      step={ANY_STEP}
      min={0}
      {...props}
      label={label}
      validate={withRule(rule, validate)}
      format={format}
      parse={parse}
      slotProps={
        currency || currencySource
          ? { input: { endAdornment: <InputAdornment position="end">{code.toUpperCase()}</InputAdornment> } }
          : undefined
      }
    />
  );
}

/** A percentage typed as 25 and stored as the fraction 0.25; more than two decimals (12.345) is refused. */
export function PercentInput({ validate, ...props }: AmountInputProps) {
  return (
    <NumberInput
      step={ANY_STEP}
      min={0}
      max={100}
      {...props}
      validate={withRule(fractionDecimals, validate)}
      format={formatFraction}
      parse={parseFraction}
      slotProps={{ input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } }}
    />
  );
}

/** A date and time picked in the browser's zone and sent as an ISO instant (the API speaks UTC). */
const parseDateTime = (value: string) => (value ? new Date(value).toISOString() : null);

export function InstantInput(props: Omit<ComponentProps<typeof DateTimeInput>, 'parse'>) {
  return <DateTimeInput {...props} parse={parseDateTime} />;
}

// Filters: a day range that includes both ends, in the browser's zone.
const startOfDay = (value: string) => (value ? new Date(`${value}T00:00:00`).toISOString() : null);
const endOfDay = (value: string) => (value ? new Date(`${value}T23:59:59.999`).toISOString() : null);

/**
 * Two filter inputs, `<source>_gte` ("from", start of day) and `<source>_lte` ("until", end of day): labelled
 * "<what> from" and "<what> until", or by the two catalog keys given.
 */
export function dateRangeFilters(source: string, what: string | { from: string; until: string }) {
  const labels = typeof what === 'string' ? { from: `${what} from`, until: `${what} until` } : what;
  return [
    <DateInput key={`${source}_gte`} source={`${source}_gte`} label={labels.from} parse={startOfDay} />,
    <DateInput key={`${source}_lte`} source={`${source}_lte`} label={labels.until} parse={endOfDay} />,
  ];
}

/** Two filter inputs on an amount in cents, typed in major units. */
export function moneyRangeFilters(source: string, what: string) {
  return [
    <MoneyInput key={`${source}_gte`} source={`${source}_gte`} label={`${what} at least`} />,
    <MoneyInput key={`${source}_lte`} source={`${source}_lte`} label={`${what} at most`} />,
  ];
}
