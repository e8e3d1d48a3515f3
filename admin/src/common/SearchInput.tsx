import { SearchInput as RaSearchInput, type SearchInputProps } from 'react-admin';
import { useText } from './useText';

/** react-admin's search filter with a placeholder from the catalog (react-admin translates only its default one). */
export function SearchInput({ placeholder, ...props }: SearchInputProps) {
  const text = useText();
  return <RaSearchInput {...props} placeholder={placeholder ? text(placeholder) : undefined} />;
}
