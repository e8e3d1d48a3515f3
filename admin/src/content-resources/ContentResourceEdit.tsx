import { Edit, Labeled, SimpleForm, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { LessonVideoPanel } from '../videos/LessonVideoPanel';
import { typeNoun } from './choices';
import { TypeField } from './TypeField';
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
    </Edit>
  );
}
