import { contrastRatio, DARK_TEXT, readableOn } from '../shared/colour-contrast';
import { escapeHtml } from '../shared/escape-html';
import type { NewEmail } from './outbox-email';

/**
 * The school as its emails present it. Built by services.ts from the school's settings (mail sits below school, so
 * it only knows this shape).
 */
export interface Brand {
  /** The sender's display name, the header's title and the signature's first line. */
  name: string;
  /** Where replies go (Reply-To); without it replies reach MAIL_FROM's address. */
  supportEmail: string | null;
  /** The postal address, one line per line (the footer's). */
  address: string;
  /** The logo at an absolute URL (the reader's mail client fetches it), with the size of the stored image. */
  logo: { url: string; width: number; height: number } | null;
  /** `#rrggbb`: the header's bar and the buttons. */
  accentColor: string;
}

const TEXT = DARK_TEXT;
const MUTED = '#4b5563';
const WHITE = '#ffffff';
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const LOGO_HEIGHT = 48;
const LOGO_MAX_WIDTH = 240;

/**
 * The colours an accent allows: a button's label in white or near-black, whichever reads better on it; links in the
 * accent only where it reads on white (4.5:1), else in the body's colour (a pale accent still colours the buttons).
 */
function palette(accent: string) {
  return {
    accent,
    onAccent: readableOn(accent),
    link: contrastRatio(accent, WHITE) >= 4.5 ? accent : TEXT,
  };
}

/**
 * The templates' calls to action, each a link alone in its paragraph: the first drawn as a button in the accent,
 * any later one outlined in it, so the email's main step stands out.
 */
const ACTION = /<p><a href="([^"]*)">([^<]*)<\/a><\/p>/g;

function styledBody(html: string, colours: ReturnType<typeof palette>): string {
  const shape = 'display:inline-block;padding:10px 18px;border-radius:6px;font-weight:600;text-decoration:none';
  const filled = `${shape};border:2px solid ${colours.accent};background:${colours.accent};color:${colours.onAccent}`;
  const outlined = `${shape};border:2px solid ${colours.accent};color:${colours.link}`;
  let actions = 0;
  return html
    .replace(
      ACTION,
      (_, href: string, label: string) =>
        `<p style="margin:24px 0"><a style="${actions++ ? outlined : filled}" href="${href}">${label}</a></p>`,
    )
    .replaceAll('<a href=', `<a style="color:${colours.link}" href=`);
}

/** The logo, its alt text the school's name (what a client that holds images back shows), else the name as text. */
function header(brand: Brand): string {
  if (!brand.logo) {
    return `<span dir="auto" style="font-size:20px;font-weight:700;color:${TEXT}">${escapeHtml(brand.name)}</span>`;
  }
  const { url, width, height } = brand.logo;
  const scale = Math.min(LOGO_HEIGHT / height, LOGO_MAX_WIDTH / width);
  const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
  return `<img src="${escapeHtml(url)}" width="${w}" height="${h}" alt="${escapeHtml(brand.name)}" style="display:block;border:0;font-size:20px;font-weight:700;color:${TEXT}">`;
}

function footer(brand: Brand): string {
  const lines = [`<span dir="auto">${escapeHtml(brand.name)}</span>`];
  if (brand.address) lines.push(...brand.address.split('\n').map((l) => `<span dir="auto">${escapeHtml(l)}</span>`));
  if (brand.supportEmail) {
    const email = escapeHtml(brand.supportEmail);
    lines.push(
      `Questions? Reply to this email or write to <a style="color:${MUTED}" href="mailto:${email}">${email}</a>.`,
    );
  }
  return lines.join('<br>');
}

/** The whole HTML document around a template's body: the school's header, the body, its footer. */
function layout(body: string, subject: string, brand: Brand): string {
  const colours = palette(brand.accentColor);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f3f4f6">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:${WHITE};border-top:6px solid ${colours.accent};font-family:${FONT};font-size:16px;line-height:1.5;color:${TEXT}">` +
    `<tr><td style="padding:20px 24px 8px">${header(brand)}</td></tr>` +
    `<tr><td style="padding:8px 24px 16px">${styledBody(body, colours)}</td></tr>` +
    `<tr><td style="padding:16px 24px 24px;border-top:1px solid #e5e7eb;font-size:13px;line-height:1.6;color:${MUTED}">${footer(brand)}</td></tr>` +
    `</table></td></tr></table></body></html>`
  );
}

/**
 * An email as the school sends it: from the school's name, replies to its support address, the HTML in its layout
 * and the text signed with its name and support address. Applied when the email is written to the outbox, so the
 * stored email is the one sent (and resent) even if the school changes its name later.
 */
export function brandedEmail(email: NewEmail, brand: Brand): NewEmail {
  const signature = [brand.name, brand.supportEmail].filter(Boolean).join('\n');
  return {
    ...email,
    fromName: brand.name,
    replyTo: brand.supportEmail,
    text: `${email.text.trimEnd()}\n\n-- \n${signature}\n`,
    html: email.html ? layout(email.html, email.subject, brand) : email.html,
  };
}
