import { Typography } from '@mui/material';
import { ArrayInput, SimpleFormIterator, TextInput, maxLength, required, useTranslate } from 'react-admin';

const validateLine = [required(), maxLength(200)];
const validateAnswer = [required(), maxLength(2000)];
const validatePolicy = maxLength(4000);

/**
 * What the product's sales page says beyond its data: "what's included" lines (after the ones the storefront works
 * out itself), questions and answers, and the refund policy (empty: the platform's). Plain text, no HTML.
 */
export function SalesPageInputs() {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 2 }}>
        {translate('resources.products.salesPage')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('resources.products.salesPageNote')}
      </Typography>
      <ArrayInput source="included" helperText="resources.products.help.included" fullWidth>
        <SimpleFormIterator inline disableClear>
          <TextInput source="" label="resources.products.includedLine" validate={validateLine} fullWidth />
        </SimpleFormIterator>
      </ArrayInput>
      <ArrayInput source="faq" helperText="resources.products.help.faq" fullWidth>
        <SimpleFormIterator disableClear>
          <TextInput source="question" label="resources.products.question" validate={validateLine} fullWidth />
          <TextInput
            source="answer"
            label="resources.products.answer"
            validate={validateAnswer}
            multiline
            minRows={2}
            fullWidth
          />
        </SimpleFormIterator>
      </ArrayInput>
      <TextInput
        source="refundPolicy"
        validate={validatePolicy}
        multiline
        minRows={3}
        fullWidth
        helperText="resources.products.help.refundPolicy"
      />
    </>
  );
}
