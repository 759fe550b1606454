import { describe, expect, it } from 'vitest';
import { NoPrimaryError } from '../db/database.ts';
import { createRunner, type Step } from './runner.ts';

/** A step whose rounds throw the given errors in turn, then go through (each doing one thing). */
function failingStep(errors: Error[]): Step<{ done: number }> & { rounds: number } {
  const step = {
    name: 'chores',
    rounds: 0,
    async round() {
      const err = errors[step.rounds++];
      if (err) throw err;
      return { result: { done: 1 }, full: false };
    },
  };
  return step;
}

async function runUntil(step: ReturnType<typeof failingStep>, rounds: number) {
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  const log = {
    info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj }),
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, obj }),
  };
  const runner = createRunner([step], { pollMs: 1, log, label: 'dispatcher' });
  runner.start();
  while (step.rounds < rounds) await new Promise((resolve) => setTimeout(resolve, 2));
  await runner.stop();
  return lines.filter((l) => l.msg !== 'dispatcher round');
}

describe('a runner while the database is away', () => {
  it('When rounds fail because no database takes writes, then the step is paused with one line and says so when it resumes', async () => {
    const step = failingStep(Array.from({ length: 5 }, () => new NoPrimaryError('no host takes writes')));
    const lines = await runUntil(step, 7);
    expect(lines.map((l) => `${l.level}: ${l.msg}`)).toEqual([
      'warn: dispatcher paused: the database is unavailable',
      'info: dispatcher resumed: the database answers again',
    ]);
    expect(lines[1]?.obj).toMatchObject({ dispatcher: { step: 'chores', paused_ms: expect.any(Number) } });
  });

  it('When rounds fail for a reason of their own, then each failure is logged', async () => {
    const step = failingStep([new Error('a bug'), new Error('a bug')]);
    const lines = await runUntil(step, 3);
    expect(lines.map((l) => l.msg)).toEqual([
      'dispatcher round failed; trying again',
      'dispatcher round failed; trying again',
    ]);
  });
});
