import { describe, expect, it } from 'vitest';
import { MAX_VTT_BYTES, parseWebVtt, WebVttError } from '../../api/src/video/webvtt';

const failure = (text: string) => {
  try {
    parseWebVtt(text);
  } catch (error) {
    if (error instanceof WebVttError) return { line: error.line, message: error.message };
    throw error;
  }
  throw new Error('parsed');
};

describe('WebVTT', () => {
  it('reads cues in seconds with their text as a transcript shows it', () => {
    const vtt = [
      '\uFEFFWEBVTT - a lesson',
      'Kind: captions',
      '',
      'NOTE written by hand',
      'over two lines',
      '',
      'STYLE',
      '::cue { color: yellow }',
      '',
      'intro',
      '00:00.500 --> 00:02.000 line:0 position:20%',
      '<v Ana>Hello &amp; <i>welcome</i></v>',
      'to the course',
      '',
      '01:02:03.004 --> 01:02:05.000',
      'Later <00:00:03.500>on',
      '',
    ].join('\r\n');
    expect(parseWebVtt(vtt).cues).toEqual([
      { start: 0.5, end: 2, text: 'Hello & welcome to the course' },
      { start: 3723.004, end: 3725, text: 'Later on' },
    ]);
  });

  it('refuses what browsers would not show, saying on which line', () => {
    expect(failure('WEBVT\n\n00:01.000 --> 00:02.000\nx')).toEqual({
      line: 1,
      message: 'line 1: a WebVTT file starts with the line "WEBVTT"',
    });
    expect(failure('WEBVTT\n\n00:01.000 --> 00:02.000\nfine\n\n00:03.000 -> 00:04.000\nbroken').line).toBe(6);
    expect(failure('WEBVTT\n\n00:01.000 --> 00:02.000\nfine\n\n00:03.00 --> 00:04.000\nx').message).toBe(
      'line 6: "00:03.00" is not a time like 00:01.000',
    );
    expect(failure('WEBVTT\n\n00:01.000 --> 00:61.000\nx').line).toBe(3);
    expect(failure('WEBVTT\n\n00:05.000 --> 00:04.000\nx').message).toContain('ends (00:04.000) before it starts');
    expect(failure('WEBVTT\n\n00:01.000 --> 00:02.000\nx\n00:03.000 --> 00:04.000\ny').line).toBe(5);
    expect(failure('WEBVTT\n00:01.000 --> 00:02.000\nx').line).toBe(2);
    expect(failure('WEBVTT\n\nNOTE nothing else\n').message).toBe('the file has no cues');
    expect(failure(`WEBVTT\n\n${'x'.repeat(MAX_VTT_BYTES)}`).message).toContain('larger than 1 MB');
  });
});
