import { describe, expect, it } from 'vitest';
import { courseLength, isoDuration } from '../../api/src/shared/course-length';

describe('a course’s length from its lessons’', () => {
  it('is the sum when every lesson has a length', () => {
    expect(courseLength([30, 45, 50])).toBe(125);
    expect(courseLength([0, 0])).toBe(0);
  });

  it('is unknown when one lesson has none: one short video is not the course', () => {
    expect(courseLength([1, null, null, null, null, null, null, null, null])).toBeNull();
    expect(courseLength([])).toBeNull();
  });

  it('is written as an ISO 8601 duration for courseWorkload', () => {
    expect(isoDuration(125)).toBe('PT2H5M');
    expect(isoDuration(120)).toBe('PT2H');
    expect(isoDuration(45)).toBe('PT45M');
    expect(isoDuration(0)).toBe('PT0M');
  });
});
