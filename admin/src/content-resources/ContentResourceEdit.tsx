import { Alert } from '@mui/material';
import { Edit, Labeled, SimpleForm, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { LessonVideoPanel } from '../videos/LessonVideoPanel';
import { LessonAttachmentsPanel } from '../lesson-attachments/AttachmentsPanel';
import { typeNoun } from './choices';
import { TypeField } from './TypeField';
import { useMayEditContent } from './authorship';
import { ContentFieldsInputs } from './ContentFieldsInputs';
import { toContentUpdate } from './transform';
import type { ContentResource } from './types';

function EditTitle() {
  const record = useRecordContext<ContentResource>();
  const translate = useTranslate();
  return (
    <span>
      {record
        ? translate('console.content.editTitle', {
            type: typeNoun(translate, record.type),
            title: record.fields?.title || translate('console.common.untitled'),
          })
        : translate('console.content.editContent')}
    </span>
  );
}

/** The form, or for a contributor on another author's content, why there is none (the API would refuse it). */
function EditForm() {
  const record = useRecordContext<ContentResource>();
  const mayEdit = useMayEditContent(record);
  const translate = useTranslate();
  if (record && !mayEdit)
    return (
      <Alert severity="info" sx={{ m: 2 }}>
        {translate('console.content.notYours')}
      </Alert>
    );
  return (
    <>
      <SimpleForm
        toolbar={
          <SaveAndDeleteToolbar
            confirmTitle="console.content.delete.title"
            confirmContent="console.content.delete.content"
          />
        }
        warnWhenUnsavedChanges
      >
        <EditInputs />
      </SimpleForm>
      <LessonVideoPanel />
      <LessonAttachmentsPanel />
    </>
  );
}

function EditInputs() {
  const record = useRecordContext<ContentResource>();
  return (
    <>
      <Labeled label="resources.content-resources.fields.type">
        <TypeField />
      </Labeled>
      <ContentFieldsInputs type={record?.type} />
    </>
  );
}

/**
 * Saves pessimistically: the request goes out when Save is pressed (not ~4 s later), errors land on their
 * fields, and the show page then renders the body the API stored (sanitized).
 */
export function ContentResourceEdit() {
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  return (
    <Edit
      title={<EditTitle />}
      mutationMode="pessimistic"
      transform={toContentUpdate}
      mutationOptions={{
        onSuccess: (saved: ContentResource) => {
          notify('console.content.saved', {
            type: 'success',
            messageArgs: { title: saved.fields?.title ?? translate('console.content.contentNoun') },
          });
          redirect('show', 'content-resources', saved.id);
        },
      }}
    >
      <EditForm />
    </Edit>
  );
}
