import { Alert, Box, Typography } from '@mui/material';
import { Edit, SimpleForm, TextInput, email, maxLength, required, useTranslate } from 'react-admin';
import { SaveOnlyToolbar } from '../common/SaveOnlyToolbar';
import { PictureInput } from '../media/ImageUploadInput';
import { RichTextInput } from '../rich-text';
import { AccentColorInput } from './AccentColorInput';
import { SCHOOL } from './schoolApi';
import { TaxSettingsInputs } from './TaxSettingsInputs';

function Heading({ title, children }: { title: string; children?: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ mt: 3, mb: 1 }}>
      <Typography variant="h6" component="h2">
        {translate(title)}
      </Typography>
      {children ? (
        <Typography variant="body2" color="text.secondary">
          {translate(children)}
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * The school's settings (administrators): its name and contact, brand, tax and legal texts, which every storefront
 * page, email, invoice and certificate carries. Saved at once when Save is pressed (no undo delay): the answer is what is stored.
 */
export default function SchoolSettingsPage() {
  const translate = useTranslate();
  return (
    <Edit
      resource={SCHOOL}
      id={1}
      redirect={false}
      mutationMode="pessimistic"
      title={translate('console.school.title')}
      actions={false}
      sx={{ mb: 4 }}
    >
      <SimpleForm toolbar={<SaveOnlyToolbar />} warnWhenUnsavedChanges sx={{ maxWidth: 900 }}>
        <Typography variant="h5" component="h1">
          {translate('console.school.title')}
        </Typography>
        <Typography color="text.secondary">{translate('console.school.intro')}</Typography>

        <Heading title="console.school.identity" />
        <TextInput source="name" validate={[required(), maxLength(90)]} fullWidth />
        <TextInput
          source="legalName"
          validate={maxLength(200)}
          helperText="resources.school.help.legalName"
          fullWidth
        />
        <TextInput
          source="address"
          multiline
          minRows={3}
          validate={maxLength(500)}
          helperText="resources.school.help.address"
          fullWidth
        />
        <TextInput
          source="supportEmail"
          type="email"
          validate={[email(), maxLength(320)]}
          helperText="resources.school.help.supportEmail"
          fullWidth
        />

        <Heading title="console.school.brand" />
        <AccentColorInput source="accentColor" />
        <PictureInput
          source="logoKey"
          title={translate('console.school.logoAlt')}
          helperText="resources.school.help.logoKey"
        />

        <Heading title="console.school.tax" children="console.school.taxIntro" />
        <TaxSettingsInputs />

        <Heading title="console.school.legal" children="console.school.legalIntro" />
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('console.school.legalNote')}
        </Alert>
        <RichTextInput source="termsHtml" />
        <RichTextInput source="privacyHtml" />
      </SimpleForm>
    </Edit>
  );
}
