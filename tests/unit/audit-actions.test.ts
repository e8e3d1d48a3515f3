import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, auditActionInWords } from '../../api/src/shared/audit-actions';

describe('audit actions in words', () => {
  it('names every action the API records, each in its own words', () => {
    const words = AUDIT_ACTIONS.map(auditActionInWords);
    expect(new Set(words).size).toBe(AUDIT_ACTIONS.length);
    expect(auditActionInWords('team.seat-revoked')).toBe('Team seat revoked');
    expect(auditActionInWords('receipt-resent')).toBe('Receipt sent again');
  });

  it('reads an action recorded before it had words as its name says', () => {
    expect(auditActionInWords('coupon.paused-by-hand')).toBe('Coupon paused by hand');
  });
});
