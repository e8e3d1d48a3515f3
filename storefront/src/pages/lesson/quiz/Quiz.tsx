import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { FieldAlert } from '../../../ActionFeedback';
import { isApiError } from '../../../api/client';
import type { ProgressAnswer } from '../../../api/learning';
import {
  getQuiz,
  submitQuiz,
  type AttemptAnswer,
  type PresentedQuestion,
  type QuizAnswers,
  type QuizState,
} from '../../../api/quizzes';
import { LoadStatus } from '../../../LoadStatus';
import { loginPath } from '../../../redirects';
import { useSession } from '../../../session';
import { useAsync } from '../../../useAsync';
import { OrderingInput } from './OrderingInput';

/** What the page tells the quiz: whose lesson it is, and what to do when a pass completes it. */
export interface QuizContext {
  lessonId: string;
  course: string;
  onCompleted: (progress: ProgressAnswer) => void;
}

/** The rules, in words: the pass mark, the attempts and which score stands. */
function rules(quiz: { passPercent: number; maxAttempts: number | null; keep: 'best' | 'last' }) {
  const attempts =
    quiz.maxAttempts === null
      ? 'as many attempts as you like'
      : `${quiz.maxAttempts} attempt${quiz.maxAttempts === 1 ? '' : 's'}`;
  return `Pass mark ${quiz.passPercent} %, ${attempts}; your ${quiz.keep === 'best' ? 'best' : 'last'} score counts.`;
}

/**
 * A quiz lesson's part (docs/domain.md §11): the learner answers the questions of their next attempt (each attempt
 * shuffled its own way), sends them and only then reads what was right, with the explanations. A pass completes the
 * lesson. Everything is a native control (radio buttons, checkboxes, a text field, buttons to move items), so the
 * keyboard alone takes the quiz.
 */
export function Quiz({
  quiz,
  context,
}: {
  quiz: { passPercent: number; maxAttempts: number | null; keep: 'best' | 'last'; questions: PresentedQuestion[] };
  context: QuizContext;
}) {
  const { state } = useSession();
  const [pathname] = useLocation();
  const headingId = useId();
  return (
    <section className="quiz" aria-labelledby={headingId}>
      <h2 id={headingId}>Quiz</h2>
      <p className="hint">
        {quiz.questions.length} question{quiz.questions.length === 1 ? '' : 's'}. {rules(quiz)}
      </p>
      {state.status === 'signed-in' ? (
        <QuizAttempt context={context} />
      ) : (
        <p className="hint">
          <Link to={loginPath(pathname)}>Sign in</Link> to take the quiz.
        </p>
      )}
    </section>
  );
}

function QuizAttempt({ context }: { context: QuizContext }) {
  const [round, setRound] = useState(0);
  const state = useAsync(() => getQuiz(context.lessonId), [context.lessonId, round]);
  if (state.status !== 'ready') return <LoadStatus state={state} retry={state.retry} what="the quiz" />;
  return <QuizForm key={round} state={state.data} context={context} again={() => setRound((r) => r + 1)} />;
}

function standing(state: QuizState) {
  const kept = state.kept ? `Your score so far: ${state.kept.score} %${state.kept.passed ? ', passed' : ''}.` : '';
  const left = state.attemptsLeft === null ? '' : ` Attempts left: ${state.attemptsLeft}.`;
  return `${kept}${left}`.trim();
}

/** Whether a question has an answer: a choice, a non-blank text; an ordering always has its shown order. */
function answered(question: PresentedQuestion, value: string | string[] | undefined): boolean {
  if (question.kind === 'ordering') return true;
  if (question.kind === 'multiple') return Array.isArray(value) && value.length > 0;
  return typeof value === 'string' && value.trim() !== '';
}

/** "Question 2 has" / "Questions 2 and 4 have": the questions left without an answer. */
function unansweredText(numbers: number[]): string {
  if (numbers.length === 1) return `Question ${numbers[0]} has no answer yet: answer it`;
  const list = `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  return `Questions ${list} have no answer yet: answer them`;
}

function QuizForm({ state, context, again }: { state: QuizState; context: QuizContext; again: () => void }) {
  const { refresh } = useSession();
  const [answers, setAnswers] = useState<QuizAnswers>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The unanswered questions the learner was told of: sending again as they are is then their choice.
  const [warned, setWarned] = useState<string | null>(null);
  const [graded, setGraded] = useState<AttemptAnswer | null>(null);
  const questions = state.questions;
  const set = (id: string, value: string | string[]) => setAnswers((all) => ({ ...all, [id]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !questions) return;
    // Ordering questions are answered as shown unless moved: their shown order is the answer then.
    const given = { ...answers };
    for (const q of questions) if (q.kind === 'ordering' && !given[q.id]) given[q.id] = q.items.map((i) => i.id);
    // An attempt sent by mistake (Enter in a text field, an early click) uses one up: say what is unanswered first.
    const unanswered = questions.flatMap((q, i) => (answered(q, given[q.id]) ? [] : [i + 1]));
    if (unanswered.length > 0 && warned !== unanswered.join()) {
      setWarned(unanswered.join());
      setError(`${unansweredText(unanswered)}, or choose Submit answers again to send your answers as they are.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await submitQuiz(context.lessonId, given, context.course);
      setGraded(answer);
      if (answer.progress) context.onCompleted(answer.progress);
    } catch (caught) {
      if (isApiError(caught, 'unauthenticated')) refresh();
      setError(
        isApiError(caught, 'quiz-attempts-used-up')
          ? 'You have used every attempt at this quiz.'
          : `Your answers were not sent: ${(caught as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  }

  if (graded) return <QuizResult graded={graded} questions={questions ?? []} answers={answers} again={again} />;
  if (!questions) {
    return <p className="quiz-standing">{standing(state)} You have used every attempt at this quiz.</p>;
  }
  return (
    <form className="quiz-form" onSubmit={submit} aria-describedby={standing(state) ? 'quiz-standing' : undefined}>
      {standing(state) && (
        <p id="quiz-standing" className="quiz-standing">
          {standing(state)}
        </p>
      )}
      <ol className="quiz-questions">
        {questions.map((question, index) => (
          <li key={question.id}>
            <QuestionInput
              question={question}
              label={`Question ${index + 1} of ${questions.length}`}
              value={answers[question.id]}
              onChange={(value) => set(question.id, value)}
            />
          </li>
        ))}
      </ol>
      <div className="actions">
        <button type="submit" aria-disabled={busy || undefined}>
          {busy ? 'Sending…' : 'Submit answers'}
        </button>
        <span role="status">{busy ? 'Sending your answers…' : ''}</span>
      </div>
      <FieldAlert error={error} />
    </form>
  );
}

function QuestionInput({
  question,
  label,
  value,
  onChange,
}: {
  question: PresentedQuestion;
  label: string;
  value: string | string[] | undefined;
  onChange: (value: string | string[]) => void;
}) {
  const id = useId();
  const legend = (
    <legend>
      <span className="quiz-number">{label}</span> {question.prompt}
    </legend>
  );
  switch (question.kind) {
    case 'single':
      return (
        <fieldset className="quiz-question">
          {legend}
          {question.choices.map((choice) => (
            <label key={choice.id} className="quiz-choice">
              <input
                type="radio"
                name={`${id}-choice`}
                value={choice.id}
                checked={value === choice.id}
                onChange={() => onChange(choice.id)}
              />{' '}
              {choice.text}
            </label>
          ))}
        </fieldset>
      );
    case 'multiple': {
      const picked = Array.isArray(value) ? value : [];
      return (
        <fieldset className="quiz-question">
          {legend}
          <p className="hint">Choose every answer that applies.</p>
          {question.choices.map((choice) => (
            <label key={choice.id} className="quiz-choice">
              <input
                type="checkbox"
                checked={picked.includes(choice.id)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...picked, choice.id] : picked.filter((c) => c !== choice.id))
                }
              />{' '}
              {choice.text}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'short':
      return (
        <fieldset className="quiz-question">
          {legend}
          <label htmlFor={`${id}-text`}>Your answer</label>
          <input
            id={`${id}-text`}
            type="text"
            maxLength={200}
            autoComplete="off"
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(e.target.value)}
          />
        </fieldset>
      );
    case 'ordering':
      return (
        <fieldset className="quiz-question">
          {legend}
          <OrderingInput
            items={question.items}
            order={Array.isArray(value) ? value : question.items.map((i) => i.id)}
            onChange={onChange}
          />
        </fieldset>
      );
  }
}

function QuizResult({
  graded,
  questions,
  answers,
  again,
}: {
  graded: AttemptAnswer;
  questions: PresentedQuestion[];
  answers: QuizAnswers;
  again: () => void;
}) {
  // The form the focus was in is gone: the focus goes to what it became, the result, read out first.
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const byId = new Map(graded.results.map((r) => [r.questionId, r]));
  const left = graded.attempt.attemptsLeft;
  return (
    <div className="quiz-result">
      <h3 ref={ref} tabIndex={-1}>
        {graded.passed ? `Passed: you scored ${graded.score} %` : `Not passed: you scored ${graded.score} %`}
      </h3>
      <p role="status">
        {graded.passed && graded.progress ? 'The lesson is complete. ' : ''}
        {graded.attempt.kept.score !== graded.score ? `Your score that counts: ${graded.attempt.kept.score} %. ` : ''}
        {left === null ? '' : `Attempts left: ${left}.`}
      </p>
      <ol className="quiz-questions">
        {questions.map((question, index) => {
          const result = byId.get(question.id);
          if (!result) return null;
          const choiceText = (id: string) =>
            'choices' in question ? (question.choices.find((c) => c.id === id)?.text ?? id) : id;
          return (
            <li key={question.id} className={result.correct ? 'quiz-right' : 'quiz-wrong'}>
              <p>
                <span className="quiz-number">Question {index + 1}</span> {question.prompt}
              </p>
              <p className="quiz-verdict">{result.correct ? 'Correct' : 'Incorrect'}</p>
              {question.kind === 'short' && typeof answers[question.id] === 'string' && (
                <p>Your answer: {answers[question.id]}</p>
              )}
              {result.picked.length > 0 && (
                <ul>
                  {result.picked.map((choice) => (
                    <li key={choice.id}>
                      You chose “{choiceText(choice.id)}”
                      {choice.correct === null ? '' : `: ${choice.correct ? 'right' : 'not right'}`}.
                      {choice.explanation ? ` ${choice.explanation}` : ''}
                    </li>
                  ))}
                </ul>
              )}
              {result.explanation && <p className="quiz-explanation">{result.explanation}</p>}
            </li>
          );
        })}
      </ol>
      {left !== 0 && (
        <button type="button" onClick={again}>
          Try again
        </button>
      )}
    </div>
  );
}
