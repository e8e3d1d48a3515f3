/**
 * A quiz as the API's strict schema takes it (api/src/learning/quizzes/quiz.schemas.ts), from the editor's form:
 * new questions, choices and items get an id (random, so their order says nothing), each question keeps only the
 * fields of its type (a question switched from choices to a short answer drops its choices), blank lines go.
 */
type Loose = Record<string, unknown>;

const idOf = (row: Loose) => (typeof row.id === 'string' && row.id ? row.id : crypto.randomUUID());
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const rows = (value: unknown): Loose[] => (Array.isArray(value) ? value.filter((v) => v && typeof v === 'object') : []);
const explanation = (row: Loose) => text(row.explanation) || null;

function question(row: Loose): Loose {
  const common = { id: idOf(row), kind: row.kind, prompt: text(row.prompt), explanation: explanation(row) };
  switch (row.kind) {
    case 'short':
      return {
        ...common,
        accepted: (Array.isArray(row.accepted) ? row.accepted : []).map(text).filter(Boolean),
        pattern: text(row.pattern) || null,
      };
    case 'ordering':
      return { ...common, items: rows(row.items).map((item) => ({ id: idOf(item), text: text(item.text) })) };
    default:
      return {
        ...common,
        choices: rows(row.choices).map((choice) => ({
          id: idOf(choice),
          text: text(choice.text),
          correct: choice.correct === true,
          explanation: explanation(choice),
        })),
      };
  }
}

export function toQuizFields(value: unknown): Loose {
  const quiz = (value && typeof value === 'object' ? value : {}) as Loose;
  const max = quiz.maxAttempts;
  return {
    passPercent: typeof quiz.passPercent === 'number' ? quiz.passPercent : 70,
    maxAttempts: typeof max === 'number' ? max : null,
    keep: quiz.keep === 'last' ? 'last' : 'best',
    questions: rows(quiz.questions).map(question),
  };
}
