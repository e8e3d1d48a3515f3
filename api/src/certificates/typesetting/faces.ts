import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type fontkit from '@pdf-lib/fontkit';
import type * as HarfBuzz from 'harfbuzzjs';

/*
 * The typefaces a certificate is set in: Noto Sans, and for each script it lacks the Noto Sans of that script (all
 * TrueType files of the @expo-google-fonts packages, OFL-1.1). A face is read the first time a text needs it, so a
 * Latin name never loads the ten megabytes of Chinese.
 */

// Each file is named in full (not built from parts), so the tools see the packages as used.
const require = createRequire(import.meta.url);

type Weight = 'regular' | 'bold';

/** The base faces: Latin (Vietnamese too), Greek, Cyrillic, and what every script shares (digits, punctuation). */
const BASE = {
  regular: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
};

const CHINESE = {
  regular: require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
};
/** Han in its Japanese forms, for a name written with kana (山田 たろう): the same characters, Japan's shapes. */
const JAPANESE = {
  regular: require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf'),
};
/** Emoji in one colour (the text's ink), ZWJ sequences, skin tones and flags included. */
const EMOJI = {
  regular: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf'),
};

/**
 * The faces for each script (Unicode's Script property, as `\p{Script=…}` names it) Noto Sans does not cover, in
 * both weights: a buyer's name in Arabic on an invoice is as regular as one in Latin beside it. Han and kana share
 * Noto Sans SC, which has both; Hangul has its own.
 */
const SCRIPT_FACES: Record<string, Record<Weight, string>> = {
  Arabic: {
    regular: require.resolve('@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf'),
  },
  Hebrew: {
    regular: require.resolve('@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf'),
  },
  Devanagari: {
    regular: require.resolve('@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf'),
  },
  Bengali: {
    regular: require.resolve('@expo-google-fonts/noto-sans-bengali/400Regular/NotoSansBengali_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-bengali/700Bold/NotoSansBengali_700Bold.ttf'),
  },
  Tamil: {
    regular: require.resolve('@expo-google-fonts/noto-sans-tamil/400Regular/NotoSansTamil_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-tamil/700Bold/NotoSansTamil_700Bold.ttf'),
  },
  Telugu: {
    regular: require.resolve('@expo-google-fonts/noto-sans-telugu/400Regular/NotoSansTelugu_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-telugu/700Bold/NotoSansTelugu_700Bold.ttf'),
  },
  Gujarati: {
    regular: require.resolve('@expo-google-fonts/noto-sans-gujarati/400Regular/NotoSansGujarati_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-gujarati/700Bold/NotoSansGujarati_700Bold.ttf'),
  },
  Gurmukhi: {
    regular: require.resolve('@expo-google-fonts/noto-sans-gurmukhi/400Regular/NotoSansGurmukhi_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-gurmukhi/700Bold/NotoSansGurmukhi_700Bold.ttf'),
  },
  Kannada: {
    regular: require.resolve('@expo-google-fonts/noto-sans-kannada/400Regular/NotoSansKannada_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-kannada/700Bold/NotoSansKannada_700Bold.ttf'),
  },
  Malayalam: {
    regular: require.resolve('@expo-google-fonts/noto-sans-malayalam/400Regular/NotoSansMalayalam_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-malayalam/700Bold/NotoSansMalayalam_700Bold.ttf'),
  },
  Sinhala: {
    regular: require.resolve('@expo-google-fonts/noto-sans-sinhala/400Regular/NotoSansSinhala_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-sinhala/700Bold/NotoSansSinhala_700Bold.ttf'),
  },
  Thai: {
    regular: require.resolve('@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf'),
  },
  Lao: {
    regular: require.resolve('@expo-google-fonts/noto-sans-lao/400Regular/NotoSansLao_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-lao/700Bold/NotoSansLao_700Bold.ttf'),
  },
  Khmer: {
    regular: require.resolve('@expo-google-fonts/noto-sans-khmer/400Regular/NotoSansKhmer_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-khmer/700Bold/NotoSansKhmer_700Bold.ttf'),
  },
  Georgian: {
    regular: require.resolve('@expo-google-fonts/noto-sans-georgian/400Regular/NotoSansGeorgian_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-georgian/700Bold/NotoSansGeorgian_700Bold.ttf'),
  },
  Armenian: {
    regular: require.resolve('@expo-google-fonts/noto-sans-armenian/400Regular/NotoSansArmenian_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-armenian/700Bold/NotoSansArmenian_700Bold.ttf'),
  },
  Ethiopic: {
    regular: require.resolve('@expo-google-fonts/noto-sans-ethiopic/400Regular/NotoSansEthiopic_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-ethiopic/700Bold/NotoSansEthiopic_700Bold.ttf'),
  },
  Hangul: {
    regular: require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'),
  },
  Han: CHINESE,
  Hiragana: CHINESE,
  Katakana: CHINESE,
  Bopomofo: CHINESE,
  // Not a Unicode script (emoji are Common): its own face all the same, tried first.
  Emoji: EMOJI,
};

/** The scripts that, in one text, make its Han Japanese. */
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const JAPANESE_SCRIPTS = new Set(['Han', 'Hiragana', 'Katakana']);

/** Each script's test, in the order a character is tried (emoji first; Han before kana: a kanji is Han). */
const SCRIPT_TESTS = [
  { script: 'Emoji', test: /^\p{Extended_Pictographic}$/u },
  ...Object.keys(SCRIPT_FACES)
    .filter((script) => script !== 'Emoji')
    .map((script) => ({ script, test: new RegExp(`^\\p{Script=${script}}$`, 'u') })),
];

/**
 * The script of a character whose face is not the base one, or null: Latin, Greek, Cyrillic, and the characters
 * every script uses (spaces, digits, punctuation, joiners, combining marks), which go with their neighbours.
 */
export function scriptOf(char: string): string | null {
  return SCRIPT_TESTS.find((s) => s.test.test(char))?.script ?? null;
}

/**
 * The file of a script's face (a script scriptOf names). Han is written the same in Chinese and Japanese but drawn
 * differently; a name is taken to be Japanese when it has kana (`japanese`), since kanji alone cannot tell.
 */
export const faceFile = (
  script: string,
  { japanese = false, weight = 'bold' }: { japanese?: boolean; weight?: Weight } = {},
) => (japanese && JAPANESE_SCRIPTS.has(script) ? JAPANESE : SCRIPT_FACES[script]!)[weight];

/** Whether these texts are Japanese for faceFile: one of them has kana. */
export const isJapanese = (texts: string[]) => texts.some((text) => KANA.test(text));

/** The file of the base face, the last resort of a character no script face has. */
export const baseFaceFile = (weight: Weight) => BASE[weight];

type Fontkit = typeof fontkit;
export type FontkitFont = ReturnType<Fontkit['create']>;

/** What fontkit's TrueType subset keeps of each glyph (private fields of @pdf-lib/fontkit 1.1.1, pinned). */
interface TrueTypeSubset {
  _addGlyph(gid: number): number;
  glyf: Uint8Array[];
  offset: number;
}

/**
 * @pdf-lib/fontkit writes a subset's `loca` table in its short form (offsets / 2) whenever the glyphs fit, which
 * takes every glyph to be an even number of bytes long. Google's fonts do not pad them, so a glyph after an odd one
 * came out empty (fixed in upstream fontkit, foliojs/fontkit#191, not in this fork). Each glyph is padded here to an
 * even length, which TrueType allows.
 */
function evenGlyphs(font: FontkitFont): FontkitFont {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    const inner = subset as unknown as TrueTypeSubset;
    if (typeof inner._addGlyph !== 'function') return subset; // a CFF font: no loca table
    const addGlyph = inner._addGlyph.bind(subset);
    inner._addGlyph = (gid) => {
      const index = addGlyph(gid);
      const glyph = inner.glyf[index]!;
      if (glyph.length % 2 === 1) {
        const padded = new Uint8Array(glyph.length + 1);
        padded.set(glyph);
        Object.setPrototypeOf(padded, Object.getPrototypeOf(glyph)); // the kind of buffer fontkit's writer takes
        inner.glyf[index] = padded;
        inner.offset += 1;
      }
      return index;
    };
    return subset;
  };
  return font;
}

/** A face ready to shape (HarfBuzz), measure, subset and outline (fontkit). */
export interface Face {
  file: string;
  /** For PDF font names: the face's PostScript name. */
  name: string;
  unitsPerEm: number;
  fontkit: FontkitFont;
  harfbuzz: HarfBuzz.Font;
  /** Whether the face has a glyph for the code point (its cmap, no shaping). */
  covers(codePoint: number): boolean;
}

/** HarfBuzz (WebAssembly) is compiled with the first certificate drawn, not at start; fontkit loads with it too. */
const harfbuzz = () => import('harfbuzzjs');
const loadFontkit = () => import('@pdf-lib/fontkit').then((module) => module.default);

/** Each face read and parsed once per process; a failed read is tried again next time. */
const faces = new Map<string, Promise<Face>>();
export function loadFace(file: string): Promise<Face> {
  let loading = faces.get(file);
  if (!loading) {
    loading = Promise.all([readFile(file), harfbuzz(), loadFontkit()]).then(([bytes, hb, fontkit]) => {
      const parsed = evenGlyphs(fontkit.create(bytes));
      const font = new hb.Font(new hb.Face(new hb.Blob(bytes)));
      return {
        file,
        name: parsed.postscriptName || 'NotoSans',
        unitsPerEm: parsed.unitsPerEm,
        fontkit: parsed,
        harfbuzz: font,
        covers: (codePoint) => font.nominalGlyph(codePoint) !== undefined,
      } satisfies Face;
    });
    loading.catch(() => faces.delete(file));
    faces.set(file, loading);
  }
  return loading;
}
