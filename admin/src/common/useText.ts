import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/**
 * Translates a label that may be a catalog key ("console.common.cancel") or already-written text; elements pass
 * through. Shared components take either, as react-admin's own `label` props do.
 */
export function useText() {
  const translate = useTranslate();
  return <T extends ReactNode>(text: T): T | string =>
    typeof text === 'string' && text ? translate(text, { _: text }) : text;
}
