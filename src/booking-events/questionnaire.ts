import { isJsonObject, own, type JsonObject, type JsonValue } from '../json.ts';
import {
  EMPTY_OPEN_ANSWERS,
  QUESTION_CLASSES,
  QUESTION_CLASS_ORDER,
  type KeywordClass,
  type QuestionClass,
} from './question-classes.ts';

/** One questionnaire item as text, with its class. */
export interface QuestionAnswer {
  question: string;
  /** '' when the question was not answered. */
  answer: string;
  questionClass: QuestionClass;
}

/** `smok*` → a word starting with smok; `best number` → those words with any whitespace between. */
function keywordPattern(keyword: string): RegExp {
  const prefix = keyword.endsWith('*');
  const body = (prefix ? keyword.slice(0, -1) : keyword)
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}${prefix ? '' : '(?![\\p{L}\\p{N}])'}`, 'iu');
}

const PATTERNS: ReadonlyArray<[KeywordClass, RegExp[]]> = QUESTION_CLASS_ORDER.map((name) => [
  name,
  QUESTION_CLASSES[name].map(keywordPattern),
]);

export function classifyQuestion(question: string): QuestionClass {
  for (const [name, patterns] of PATTERNS) {
    if (patterns.some((pattern) => pattern.test(question))) return name;
  }
  return 'open';
}

/** True for the answers an open prompt drops: blank, No, None, N/A, na, -, nothing (see the data). */
export function isEmptyOpenAnswer(answer: string): boolean {
  const folded = answer
    .trim()
    .toLowerCase()
    .replace(/[.!?,;:]+$/, '')
    .trim();
  return EMPTY_OPEN_ANSWERS.includes(folded);
}

/**
 * Whether an answer belongs in the notes (docs/booking-events.md, "Which answers are kept"). A blank answer is never shown: an
 * unanswered question tells nothing, whatever its class.
 */
export function keepsInNotes(item: QuestionAnswer): boolean {
  if (item.questionClass === 'phone' || item.answer === '') return false;
  return item.questionClass !== 'open' || !isEmptyOpenAnswer(item.answer);
}

/**
 * `questions_and_answers` → items in order: by `position` when an item has one (a number or a
 * numeric string), items without one after those that have one, ties and the rest as sent.
 * Non-object items carry no question and are skipped. Never throws on any JSON value.
 */
export function readQuestionnaire(raw: JsonValue | undefined): QuestionAnswer[] {
  if (!Array.isArray(raw)) return [];
  const items: Array<{ item: QuestionAnswer; position: number; index: number }> = [];
  raw.forEach((entry, index) => {
    if (!isJsonObject(entry)) return;
    const question = questionText(entry, index);
    const answer = answerText(own(entry, 'answer'));
    items.push({
      item: { question, answer, questionClass: classifyQuestion(question) },
      position: positionOf(entry),
      index,
    });
  });
  items.sort((a, b) => a.position - b.position || a.index - b.index);
  return items.map(({ item }) => item);
}

function positionOf(entry: JsonObject): number {
  const raw = own(entry, 'position');
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isFinite(value) ? value : Number.POSITIVE_INFINITY;
}

/** A question without text still shows its answer, under a numbered label. */
function questionText(entry: JsonObject, index: number): string {
  const raw = own(entry, 'question');
  const value = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
  return value === '' ? `Question ${index + 1}` : value;
}

/**
 * Any JSON answer as display text: numbers in decimal, booleans as Yes/No, a multi-select array
 * joined with ", ", an object as JSON (rare, but never lost). Line endings become `\n`.
 */
export function answerText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.replace(/\r\n?/g, '\n').trim();
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    return value
      .map(answerText)
      .filter((part) => part !== '')
      .join(', ');
  }
  return JSON.stringify(value);
}
