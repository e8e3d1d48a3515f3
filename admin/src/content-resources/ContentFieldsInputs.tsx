import { Box } from '@mui/material';
import {
  BooleanInput,
  NumberInput,
  SelectInput,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  regex,
  required,
} from 'react-admin';
import { RichTextInput } from '../rich-text';
import { SLUG_PATTERN, STATE_CHOICES, VISIBILITY_CHOICES, hasBody } from './choices';
import { LessonKindInputs } from './lesson-kinds';

const validateTitle = [required(), maxLength(200)];
const validateSlug = [maxLength(120), regex(SLUG_PATTERN, 'console.content.validation.slug')];
const validateDescription = maxLength(2000);
const validateBody = maxLength(500_000, 'console.content.validation.bodyTooLong');
const validateMinutes = [minValue(1), maxValue(1440)];

/**
 * The inputs of `fields`, shared by create and edit; the body editor only for lessons, pages and solutions, and a
 * lesson's kind with its own inputs.
 */
export function ContentFieldsInputs({ type }: { type: string | undefined }) {
  return (
    <>
      <TextInput source="fields.title" validate={validateTitle} fullWidth />
      <TextInput source="fields.slug" validate={validateSlug} fullWidth helperText="console.content.help.slug" />
      <TextInput
        source="fields.description"
        validate={validateDescription}
        multiline
        minRows={2}
        fullWidth
        helperText="console.content.help.description"
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <SelectInput
          source="fields.state"
          choices={STATE_CHOICES}
          validate={required()}
          helperText="console.content.help.state"
        />
        <SelectInput
          source="fields.visibility"
          choices={VISIBILITY_CHOICES}
          validate={required()}
          helperText="console.content.help.visibility"
        />
      </Box>
      {type === 'course' && (
        <BooleanInput
          source="fields.quizzesRequired"
          label="console.quiz.quizzesRequired"
          helperText="console.quiz.quizzesRequiredHelp"
        />
      )}
      {type === 'lesson' && <LessonKindInputs />}
      {type === 'lesson' && (
        <NumberInput
          source="fields.durationMinutes"
          step={1}
          min={1}
          validate={validateMinutes}
          helperText="console.content.help.durationMinutes"
        />
      )}
      {hasBody(type) && (
        <RichTextInput source="fields.body" validate={validateBody} helperText="console.content.help.body" />
      )}
    </>
  );
}
