import { describe, expect, it } from 'vitest';
import { gradeQuiz } from '../../api/src/learning/quizzes/grading';
import { QuizFields } from '../../api/src/learning/quizzes/quiz.schemas';

// Grading short answers and left-out questions (docs/domain.md §11): what a learner types is read as the accepted
// answers are, whichever way their keyboard composed it, and a question left out is wrong, whatever its id; a graded
// multiple choice never reads out its answer.
const quiz = QuizFields.parse({
  passPercent: 100,
  questions: [
    { id: 'cafe', kind: 'short', prompt: 'Where is coffee served?', pattern: 'le café|the café' },
    { id: 'arabic', kind: 'short', prompt: 'Say hello', pattern: 'مرحبا( بك)?' },
    {
      id: 'types',
      kind: 'multiple',
      prompt: 'Which are primitive types?',
      choices: [
        { id: 'string', text: 'string', correct: true },
        { id: 'number', text: 'number', correct: true },
        { id: 'array', text: 'Array' },
      ],
    },
    {
      id: 'constructor',
      kind: 'single',
      prompt: 'Pick',
      choices: [
        { id: 'a', text: 'A', correct: true },
        { id: 'b', text: 'B' },
      ],
    },
  ],
});
const right = (answers: Record<string, string>) =>
  Object.fromEntries(gradeQuiz(quiz, answers).results.map((r) => [r.questionId, r.correct]));

describe('grading a quiz attempt', () => {
  it('matches a pattern whatever the accent’s composition, spacing and case', () => {
    expect(right({ cafe: 'Le Café' }).cafe).toBe(true);
    expect(right({ cafe: 'le cafe\u0301' }).cafe).toBe(true); // é typed as e and a combining accent
    expect(right({ cafe: '  the   café ' }).cafe).toBe(true);
    expect(right({ cafe: 'the cafe' }).cafe).toBe(false);
    expect(right({ arabic: ' مرحبا  بك ' }).arabic).toBe(true);
    expect(right({ arabic: 'مرحبا بكم' }).arabic).toBe(false);
  });

  it('counts a question left out as wrong, whatever its id', () => {
    expect(right({})).toEqual({ cafe: false, arabic: false, types: false, constructor: false });
    expect(right({ constructor: 'a' }).constructor).toBe(true);
  });

  it('does not say which choices are right of a multiple choice answered wrong: picking all would read out the answer', () => {
    const picked = (answer: string[]) =>
      gradeQuiz(quiz, { types: answer }).results.find((r) => r.questionId === 'types')!.picked;
    expect(picked(['string', 'number', 'array']).map((c) => c.correct)).toEqual([null, null, null]);
    expect(picked(['number', 'string']).map((c) => c.correct)).toEqual([true, true]);
    const single = gradeQuiz(quiz, { constructor: 'b' }).results.find((r) => r.questionId === 'constructor')!;
    expect(single.picked).toEqual([{ id: 'b', correct: false, explanation: null }]);
  });
});
