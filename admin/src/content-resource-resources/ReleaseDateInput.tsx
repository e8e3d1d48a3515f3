import type { ChangeEvent } from 'react';
import { DateInput, type DateInputProps } from 'react-admin';
import { useFormContext } from 'react-hook-form';

/**
 * A cohort's date whose clearing is a change at once, as typing one is. react-admin's DateInput hands an emptied
 * value to the form only when the field loses the focus, since the browser reads a date half typed as '' too;
 * `validity.badInput` tells them apart, so Save is enabled as soon as the date is cleared.
 */
export function ReleaseDateInput(props: DateInputProps) {
  const { setValue } = useFormContext();
  const cleared = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    if (input.value === '' && !input.validity.badInput) setValue(props.source, null, { shouldDirty: true });
  };
  return <DateInput {...props} onChange={cleared} />;
}
