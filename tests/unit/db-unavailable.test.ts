import { describe, expect, it } from 'vitest';
import { databaseUnavailable, unavailableSummary } from '../../api/src/db/unavailable';

/** An error as `pg` builds it from the server's message. */
function pgError(message: string, fields: { code: string; severity: string }): Error {
  return Object.assign(new Error(message), fields);
}

describe('a database that is away', () => {
  it('counts a session the server ended (FATAL, any code), a shutdown and a lost connection', () => {
    // A Ctrl-C that reaches a backend reading its next command ends the session with 57014 at FATAL.
    expect(
      databaseUnavailable(pgError('canceling statement due to user request', { code: '57014', severity: 'FATAL' })),
    ).toBe(true);
    expect(
      databaseUnavailable(
        pgError('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' }),
      ),
    ).toBe(true);
    expect(databaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('counts a statement cancelled by a signal from outside (Ctrl-C on the embedded server, pg_cancel_backend)', () => {
    const cancelled = pgError('canceling statement due to user request', { code: '57014', severity: 'ERROR' });
    expect(databaseUnavailable(cancelled)).toBe(true);
  });

  it('does not count a statement cancelled by its own timeout, nor a mistake in a query', () => {
    expect(
      databaseUnavailable(
        pgError('canceling statement due to statement timeout', { code: '57014', severity: 'ERROR' }),
      ),
    ).toBe(false);
    expect(
      databaseUnavailable(pgError('relation "nowhere" does not exist', { code: '42P01', severity: 'ERROR' })),
    ).toBe(false);
    expect(databaseUnavailable('a string')).toBe(false);
  });

  it('says the last line of the message and its code, no stack', () => {
    const error = pgError('SELECT 1\n  - canceling statement due to user request', {
      code: '57014',
      severity: 'FATAL',
    });
    expect(unavailableSummary(error)).toEqual({ message: 'canceling statement due to user request', code: '57014' });
  });
});
