import { Box, Typography } from '@mui/material';
import {
  ArrayInput,
  BooleanInput,
  FormDataConsumer,
  NumberInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  required,
  useTranslate,
} from 'react-admin';

const KINDS = ['single', 'multiple', 'short', 'ordering'].map((id) => ({
  id,
  name: `console.quiz.question.kindChoice.${id}`,
}));
const KEEP = ['best', 'last'].map((id) => ({ id, name: `console.quiz.keepChoice.${id}` }));

const validatePercent = [required(), minValue(0), maxValue(100)];
const validateAttempts = [minValue(1), maxValue(100)];
const validatePrompt = [required(), maxLength(2000)];
const validateLine = [required(), maxLength(500)];
const validateExplanation = maxLength(2000);
const validatePattern = maxLength(200);

/**
 * A quiz lesson's inputs (docs/domain.md §11): its rules, then its questions, each with the inputs of its type.
 * react-admin's list inputs give every row its add, remove and move buttons, labelled for screen readers.
 */
export function QuizInputs() {
  const translate = useTranslate();
  return (
    <Box className="quiz-inputs" sx={{ width: '100%' }}>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 2 }}>
        {translate('console.quiz.title')}
      </Typography>
      <NumberInput
        source="fields.quiz.passPercent"
        label="console.quiz.passPercent"
        defaultValue={70}
        step={1}
        validate={validatePercent}
        helperText="console.quiz.help.passPercent"
      />
      <NumberInput
        source="fields.quiz.maxAttempts"
        label="console.quiz.maxAttempts"
        step={1}
        validate={validateAttempts}
        helperText="console.quiz.help.maxAttempts"
      />
      <SelectInput
        source="fields.quiz.keep"
        label="console.quiz.keep"
        choices={KEEP}
        defaultValue="best"
        validate={required()}
      />
      <ArrayInput
        source="fields.quiz.questions"
        label="console.quiz.questions"
        helperText="console.quiz.help.questions"
        fullWidth
      >
        <SimpleFormIterator disableClear fullWidth>
          <SelectInput
            source="kind"
            label="console.quiz.question.kind"
            choices={KINDS}
            defaultValue="single"
            validate={required()}
          />
          <TextInput
            source="prompt"
            label="console.quiz.question.prompt"
            validate={validatePrompt}
            multiline
            fullWidth
          />
          <FormDataConsumer<{ kind?: string }>>
            {({ scopedFormData }) => <KindInputs kind={scopedFormData?.kind} />}
          </FormDataConsumer>
          <TextInput
            source="explanation"
            label="console.quiz.question.explanation"
            validate={validateExplanation}
            multiline
            fullWidth
          />
        </SimpleFormIterator>
      </ArrayInput>
    </Box>
  );
}

/** What a question of this type asks for: choices (which are right), accepted answers or a pattern, items in order. */
function KindInputs({ kind }: { kind: string | undefined }) {
  if (kind === 'short') {
    return (
      <>
        <ArrayInput source="accepted" label="console.quiz.question.accepted" fullWidth>
          <SimpleFormIterator inline disableClear>
            <TextInput source="" label="console.quiz.question.acceptedLine" validate={validateLine} />
          </SimpleFormIterator>
        </ArrayInput>
        <TextInput
          source="pattern"
          label="console.quiz.question.pattern"
          validate={validatePattern}
          helperText="console.quiz.help.pattern"
          fullWidth
        />
      </>
    );
  }
  if (kind === 'ordering') {
    return (
      <ArrayInput source="items" label="console.quiz.question.items" fullWidth>
        <SimpleFormIterator inline disableClear>
          <TextInput source="text" label="console.quiz.question.itemText" validate={validateLine} />
        </SimpleFormIterator>
      </ArrayInput>
    );
  }
  return (
    <ArrayInput source="choices" label="console.quiz.question.choices" fullWidth>
      <SimpleFormIterator inline disableClear>
        <TextInput source="text" label="console.quiz.question.choiceText" validate={validateLine} />
        <BooleanInput source="correct" label="console.quiz.question.correct" />
        <TextInput
          source="explanation"
          label="console.quiz.question.choiceExplanation"
          validate={validateExplanation}
        />
      </SimpleFormIterator>
    </ArrayInput>
  );
}
