import bidiFactory from 'bidi-js';
import { baseFaceFile, faceFile, isJapanese, loadFace, scriptOf, type Face } from './faces';

/*
 * A line of text as glyphs: split into runs by direction (the Unicode bidirectional algorithm, bidi-js) and by face
 * (the script of each character), each run shaped by HarfBuzz (joining, conjuncts, vowel reordering, marks), and the
 * runs put in visual order. What is drawn from it (PDF or SVG) only places the glyphs.
 */

/** One glyph, placed in ems from the line's start on its baseline (y up). */
export interface PlacedGlyph {
  face: Face;
  glyphId: number;
  x: number;
  y: number;
  /**
   * The characters it stands for, for copying the text back out of a PDF: a cluster's characters (a conjunct, a
   * ligature, a base and its marks) shared out in order over its glyphs, so that the glyphs read in order (reversed
   * for right-to-left) give back the text. A glyph that carries none has ''.
   */
  text: string;
}

export interface ShapedLine {
  /** In ems: multiplied by the size, points. */
  width: number;
  glyphs: PlacedGlyph[];
  /** Characters no face has a glyph for (drawn as nothing). */
  missing: string[];
}

const bidi = bidiFactory();

/** Spaces, digits, punctuation: whatever face their neighbours use. */
const COMMON = /^\p{Script=Common}$/u;
/** Combining marks, joiners, variation selectors: always the face of the character before. */
const INHERITED = /^[\p{Script=Inherited}\p{Default_Ignorable_Code_Point}]$/u;

type Weight = 'regular' | 'bold';
type HarfBuzz = typeof import('harfbuzzjs');

/** The faces a text may need (its scripts' and the base one), loaded before any line is shaped. */
export async function facesFor(texts: string[], weight: Weight): Promise<Typesetter> {
  const scripts = new Set<string>();
  for (const text of texts) for (const char of text) scripts.add(scriptOf(char) ?? '');
  scripts.delete('');
  const [hb, base, ...loaded] = await Promise.all([
    import('harfbuzzjs'),
    loadFace(baseFaceFile(weight)),
    ...[...scripts].map((script) => loadFace(faceFile(script, { japanese: isJapanese(texts), weight }))),
  ]);
  const byScript = new Map([...scripts].map((script, i) => [script, loaded[i] as Face]));
  return typesetter(hb, base as Face, byScript);
}

export interface Typesetter {
  line(text: string): ShapedLine;
}

function typesetter(hb: HarfBuzz, base: Face, byScript: Map<string, Face>): Typesetter {
  const all = [base, ...new Set(byScript.values())];

  /** The face of each character (by UTF-16 index; a surrogate pair's second half repeats the first's). */
  function facesOf(text: string): (Face | null)[] {
    const chars = [...text];
    const chosen: (Face | null)[] = chars.map((char) => {
      const script = scriptOf(char);
      // Decided below, from its neighbours (an emoji is Common too, but has a face of its own).
      if (INHERITED.test(char) || (COMMON.test(char) && script !== 'Emoji')) return null;
      const codePoint = char.codePointAt(0)!;
      const own = script ? byScript.get(script) : base;
      return [own, ...all].find((face) => face?.covers(codePoint)) ?? own ?? base;
    });
    // Shared characters take the face before them (else the one after) when it has them; marks always do.
    for (let i = 0; i < chars.length; i++) {
      if (chosen[i]) continue;
      const codePoint = chars[i]!.codePointAt(0)!;
      const before = chosen[i - 1] ?? null;
      if (before && (INHERITED.test(chars[i]!) || before.covers(codePoint))) {
        chosen[i] = before;
        continue;
      }
      const after = chosen.slice(i + 1).find(Boolean) ?? null;
      chosen[i] = [after, base, ...all].find((face) => face?.covers(codePoint)) ?? before ?? base;
    }
    return chars.flatMap((char, i) => (char.length === 2 ? [chosen[i]!, chosen[i]!] : [chosen[i]!]));
  }

  return {
    line(text) {
      const { levels } = bidi.getEmbeddingLevels(text, 'auto');
      const faces = facesOf(text);
      // Runs of one face and one direction, in logical order.
      const runs: { start: number; end: number; face: Face; level: number }[] = [];
      for (let i = 0; i < text.length; i++) {
        const last = runs.at(-1);
        if (last && last.face === faces[i] && last.level === levels[i]) last.end = i + 1;
        else runs.push({ start: i, end: i + 1, face: faces[i]!, level: levels[i]! });
      }
      const shaped = runs.map((run) => ({
        level: run.level,
        ...shapeRun(hb, run.face, text, run.start, run.end, run.level),
      }));
      // Visual order (rule L2): from the highest level down to the lowest odd one, reverse each stretch at or above it.
      const highest = Math.max(0, ...shaped.map((r) => r.level));
      const lowestOdd = Math.min(...shaped.map((r) => (r.level % 2 ? r.level : Infinity)));
      for (let level = highest; level >= lowestOdd; level--) {
        for (let i = 0; i < shaped.length;) {
          if (shaped[i]!.level < level) {
            i++;
            continue;
          }
          let j = i;
          while (j < shaped.length && shaped[j]!.level >= level) j++;
          shaped.splice(i, j - i, ...shaped.slice(i, j).reverse());
          i = j;
        }
      }
      let x = 0;
      const glyphs: PlacedGlyph[] = [];
      for (const run of shaped) {
        for (const glyph of run.glyphs) glyphs.push({ ...glyph, x: x + glyph.x });
        x += run.width;
      }
      return { width: x, glyphs, missing: shaped.flatMap((r) => r.missing) };
    },
  };
}

/** One run shaped by HarfBuzz: its glyphs in visual order, placed from the run's start. */
function shapeRun(hb: HarfBuzz, face: Face, text: string, start: number, end: number, level: number) {
  const buffer = new hb.Buffer();
  buffer.addText(text, start, end - start);
  buffer.guessSegmentProperties();
  buffer.setDirection(level % 2 ? hb.Direction.RTL : hb.Direction.LTR);
  hb.shape(face.harfbuzz, buffer);
  const shaped = buffer.getGlyphInfosAndPositions();
  const em = face.unitsPerEm;

  // Each cluster's characters: from its start (a UTF-16 index into the whole text) to the next cluster's.
  const starts = [...new Set(shaped.map((g) => g.cluster))].sort((a, b) => a - b);
  const clusterText = new Map(starts.map((s, i) => [s, text.slice(s, starts[i + 1] ?? end)]));
  const rtl = level % 2 === 1;
  const share = shareOut(shaped, clusterText, rtl);

  const glyphs: Omit<PlacedGlyph, 'face'>[] = [];
  const missing: string[] = [];
  let x = 0;
  shaped.forEach((g, i) => {
    if (g.codepoint === 0) missing.push(clusterText.get(g.cluster) ?? '');
    else
      glyphs.push({ glyphId: g.codepoint, x: (x + (g.xOffset ?? 0)) / em, y: (g.yOffset ?? 0) / em, text: share[i]! });
    x += g.xAdvance ?? 0;
  });
  return { glyphs: glyphs.map((g) => ({ ...g, face })), width: x / em, missing: [...new Set(missing)] };
}

/** A cluster's characters over its glyphs, in reading order: the first glyphs read get one each, the last the rest. */
function shareOut(shaped: { cluster: number }[], clusterText: Map<number, string>, rtl: boolean): string[] {
  const share = new Array<string>(shaped.length).fill('');
  const byCluster = new Map<number, number[]>();
  shaped.forEach((g, i) => byCluster.set(g.cluster, [...(byCluster.get(g.cluster) ?? []), i]));
  for (const [cluster, visual] of byCluster) {
    const reading = rtl ? [...visual].reverse() : visual;
    const chars = [...(clusterText.get(cluster) ?? '')];
    reading.forEach((glyph, k) => {
      share[glyph] = k === reading.length - 1 ? chars.slice(k).join('') : (chars[k] ?? '');
    });
  }
  return share;
}
