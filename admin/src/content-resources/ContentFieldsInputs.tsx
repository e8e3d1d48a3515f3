import { Box } from '@mui/material';
import { SelectInput, TextInput, maxLength, regex, required } from 'react-admin';
import { RichTextInput } from '../rich-text';
import { SLUG_PATTERN, STATE_CHOICES, VISIBILITY_CHOICES, hasBody } from './choices';

const validateTitle = [required(), maxLength(200)];
const validateSlug = [
  maxLength(120),
  regex(SLUG_PATTERN, 'Use lower-case letters, digits and single dashes, such as my-first-lesson.'),
];
const validateDescription = maxLength(2000);
const validateBody = maxLength(500_000, 'The body is too long (at most 500,000 characters of HTML).');

/** The inputs of `fields`, shared by create and edit; the body editor only for lessons, pages and solutions. */
export function ContentFieldsInputs({ type }: { type: string | undefined }) {
  return (
    <>
      <TextInput source="fields.title" validate={validateTitle} fullWidth />
      <TextInput
        source="fields.slug"
        validate={validateSlug}
        fullWidth
        helperText="Part of the address on the storefront. Lower-case letters, digits and dashes; must be unique."
      />
      <TextInput
        source="fields.description"
        validate={validateDescription}
        multiline
        minRows={2}
        fullWidth
        helperText="A short summary (optional)."
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <SelectInput
          source="fields.state"
          choices={STATE_CHOICES}
          validate={required()}
          helperText="Only published content reaches learners."
        />
        <SelectInput
          source="fields.visibility"
          choices={VISIBILITY_CHOICES}
          validate={required()}
          helperText="Unlisted: reachable by its address only."
        />
      </Box>
      {hasBody(type) && (
        <RichTextInput
          source="fields.body"
          validate={validateBody}
          helperText="Scripts, event handlers and javascript: links are removed when saved."
        />
      )}
    </>
  );
}
