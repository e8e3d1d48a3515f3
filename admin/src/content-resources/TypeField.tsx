import { useRecordContext, useTranslate } from 'react-admin';
import { typeLabel } from './choices';
import type { ContentResource } from './types';

/** The record's type ("Lesson"). The props are read by Datagrid (column label, sorting). */
export function TypeField(_props: { label?: string; sortBy?: string; source?: string }) {
  const record = useRecordContext<ContentResource>();
  const translate = useTranslate();
  return record ? <>{typeLabel(translate, record.type)}</> : null;
}
